// parseStreamingJson's cases for the pi-ai case table (pi-ai-cases.mjs): JSON
// texts cut at every character, numbers, escapes and words cut part-way,
// text that is not JSON, and inputs without text. pi reads cut-off text with
// the partial-json package, whose leniency the results show.

// Whole documents; every prefix of each is a case.
const DOCUMENTS = {
  toolArguments: '{"path":"src/a.txt","limit":10,"flag":true,"none":null,"list":[1,-2.5e+3,"x"],"nested":{"k":"v"}}',
  arrayRoot: '[{"a":[]},{"b":{}},"s\\n\\"q\\" \\u00e9\\ud83d\\ude00",false,-0.125E-2]',
  stringRoot: '"with \\"escapes\\", \\u0041, \\\\ and \\/"',
  spaced: '{\n  "a" : [ 1 , 2 ] ,\n\t"b" : { "c" : "d" } ,\r\n  "e" : "f g"\n}',
  numbers: '{"n":-12.5e-3,"m":0,"o":1E5,"p":-0,"q":7.25}',
  words: "[true,false,null,NaN,Infinity,-Infinity]",
  numberRoot: "-123.45e+6",
  wordRoot: "false",
  nestedArrays: '[[[[1,[2]],3]],[],[[]]]',
  unicode: '{"emoji":"👋 é","pair":"\\ud83d\\ude00","k":"\\u00e9"}',
  needsRepair: '{"a":"x\ny","re":"\\d+\\s","b":1}',
  escapedBackslashes: '{"p":"C:\\\\dir\\\\","q":"\\\\"}',
};

// Single texts: cuts inside numbers, escapes and words, and text that is not JSON.
const TEXTS = [
  "1.",
  "-",
  "1e",
  "1e+",
  "-1.",
  "1.5e",
  "12 34",
  "1e5x",
  "0x10",
  "01",
  "-0",
  "[1.",
  "[-",
  "[1e",
  "[1e-",
  "[-1.5e",
  '{"a":1.',
  '{"a":-',
  '{"a":-,"b":2}',
  '{"e":1e',
  '{"e":1e}',
  "[01]",
  "[0x10]",
  "[1e5x]",
  "[1 2 3]",
  '"\\u00',
  '"\\u',
  '"\\',
  '"abc\\',
  '"abc\\\\',
  '"a\\qb',
  '"a\\qb"',
  '"\\ud83d',
  '"\\ud83d\\ude',
  '{"a":"\\u00',
  '{"a":"xy\\u00e',
  '{"a":"x\\',
  '["a\\',
  '["\\u12G4"]',
  '["\\u12G4',
  '{"re":"\\d',
  '"a\nb',
  '"a\nb"',
  '{"a":"x\ny',
  '{"a":"x\ny","b":1',
  '{"a":"x\ty"',
  "tru",
  "nul",
  "fa",
  "t",
  "n",
  "N",
  "Na",
  "I",
  "Inf",
  "-I",
  "-Inf",
  "[nul",
  "[tr",
  "[tr]",
  "[t, ",
  "[N",
  "[-I",
  '{"a":tru',
  '{"a":fals',
  '{"a":nu}',
  "nullx",
  "truex",
  "null",
  "  null  ",
  "true",
  "NaN",
  "Infinity",
  "-Infinity",
  '""',
  '"',
  "{",
  "[",
  '{"',
  '{"a',
  '{"a"',
  '{"a":',
  '{"a": ',
  '{"a":1,',
  '{"a":1,"',
  '{"a":[1,{"b":',
  '{"a":"b"  ,  ',
  "invalid",
  "abc",
  "{abc}",
  "{a:1}",
  "{'a':1}",
  "]",
  "}",
  ":",
  ",",
  "[,]",
  "[1,,2]",
  "[,1]",
  '{"a" 1}',
  '{"a":1 "b":2}',
  '{"a"}',
  '{"a"]',
  '[{"a"}] 5',
  '{"a":1}}',
  "[1]]",
  '{"a":1} tail',
  '{"a":1} {"b":2}',
  "[[ ], 1",
  "[[ ], true",
  "[ ]",
  "{ }",
  "[ 1e",
  '{"a": x}',
  '{"a": ]5e',
  '[{"a": x}] , 5e',
  "[x]",
  "[x",
  '{"a":{"b":[1,2',
  '{,"a":1}',
  '{"a":1,}',
  "[1,]",
  "\u00a0{\"a\":1",
  '\ufeff{"a":1}',
  '\u2028[1,2',
  "\t\n [1, 2 \n",
];

// Inputs without text to read.
const NO_TEXT = [
  ["undefined", undefined],
  ["null", null],
  ["empty", ""],
  ["spaces", "   "],
  ["newlineTab", "\n\t"],
  ["zero", 0],
  ["false", false],
];

/** Adds the cases to the table through `add(name, run)`; `ai` is the pi-ai root. */
export function addStreamingJsonCases(add, ai) {
  const parse = ai.parseStreamingJson;
  for (const [label, text] of Object.entries(DOCUMENTS)) {
    add(`parseStreamingJson.prefixes.${label}`, () =>
      Array.from({ length: text.length + 1 }, (_, cut) => parse(text.slice(0, cut))),
    );
  }
  add("parseStreamingJson.texts", () => TEXTS.map((text) => [text, parse(text)]));
  add("parseStreamingJson.noText", () => NO_TEXT.map(([label, input]) => [label, parse(input)]));
  add("parseStreamingJson.completeNullStaysNull", () => [parse("null"), parse(" null"), parse("[null]"), parse("nul")]);
  add("parseStreamingJson.nonStringThrows", () => parse(5));
  add("parseStreamingJson.protoMember", () =>
    ['{"__proto__":{"x":1},"y":2', '{"__proto__":{"x":1},"y":2}', '{"__proto__":[1,2],"length":5', '{"__proto__":3,"y":'].map((text) => {
      const value = parse(text);
      const prototype = Object.getPrototypeOf(value);
      return {
        own: Object.keys(value),
        value,
        plainPrototype: prototype === Object.prototype,
        prototype: prototype === Object.prototype ? "Object.prototype" : prototype,
      };
    }),
  );
  add("parseStreamingJson.freshObjects", () => {
    const text = '{"a":[1';
    return [parse(text) !== parse(text), parse("") !== parse(""), parse("nul") !== parse("nul")];
  });
  add("parseStreamingJson.deepNesting", () => {
    const depth = 300;
    const arrays = parse(`${"[".repeat(depth)}1`);
    const objects = parse(`${'{"a":'.repeat(depth)}"leaf`);
    let arrayDepth = 0;
    for (let node = arrays; Array.isArray(node); node = node[0]) arrayDepth++;
    let objectDepth = 0;
    let leaf = objects;
    for (; leaf && typeof leaf === "object"; leaf = leaf.a) objectDepth++;
    return { arrayDepth, objectDepth, leaf };
  });
  add("parseStreamingJson.largeArray", () => {
    const text = `{"items":[${Array.from({ length: 5000 }, (_, index) => index * 3).join(",")}`;
    const items = parse(text).items;
    return { count: items.length, last: items.at(-1), cut: parse(text.slice(0, -2)).items.at(-1) };
  });
}
