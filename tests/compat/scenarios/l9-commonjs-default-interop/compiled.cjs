// What TypeScript or Babel compile `export default function` to.
Object.defineProperty(exports, "__esModule", { value: true });
exports.default = function compiledDefault() {
  return "compiled";
};
exports.other = "other";
