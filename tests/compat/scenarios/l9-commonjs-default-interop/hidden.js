// A CommonJS .js file whose names a static reader cannot see.
const names = ["hidden", "another"];
for (const name of names) module.exports[name] = `${name} value`;
