// Codemode scripts timed the same way in pi 1.6.0 on Node (reference.mjs)
// and inside pihost (extension.ts): the codemode tool as
// createCodemodeExtension registers it, executed on a ctx whose tools answer
// at once. Each case runs ROUNDS times one after another; the median wall
// time of one tool call (script start to result) is reported in
// milliseconds.

const TOOLS = [
  { name: "lookup", description: "Looks a key up.", parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] } },
];

const CASES = {
  "a script that returns at once": "return 1",
  "a script calling a tool 10 times": "let out = [];\nfor (let i = 0; i < 10; i++) out.push(await tools.lookup({ key: 'k' + i }));\nreturn out.length",
  "a script computing 1,000,000 loop turns": "let sum = 0;\nfor (let i = 0; i < 1000000; i++) sum += i % 7;\nreturn sum",
};

function codemodeTool(createCodemodeExtension) {
  const registered = [];
  createCodemodeExtension()({
    registerTool: (tool) => registered.push(tool),
    appendEntry: () => {},
    getAllTools: () => TOOLS,
    getSettings: () => ({}),
  });
  return registered[0];
}

function ctx() {
  let count = 0;
  return {
    tools: TOOLS,
    sessionManager: { getBranch: () => [] },
    executeTool: async (name, args) => ({
      toolCall: { type: "toolCall", id: `bench/${++count}`, name, arguments: args },
      result: { content: [{ type: "text", text: `${args.key}=1` }] },
      isError: false,
    }),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `{ case: median ms }` for each case, after one untimed warm-up call. */
export async function timeCodemode(createCodemodeExtension, rounds = 20) {
  const tool = codemodeTool(createCodemodeExtension);
  const results = {};
  for (const [name, code] of Object.entries(CASES)) {
    const run = async () => {
      const result = await tool.execute("bench", { code }, undefined, undefined, ctx());
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    };
    await run();
    const times = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    results[name] = median(times);
  }
  return results;
}
