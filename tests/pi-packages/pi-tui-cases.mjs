// The inputs that pi-tui's behaviour is recorded and compared on. Both the
// recorder (tests/reference/record-pi-tui.mjs, real pi-tui) and the
// differential (tests/pi-packages/pi-tui-differential.mjs, pihost's
// js/pi/pi-tui.js) call runCases with their module, so the two can never
// drift apart. Every result is keyed by a readable case id.

import { exportCoverageCases } from "./pi-tui-export-coverage-cases.mjs";
import { layoutCases } from "./pi-tui-layout-cases.mjs";
import { latexCases } from "./pi-tui-latex-cases.mjs";
import { markedCases } from "./pi-tui-marked-cases.mjs";
import { markdownMathCases } from "./pi-tui-markdown-math-cases.mjs";

const ESC = "\x1b";
const red = (s) => `${ESC}[31m${s}${ESC}[39m`;
const bold = (s) => `${ESC}[1m${s}${ESC}[22m`;
const link = (url, s, st = "\x07") => `${ESC}]8;;${url}${st}${s}${ESC}]8;;${st}`;

export const STRINGS = {
  empty: "",
  ascii: "hello world",
  asciiLong: "The quick brown fox jumps over the lazy dog and keeps running far away",
  words: "a bb ccc dddd eeeee ffffff ggggggg",
  longWord: "supercalifragilisticexpialidocious",
  spaces: "  leading and trailing  ",
  manySpaces: "a          b",
  tab: "a\tb\tc",
  tabs: "\t\tindented",
  newline: "line one\nline two\r\nline three\rfour",
  blankLines: "a\n\n\nb",
  cjk: "日本語のテキストです",
  cjkMixed: "hello 世界 and 中文 text",
  hangul: "한국어 텍스트",
  fullwidth: "ＡＢＣ１２３",
  halfwidthKana: "ｶﾀｶﾅﾞ",
  emoji: "😀 grin",
  emojiRow: "😀😁😂🤣😃😄😅😆",
  zwjFamily: "👨‍👩‍👧‍👦 family",
  zwjMixed: "a👩‍💻b🧑‍🤝‍🧑c",
  flags: "🇺🇸🇯🇵🇬🇧",
  loneRegional: "🇺x",
  skinTones: "👍🏽👋🏿✌🏻",
  vs16: "❤️ ☺️ ✔️",
  textHeart: "❤ ☺ ✔",
  keycap: "1️⃣#️⃣",
  rainbowFlag: "🏳️‍🌈",
  tagFlag: "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  combining: "e\u0301e\u0301 cafe\u0301",
  combiningStack: "a\u0300\u0301\u0302\u0303b",
  loneMark: "\u0301x",
  devanagari: "नमस्ते दुनिया",
  thai: "สวัสดีครับ น้ำ",
  zeroWidth: "a\u200bb\u200cc\u2060d",
  softHyphen: "soft\u00adhyphen",
  control: "bell\x07here",
  loneEsc: "esc\x1bhere",
  ansiRed: red("red text"),
  ansiBold: `plain ${bold("bold words here")} plain`,
  ansiMixed: `${ESC}[1;31mbold red${ESC}[0m normal ${ESC}[4munderlined text here${ESC}[24m end`,
  ansi256: `${ESC}[38;5;208morange${ESC}[48;2;10;20;30m on rgb${ESC}[0m`,
  ansiUnderlineLong: `${ESC}[4mthis underlined text runs long enough to wrap${ESC}[24m`,
  ansiStrike: `${ESC}[9mstruck through words across lines${ESC}[29m`,
  ansiCjk: red("中文字符测试文本"),
  ansiEmoji: bold("😀 emoji 👍🏽 bold"),
  ansiMarkAfterCode: `e${ESC}[31m\u0301x${ESC}[0m`,
  osc8: link("https://example.com", "a link text"),
  osc8St: link("https://example.com/path", "link with st terminator", `${ESC}\\`),
  osc8Mixed: `see ${link("https://pi.dev", red("the docs"))} now`,
  cursorMarker: `ab${ESC}_pi:c\x07cd`,
  csiCursor: `${ESC}[2Kcleared${ESC}[10G col`,
  path: "/home/user/projects/some-long-directory-name/src/components/file.ts",
  url: "https://example.com/a/very/long/url/that/keeps/going?query=string&and=more",
  nbsp: "non\u00a0breaking\u00a0space",
  ideographicSpace: "中文\u3000空格",
  surrogate: "lone\ud800surrogate",
};

export const WIDTHS = [1, 2, 3, 5, 10, 20, 40, 80];

const KEY_INPUTS = [
  "a", "A", "z", "Z", "1", "!", "+", "=", "-", "_", "/", "?", " ", "\t", "\r", "\n", "\x1b", "\x7f", "\x08",
  "\x00", "\x01", "\x03", "\x04", "\x0a", "\x0e", "\x10", "\x17", "\x1a", "\x1b\x1b", "\x1c", "\x1d", "\x1f",
  "\x1ba", "\x1bA", "\x1bb", "\x1bf", "\x1bp", "\x1bn", "\x1bB", "\x1bF", "\x1b\r", "\x1b ", "\x1b\x7f", "\x1b\b",
  "\x1b\x01", "\x1b\x03", "\x1b1", "\x1b/",
  "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1bOA", "\x1bOD", "\x1b[H", "\x1b[F", "\x1bOH", "\x1bOF",
  "\x1b[1~", "\x1b[4~", "\x1b[7~", "\x1b[8~", "\x1b[2~", "\x1b[3~", "\x1b[5~", "\x1b[6~", "\x1b[[5~", "\x1b[Z",
  "\x1b[E", "\x1bOE", "\x1bOM", "\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS", "\x1b[11~", "\x1b[15~", "\x1b[24~", "\x1b[[A",
  "\x1b[a", "\x1b[d", "\x1bOa", "\x1bOd", "\x1b[3$", "\x1b[3^", "\x1b[5^", "\x1b[7$", "\x1b[2^",
  "\x1b[1;5A", "\x1b[1;5D", "\x1b[1;5C", "\x1b[1;3D", "\x1b[1;3C", "\x1b[1;2A", "\x1b[1;6B", "\x1b[1;5H",
  "\x1b[1;2F", "\x1b[1;5P", "\x1b[1;2S", "\x1b[P", "\x1b[3;5~", "\x1b[5;3~", "\x1b[15;2~",
  "\x1b[97u", "\x1b[97;5u", "\x1b[97;2u", "\x1b[65;2u", "\x1b[97;3u", "\x1b[97;9u", "\x1b[97;7u", "\x1b[97;6u",
  "\x1b[99;5u", "\x1b[99;69u", "\x1b[13u", "\x1b[13;2u", "\x1b[13;3u", "\x1b[13;5u", "\x1b[57414u", "\x1b[57414;2u",
  "\x1b[27u", "\x1b[27;1:3u", "\x1b[9u", "\x1b[9;2u", "\x1b[32u", "\x1b[32;5u", "\x1b[127u", "\x1b[127;3u",
  "\x1b[127;5u", "\x1b[61:43;2u", "\x1b[61:43;6u", "\x1b[47;5u", "\x1b[45;5u", "\x1b[1089::99;5u", "\x1b[1089;5u",
  "\x1b[107::118;5u", "\x1b[57399u", "\x1b[57417u", "\x1b[57426;5u", "\x1b[57441u", "\x1b[97;1:2u", "\x1b[97;1:3u",
  "\x1b[1;1:3A", "\x1b[1;5:3D", "\x1b[3;1:3~", "\x1b[1;1:2H", "\x1b[1;1:3P", "\x1b[200~abc:3u\x1b[201~",
  "\x1b[27;5;97~", "\x1b[27;2;13~", "\x1b[27;3;13~", "\x1b[27;5;13~", "\x1b[27;2;43~", "\x1b[27;6;43~",
  "\x1b[27;2;65~", "\x1b[27;1;27~", "\x1b[27;5;9~", "\x1b[27;2;9~", "\x1b[27;5;32~", "\x1b[27;3;127~",
  "é", "日", "ab", "\x1b[", "\x1b[999u", "\x1b[A\x1b[B",
];

const KEY_IDS = [
  "a", "A", "z", "1", "!", "+", "=", "-", "_", "/", "?", "[", "\\", "]", "`",
  "ctrl+a", "ctrl+c", "ctrl+d", "ctrl+j", "ctrl+n", "ctrl+p", "ctrl+w", "ctrl+z", "ctrl+-", "ctrl+_", "ctrl+[",
  "ctrl+\\", "ctrl+]", "ctrl+/", "ctrl+=", "ctrl+k", "CTRL+C", "ctrl+1",
  "shift+a", "shift+z", "shift+1", "shift+=", "shift++", "ctrl+shift+a", "shift+ctrl+a", "ctrl+shift+c",
  "ctrl++", "ctrl+shift+=",
  "alt+a", "alt+b", "alt+f", "alt+1", "alt+/", "alt+A", "ctrl+alt+a", "ctrl+alt+c", "ctrl+alt+[", "super+a",
  "super+c", "ctrl+super+a", "ctrl+shift+alt+a",
  "escape", "esc", "enter", "return", "shift+enter", "alt+enter", "ctrl+enter", "tab", "shift+tab", "ctrl+tab",
  "space", "ctrl+space", "alt+space", "shift+space", "backspace", "alt+backspace", "ctrl+backspace",
  "shift+backspace", "delete", "ctrl+delete", "shift+delete", "insert", "ctrl+insert", "clear", "ctrl+clear",
  "home", "end", "ctrl+home", "shift+home", "shift+end", "pageUp", "pageDown", "ctrl+pageUp", "shift+pageDown",
  "pageup", "up", "down", "left", "right", "alt+up", "alt+down", "alt+left", "alt+right", "ctrl+left", "ctrl+right",
  "ctrl+up", "shift+up", "ctrl+shift+down", "f1", "f2", "f3", "f4", "f5", "f12", "ctrl+f1", "shift+f4",
  "ctrl+ctrl+a", "ctrl+", "foo", "ctrl+foo", "a+b", "",
];

const FUZZY_TEXTS = [
  "openrouter openrouter/anthropic/claude-opus",
  "claude-opus-4",
  "gpt-4o-mini",
  "gpt4",
  "4gpt",
  "src/components/select-list.ts",
  "README.md",
  "Settings",
  "show thinking",
  "",
];
const FUZZY_QUERIES = ["", "opus", "gpt4", "4gpt", "sl", "slt", "readme", "set", "xyz", "o", "claude opus", "gpt/mini", "ST", "  "];

const plainTheme = {
  selectedText: (s) => `<sel>${s}</sel>`,
  description: (s) => `<desc>${s}</desc>`,
  scrollInfo: (s) => `<scroll>${s}</scroll>`,
  noMatch: (s) => `<nomatch>${s}</nomatch>`,
};
const settingsTheme = {
  label: (s, sel) => (sel ? `[L*${s}]` : `[L ${s}]`),
  value: (s, sel) => (sel ? `[V*${s}]` : `[V ${s}]`),
  description: (s) => `[D ${s}]`,
  cursor: "> ",
  hint: (s) => `[H ${s}]`,
};
const markdownTheme = {
  heading: (s) => `<h>${s}</h>`,
  link: (s) => `<a>${s}</a>`,
  linkUrl: (s) => `<url>${s}</url>`,
  code: (s) => `<code>${s}</code>`,
  codeBlock: (s) => `<cb>${s}</cb>`,
  codeBlockBorder: (s) => `<cbb>${s}</cbb>`,
  quote: (s) => `<q>${s}</q>`,
  quoteBorder: (s) => `<qb>${s}</qb>`,
  hr: (s) => `<hr>${s}</hr>`,
  listBullet: (s) => `<li>${s}</li>`,
  bold: (s) => `<b>${s}</b>`,
  italic: (s) => `<i>${s}</i>`,
  strikethrough: (s) => `<s>${s}</s>`,
  underline: (s) => `<u>${s}</u>`,
};

const SELECT_ITEMS = [
  { value: "alpha", label: "Alpha", description: "The first letter of the Greek alphabet" },
  { value: "beta", label: "Beta", description: "Second\nletter, on two lines" },
  { value: "gamma", description: "No label here" },
  { value: "delta-with-a-rather-long-value-name", label: "Delta with a rather long label name" },
  { value: "epsilon", label: "Epsilon 😀", description: "Emoji in label" },
  { value: "zeta", label: "Zeta 中文", description: "CJK 中文描述文字" },
  { value: "eta", label: "Eta" },
  { value: "theta", label: "Theta", description: red("styled description") },
];

function settingsItems() {
  return [
    { id: "theme", label: "Theme", currentValue: "dark", values: ["dark", "light", "auto"], description: "Colour theme of the interface, applied at once" },
    { id: "thinking", label: "Show thinking", currentValue: "on", values: ["on", "off"] },
    { id: "model", label: "Model", currentValue: "claude-opus-4-with-a-long-model-identifier", description: "Model used for new sessions" },
    { id: "lang", label: "Language 言語", currentValue: "日本語", values: ["日本語", "English"] },
    { id: "autosave", label: "Autosave", currentValue: "true", values: ["true", "false"] },
    { id: "editor", label: "Editor", currentValue: "vim", values: ["vim", "emacs", "nano"], description: `Pick ${bold("your")} editor` },
    { id: "nolist", label: "Read only", currentValue: "fixed" },
  ];
}

const INPUT_SCRIPTS = {
  typed: ["h", "e", "l", "l", "o", " ", "w", "o", "r", "l", "d"],
  editing: ["hello world", "\x1b[D", "\x1b[D", "X", "\x01", "Y", "\x05", "\x7f", "\x1b[3~"],
  wordMoves: ["one two.three four", "\x1bb", "\x1bb", "|", "\x1bf", "#", "\x17"],
  killYank: ["alpha beta gamma", "\x17", "\x17", "\x19", "\x01", "\x0b", "\x19", "\x1by"],
  undo: ["abc", " ", "def", "\x1f", "\x1f"],
  paste: ["x", "\x1b[200~pasted\ntext\twith tab\x1b[201~", "!"],
  splitPaste: ["\x1b[200~part one ", "part two\x1b[201~tail"],
  kitty: ["\x1b[97u", "\x1b[98;2:66u", "\x1b[57399u", "\x1b[97;5u"],
  control: ["a", "\x07", "b\x1bc", "é日😀"],
  emojiCursor: ["😀👍🏽中e\u0301", "\x1b[D", "\x1b[D", "\x7f", "\x1b[D", "x"],
  long: ["The quick brown fox jumps over the lazy dog again and again", "\x01", "\x1bf", "\x1bf"],
  longEnd: ["The quick brown fox jumps over the lazy dog again and again"],
  wideLong: ["日本語のテキストがとても長い場合のテストです"],
  deleteForward: ["one two three", "\x01", "\x1bd", "\x1bd", "\x0b"],
  submit: ["abc", "\r", "\x1b"],
};

const SELECT_SCRIPTS = {
  none: [],
  down2: ["\x1b[B", "\x1b[B"],
  upWrap: ["\x1b[A"],
  downMany: ["\x1b[B", "\x1b[B", "\x1b[B", "\x1b[B", "\x1b[B", "\x1b[B"],
  pages: ["\x1b[6~", "\x1b[6~", "\x1b[5~"],
  confirm: ["\x1b[B", "\r"],
  cancel: ["\x1b"],
};

const SETTINGS_SCRIPTS = {
  none: [],
  down: ["\x1b[B"],
  cycle: ["\r", "\r", " "],
  moveAndCycle: ["\x1b[B", "\x1b[B", "\x1b[B", " ", "\x1b[A", "\r"],
  wrapUp: ["\x1b[A"],
  pages: ["\x1b[6~", "\x1b[5~"],
  cancel: ["\x1b"],
  readOnly: ["\x1b[A", "\r"],
};

const SEARCH_SCRIPTS = {
  none: [],
  type: ["t", "h"],
  noMatch: ["x", "y", "z"],
  typeSpace: ["s", "h", " ", "t"],
  spaceToggle: [" "],
  backspace: ["x", "\x7f", "\x1b[B"],
};

const MARKDOWN_DOCS = {
  paragraph: "Just a **bold** and *italic* paragraph with `code` and a [link](https://example.com).",
  heading: "# Title\n\n## Subtitle\n\nBody text under the heading.",
  list: "- one\n- two\n  - nested\n- three\n\n1. first\n2. second",
  code: "```js\nconst x = 1;\nconsole.log(x);\n```",
  quote: "> quoted text that is long enough to wrap across lines at small widths",
  rule: "above\n\n---\n\nbelow",
  table: "| a | b |\n|---|---|\n| 1 | two |\n| three | 4 |",
  headingLevels: "### Third level\ntext right after\n#### Four ####\n##### five #\n###### six\n####### seven",
  setext: "Title\n=====\n\nSub\n---\nafter",
  headingInline: "# Heading with `code` and **bold**",
  emphasis: "***bold italic*** and **bold *nested italic* bold** and *a **b** c*",
  underscores: "snake_case_word and __dunder__ and _under_score_ and ___both___",
  unclosed: "**unclosed and *also",
  intraword: "a*b*c a**b**c **bold**text",
  strike: "~~strike~~ and ~~ not strike ~~ and ~single~",
  escapes: "\\# not heading \\*not em\\* &amp; &copy; <b>tag</b>",
  breaks: "Hello  \nWorld\\\nAgain\nsoft break",
  codeSpans: "`` a ` b `` and `code with `` inside` and `  padded  `",
  links: "[text](https://example.com \"Title\") and [same](same) and <mail@x.com> and <https://x.y>",
  bareUrls: "See http://example.com. And www.example.com, and https://x.io/path?a=1&b=2. Mail foo@bar.com!",
  refLinks: "[ref link][r] and [collapsed][] and [shortcut]\n\n[r]: https://ref.example \"Ref\"\n[collapsed]: /c\n[shortcut]: /s",
  image: "![image alt](img.png) after",
  htmlBlock: "<div>\nhi\n</div>\n\n<!-- hidden -->\n\nx <span>inline</span> y <!-- c --> z",
  longUrl: "Text with a very long URL https://example.com/a/very/long/path/that/does/not/fit/anywhere/at/all ok",
  nestedList: "- a\n    - deep\n        - deeper\n- b",
  orderedContinued: "1. step one\n   continued line\n2. step two\n\n   second paragraph\n3. three",
  orderedStart: "5. five\n6. six\n\n3) paren\n4) list",
  looseList: "- a\n- b\n\n- c\n\nafter",
  blankItems: "- item\n\n\n- item after two blanks",
  tasks: "- [ ] todo\n- [x] done\n- [X] DONE\n- [] not task",
  listKinds: "* star\n* list\n\n+ plus\n\n- dash",
  listAfterText: "text\n- list right after text\n- two\n\ntext\n2. not a list",
  listInOrdered: "1. one\n\n   - nested in ordered\n\n2. two",
  quoteBlocks: "nested\n\n> quote with **bold** and `code`\n> - list in quote\n> - second\n\nend",
  quoteNested: "> > nested quote\n> back\n\n> # heading in quote\n> text",
  quoteLazy: "> q\nlazy\n> more\n\n> two",
  quoteCode: "> ```\n> code in quote\n> ```",
  codeNoLang: "```\nno lang\n\n  indented\n```\n\ntext",
  codeTilde: "~~~python\nprint('x')\n~~~\npara right after",
  codeUnclosed: "```js\nunclosed fence\nstill code",
  codeStreaming: "```js\nlet x = 1;\n``",
  codeIndented: "    indented code\n\n    more\n\npara",
  codeInList: "- ```\n  code in list\n  ```\n- after",
  rules: "***\n\n- - -\n\n___\n\ntext\n\n---",
  tableAligned: "| Left | Center | Right |\n|:-----|:------:|------:|\n| a long cell that wraps | b | c |\n| **bold** | `code` | [l](http://x) |",
  tableNoPipes: "a | b\n--|--\n1 | 2",
  tableShortRow: "| x | y |\n| - | - |\n| 1 |\n| 1 | 2 | 3 |\nlazy row\n\nafter",
  tableWide: "| Name | Description |\n|---|---|\n| pi | A coding agent with a terminal interface and extensions that run anywhere |",
  cjk: "中文 **粗体** 文本，还有很长的一段中文文字需要换行显示出来。",
  emoji: "emoji 😀 *italic* 👍🏽 and more emoji 🎉🎉🎉",
  spacing: "a\n\n\n\nb\n\n",
  tabs: "tab\there\n-\tlist with tab",
};

// Editor: start text, then keys; every key is followed by a render at the
// case's width, as the TUI does, so wrapping and scrolling state is real.
const LARGE_PASTE = Array.from({ length: 15 }, (_, i) => `pasted line ${i + 1}`).join("\n");
const WIDE_PASTE = "x".repeat(1200);
const EDITOR_TEXTS = {
  empty: "",
  short: "hello world",
  long: "The quick brown fox jumps over the lazy dog and keeps running far away from home",
  multi: "one\ntwo two\nthree three three",
  cjk: "日本語のテキストです、とても長い文章を書いています。中文字符测试文本",
  emoji: "😀 grin 👍🏽 thumbs 👨‍👩‍👧‍👦 family e\u0301 done",
  longWord: "supercalifragilisticexpialidocious and more",
  tabs: "a\tb\r\nc\rd",
  blank: "a\n\n\nb",
  many: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"),
  sticky: "a fairly long first line here\nab\n\nanother long line that wraps around at narrow widths\nxy",
  spaces: "word     with      many       spaces      between",
};
const EDITOR_SCRIPTS = {
  none: [],
  type: ["a", "b", " ", "c", "日", "😀"],
  arrows: ["\x1b[D", "\x1b[D", "X", "\x1b[A", "Y", "\x1b[B", "Z", "\x1b[C", "W"],
  upDown: ["\x01", "\x1b[A", "\x1b[A", "U", "\x1b[B", "\x1b[B", "\x1b[B", "D"],
  homeEnd: ["\x1b[H", "A", "\x1b[F", "E", "\x01", "a", "\x05", "e", "\x1b[1~", "h", "\x1b[4~", "f"],
  backspace: ["\x7f", "\x7f", "\x01", "\x7f", "\x1b[D", "\x1b[3~", "\x1b[3~"],
  kill: ["\x1b[D", "\x1b[D", "\x1b[D", "\x0b", "\x15", "\x19", "\x0b"],
  words: ["\x17", "\x1bb", "\x1bb", "|", "\x1bf", "#", "\x1b[1;3D", "<", "\x1b[1;5C", ">", "\x1bd", "\x1b\x7f"],
  yank: ["\x17", "\x17", "\x01", "\x19", "\x1by", "\x1by"],
  undo: ["a", "b", " ", "c", "\x7f", "\x1f", "\x1f", "\x1f", "\x1f"],
  enter: ["x", "\r"],
  newline: ["a", "\x1b[13;2u", "b", "\n", "c", "\x1b\r", "d", "\x1b[13;2~", "e", "\x0a"],
  backslashEnter: ["a", "\\", "\r", "b", "\r"],
  paste: ["\x1b[200~pasted\ttext\r\nsecond line\x1b[201~", "!"],
  splitPaste: ["\x1b[200~part one ", "part two\x1b[201~tail"],
  pastePath: ["x", "\x1b[200~/tmp/file.txt\x1b[201~"],
  pasteControl: ["\x1b[200~a\x07b\x1b[106;5uc\x1b[201~"],
  largePaste: [`\x1b[200~${LARGE_PASTE}\x1b[201~`, "!"],
  largePasteEdit: [`\x1b[200~${LARGE_PASTE}\x1b[201~`, `\x1b[200~${WIDE_PASTE}\x1b[201~`, "\x1b[D", "\x1b[D", "\x1bb", "X", "\x1b[C", "\x7f"],
  largePasteDelete: [`\x1b[200~${LARGE_PASTE}\x1b[201~`, " ", `\x1b[200~${WIDE_PASTE}\x1b[201~`, "\x01", "\x1bf", "\x7f", "\x1f", "\x1f"],
  largePasteSubmit: ["a ", `\x1b[200~${LARGE_PASTE}\x1b[201~`, " b", "\r"],
  ignored: ["\x03", "\t", "\x1b", "\x1b[Z", "\x1bOP"],
  kitty: ["\x1b[97u", "\x1b[98;2:66u", "\x1b[32;2u", "\x1b[97;5u", "\x1b[127u"],
  jump: ["\x01", "\x1d", "o", "J", "\x1d", "\x1d", "x", "\x1b\x1d", "e", "K"],
  page: ["\x1b[5~", "P", "\x1b[6~", "N"],
  setText: [],
  sticky: ["\x1b[A", "\x1b[A", "\x1b[A", "\x1b[A", "\x1b[B", "\x1b[B", "\x1b[B", "\x1b[B", "\x1b[C", "\x1b[A", "\x1b[A"],
  killAccumulate: ["\x01", "\x1b[C", "\x1b[C", "\x1b[C", "\x0b", "\x0b", "\x0b", "\x05", "\x19", "\x17", "\x17", "\x19", "\x1by"],
  joinLines: ["\x01", "\x7f", "\x05", "\x1b[3~", "\x01", "\x15", "\x15", "\x05", "\x1bd", "\x1bd"],
  emojiCursor: ["😀👍🏽中e\u0301", "\x1b[D", "\x1b[D", "\x7f", "\x1b[D", "x", "\x1b[3~"],
  jumpBack: ["\x1b\x1d", "t", "T", "\x1b\x1d", "o", "O", "\x01", "\x1b\x1d", "o", "!"],
};
const EDITOR_VARIANTS = {
  plain: {},
  focused: { focused: true },
  padded: { focused: true, paddingX: 2 },
  smallTerminal: { focused: true, rows: 10 },
  noSubmit: { disableSubmit: true },
};

function makeEditor(tui, text, variant, log) {
  const fakeTui = { terminal: { rows: variant.rows ?? 24, columns: 80 }, requestRender: () => log.push("render") };
  const theme = { borderColor: (s) => `<b>${s}</b>`, selectList: plainTheme };
  const options = variant.paddingX === undefined ? undefined : { paddingX: variant.paddingX };
  const editor = new tui.Editor(fakeTui, theme, options);
  editor.focused = variant.focused ?? false;
  editor.disableSubmit = variant.disableSubmit ?? false;
  if (text) editor.setText(text);
  editor.onChange = (t) => log.push(`change:${t}`);
  editor.onSubmit = (t) => {
    log.push(`submit:${t}`);
    editor.addToHistory(t);
  };
  return editor;
}

function editorState(editor, lines, log) {
  // getLines and the expanded text are kept only where they say more than getText.
  const text = editor.getText();
  const out = { lines, text, cursor: editor.getCursor(), log };
  if (editor.getLines().join("\n") !== text || editor.getLines().length !== text.split("\n").length) out.all = editor.getLines();
  const expanded = editor.getExpandedText();
  if (expanded !== text) out.expanded = expanded;
  return out;
}

function runEditor(tui, text, variant, script, widths, between = []) {
  const out = {};
  for (const width of widths) {
    out[width] = capture(() => {
      const log = [];
      const editor = makeEditor(tui, text, variant, log);
      editor.render(width);
      for (const data of script) {
        editor.handleInput(data);
        editor.render(width);
      }
      for (const step of between) step(editor, log);
      return editorState(editor, editor.render(width), log);
    });
  }
  return out;
}

/** What `fn` gives: its value, or its error's message. */
export function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

function renderAt(make, widths, script = []) {
  const out = {};
  for (const width of widths) {
    out[width] = capture(() => {
      const { component, log } = make();
      for (const data of script) component.handleInput(data);
      const lines = [...component.render(width)];
      const value = typeof component.getValue === "function" ? component.getValue() : undefined;
      return value === undefined ? { lines, log } : { lines, log, value };
    });
  }
  return out;
}

/**
 * Runs every case against a pi-tui module and returns { id: result }. Names
 * the module lacks are reported as { missing: name } so that recorded cases
 * for parts not built yet can be told apart from failures.
 */
export function runCases(tui) {
  const results = {};
  const put = (id, fn) => {
    results[id] = fn();
  };
  const needs = (names, id, fn) => {
    const missing = names.find((name) => tui[name] === undefined);
    results[id] = missing ? { missing } : fn();
  };

  // Text measuring and cutting.
  for (const [name, s] of Object.entries(STRINGS)) {
    needs(["visibleWidth"], `visibleWidth/${name}`, () => capture(() => tui.visibleWidth(s)));
    needs(["stripTerminalSequences"], `strip/${name}`, () => capture(() => tui.stripTerminalSequences(s)));
    for (const w of [0, ...WIDTHS]) {
      needs(["truncateToWidth"], `truncate/${name}/${w}`, () => capture(() => tui.truncateToWidth(s, w)));
      needs(["wrapTextWithAnsi"], `wrap/${name}/${w}`, () => capture(() => tui.wrapTextWithAnsi(s, w)));
    }
    for (const w of [1, 3, 10]) {
      needs(["truncateToWidth"], `truncateEllipsis/${name}/${w}`, () =>
        capture(() => [tui.truncateToWidth(s, w, "…"), tui.truncateToWidth(s, w, ""), tui.truncateToWidth(s, w, red("~~"))]),
      );
      needs(["truncateToWidth"], `truncatePad/${name}/${w}`, () =>
        capture(() => [tui.truncateToWidth(s, w, "...", true), tui.truncateToWidth(s, w, "", true)]),
      );
    }
    for (const [start, len] of [[0, 5], [2, 4], [3, 10], [7, 1], [0, 80]]) {
      needs(["sliceByColumn"], `slice/${name}/${start}+${len}`, () =>
        capture(() => [tui.sliceByColumn(s, start, len), tui.sliceByColumn(s, start, len, true)]),
      );
    }
    for (const col of [0, 1, 4, 8]) {
      needs(["getOsc8LinkAtColumn"], `osc8At/${name}/${col}`, () => capture(() => tui.getOsc8LinkAtColumn(s, col)));
    }
  }
  put("truncate/longEllipsis", () => capture(() => tui.truncateToWidth("abcdef", 3, "-----")));
  put("truncate/wideEllipsis", () => capture(() => tui.truncateToWidth("abcdefgh", 4, "中文字")));
  put("truncate/osc8Open", () =>
    capture(() => tui.truncateToWidth(`${ESC}]8;;https://x.y\x07unclosed link text goes on`, 10)),
  );
  put("wrap/multiStyleAcrossNewline", () =>
    capture(() => tui.wrapTextWithAnsi(`${ESC}[1m${ESC}[32mgreen bold\nstill green${ESC}[0m\nplain`, 8)),
  );
  put("wrap/osc8Long", () => capture(() => tui.wrapTextWithAnsi(link("https://example.com/abc", "aaaaaaaaaaaaaaaaaaaaaaaaaa"), 10)));
  put("wrap/styledSpaceAtBreak", () => capture(() => tui.wrapTextWithAnsi(`word ${bold("x")}${ESC}[4m ${ESC}[24mnext`, 6)));
  needs(["replaceControlCharacters"], "replaceControlCharacters", () =>
    capture(() => tui.replaceControlCharacters("a\x1b[31mb\n\n\tc\x7f\x85d")),
  );

  // Keys, once in legacy mode and once with the Kitty protocol active.
  for (const kitty of [false, true]) {
    const mode = kitty ? "kitty" : "legacy";
    tui.setKittyProtocolActive?.(kitty);
    for (const data of KEY_INPUTS) {
      const label = JSON.stringify(data);
      needs(["matchesKey"], `matchesKey/${mode}/${label}`, () =>
        capture(() => KEY_IDS.map((id) => (tui.matchesKey(data, id) ? "1" : "0")).join("")),
      );
      needs(["parseKey"], `parseKey/${mode}/${label}`, () => capture(() => tui.parseKey(data)));
      needs(["isKeyRelease", "isKeyRepeat"], `keyEvent/${mode}/${label}`, () =>
        capture(() => [tui.isKeyRelease(data), tui.isKeyRepeat(data)]),
      );
      needs(["decodeKittyPrintable"], `decodeKittyPrintable/${mode}/${label}`, () =>
        capture(() => tui.decodeKittyPrintable(data)),
      );
    }
    tui.setKittyProtocolActive?.(false);
  }
  put("keyIds", () => ({ value: KEY_IDS }));
  needs(["Key"], "Key", () =>
    capture(() =>
      Object.fromEntries(
        Object.entries(tui.Key).map(([k, v]) => [k, typeof v === "function" ? `fn:${v("x")}` : v]),
      ),
    ),
  );
  needs(["CURSOR_MARKER"], "CURSOR_MARKER", () => capture(() => tui.CURSOR_MARKER));
  needs(["renderFakeCursor"], "renderFakeCursor", () => capture(() => tui.renderFakeCursor("x")));

  // Fuzzy matching.
  for (const q of FUZZY_QUERIES) {
    for (const t of FUZZY_TEXTS) {
      needs(["fuzzyMatch"], `fuzzyMatch/${JSON.stringify(q)}/${JSON.stringify(t)}`, () =>
        capture(() => tui.fuzzyMatch(q, t)),
      );
    }
    needs(["fuzzyFilter"], `fuzzyFilter/${JSON.stringify(q)}`, () =>
      capture(() => tui.fuzzyFilter(FUZZY_TEXTS, q, (x) => x)),
    );
  }

  // Keybindings.
  needs(["getKeybindings"], "keybindings/resolved", () => capture(() => tui.getKeybindings().getResolvedBindings()));
  needs(["KeybindingsManager", "TUI_KEYBINDINGS"], "keybindings/user", () =>
    capture(() => {
      const kb = new tui.KeybindingsManager(tui.TUI_KEYBINDINGS, {
        "tui.select.up": ["k", "up"],
        "tui.select.down": "k",
        "not.a.binding": "x",
      });
      return {
        conflicts: kb.getConflicts(),
        up: kb.getKeys("tui.select.up"),
        matchesK: kb.matches("k", "tui.select.up"),
        matchesDown: kb.matches("\x1b[B", "tui.select.down"),
      };
    }),
  );

  // Components.
  const componentWidths = [1, 2, 5, 10, 40, 80];
  const texts = {
    plain: () => new tui.Text(STRINGS.asciiLong),
    noPadding: () => new tui.Text(STRINGS.words, 0, 0),
    bigPadding: () => new tui.Text("padded", 4, 2),
    styled: () => new tui.Text(STRINGS.ansiMixed, 1, 0),
    cjk: () => new tui.Text(STRINGS.cjkMixed, 1, 1),
    emoji: () => new tui.Text(STRINGS.zwjMixed + " " + STRINGS.skinTones, 1, 0),
    tabs: () => new tui.Text("col\tcol\tcol", 0, 0),
    newlines: () => new tui.Text(STRINGS.newline, 2, 0),
    bg: () => new tui.Text("with background colour", 1, 1, (s) => `{${s}}`),
    empty: () => new tui.Text("", 1, 1),
    blank: () => new tui.Text("   \n  ", 1, 1),
    setText: () => {
      const t = new tui.Text("first");
      t.render(20);
      t.setText("second text");
      return t;
    },
  };
  for (const [name, make] of Object.entries(texts)) {
    needs(["Text"], `Text/${name}`, () => renderAt(() => ({ component: make() }), [0, ...componentWidths]));
  }
  needs(["TruncatedText"], "TruncatedText", () =>
    renderAt(() => ({ component: new tui.TruncatedText(`${STRINGS.asciiLong}\nsecond`, 1, 1) }), componentWidths),
  );
  needs(["Spacer"], "Spacer", () => renderAt(() => ({ component: new tui.Spacer(3) }), [10]));
  needs(["Container", "Text", "Spacer"], "Container", () =>
    renderAt(() => {
      const c = new tui.Container();
      c.addChild(new tui.Text("first child", 0, 0));
      c.addChild(new tui.Spacer(1));
      const removed = new tui.Text("removed");
      c.addChild(removed);
      c.addChild(new tui.Text(STRINGS.cjk, 1, 0));
      c.removeChild(removed);
      return { component: c };
    }, componentWidths),
  );
  needs(["Container"], "Container/empty", () => renderAt(() => ({ component: new tui.Container() }), [10]));
  const boxes = {
    plain: () => {
      const b = new tui.Box();
      b.addChild(new tui.Text("inside a box", 0, 0));
      return b;
    },
    bg: () => {
      const b = new tui.Box(2, 1, (s) => `[${s}]`);
      b.addChild(new tui.Text(STRINGS.words, 1, 0));
      b.addChild(new tui.Spacer(1));
      b.addChild(new tui.Text(STRINGS.ansiRed, 0, 0));
      return b;
    },
    empty: () => new tui.Box(),
    emptyChild: () => {
      const b = new tui.Box(1, 1, (s) => `[${s}]`);
      b.addChild(new tui.Text("", 0, 0));
      return b;
    },
    nested: () => {
      const outer = new tui.Box(1, 0);
      const inner = new tui.Box(1, 0, (s) => `<${s}>`);
      inner.addChild(new tui.Text("nested box text", 0, 0));
      outer.addChild(inner);
      return outer;
    },
  };
  for (const [name, make] of Object.entries(boxes)) {
    needs(["Box", "Text", "Spacer"], `Box/${name}`, () => renderAt(() => ({ component: make() }), componentWidths));
  }

  const selectLists = {
    items: () => new tui.SelectList(SELECT_ITEMS, 5, plainTheme),
    few: () => new tui.SelectList(SELECT_ITEMS.slice(0, 3), 5, plainTheme),
    narrowColumn: () => new tui.SelectList(SELECT_ITEMS, 4, plainTheme, { maxPrimaryColumnWidth: 12 }),
    wideColumn: () => new tui.SelectList(SELECT_ITEMS, 3, plainTheme, { minPrimaryColumnWidth: 20, maxPrimaryColumnWidth: 40 }),
    customTruncate: () =>
      new tui.SelectList(SELECT_ITEMS, 8, plainTheme, {
        truncatePrimary: ({ text, maxWidth, isSelected }) => `${isSelected ? "*" : ""}${text.slice(0, maxWidth)}`,
      }),
    filtered: () => {
      const s = new tui.SelectList(SELECT_ITEMS, 5, plainTheme);
      s.setFilter("E");
      return s;
    },
    noMatch: () => {
      const s = new tui.SelectList(SELECT_ITEMS, 5, plainTheme);
      s.setFilter("nothing");
      return s;
    },
  };
  for (const [name, make] of Object.entries(selectLists)) {
    for (const [script, inputs] of Object.entries(SELECT_SCRIPTS)) {
      needs(["SelectList"], `SelectList/${name}/${script}`, () =>
        renderAt(
          () => {
            const component = make();
            const log = [];
            component.onSelect = (item) => log.push(`select:${item.value}`);
            component.onCancel = () => log.push("cancel");
            component.onSelectionChange = (item) => log.push(`change:${item.value}`);
            return { component, log };
          },
          [10, 30, 41, 60, 80],
          inputs,
        ),
      );
    }
  }

  const inputs = {
    plain: () => new tui.Input(),
    focused: () => {
      const i = new tui.Input({ prompt: "$ " });
      i.focused = true;
      return i;
    },
    placeholder: () => new tui.Input({ placeholder: "Type here…", placeholderStyle: (s) => `(${s})` }),
  };
  for (const [name, make] of Object.entries(inputs)) {
    for (const [script, data] of Object.entries({ ...INPUT_SCRIPTS, empty: [] })) {
      needs(["Input"], `Input/${name}/${script}`, () =>
        renderAt(() => {
          const component = make();
          const log = [];
          component.onSubmit = (v) => log.push(`submit:${v}`);
          component.onEscape = () => log.push("escape");
          return { component, log };
        }, [1, 2, 3, 10, 20, 40], data),
      );
    }
  }

  const settings = {
    plain: (log) => new tui.SettingsList(settingsItems(), 5, settingsTheme, (id, v) => log.push(`${id}=${v}`), () => log.push("cancel")),
    few: (log) => new tui.SettingsList(settingsItems().slice(0, 2), 5, settingsTheme, (id, v) => log.push(`${id}=${v}`), () => log.push("cancel")),
    search: (log) =>
      new tui.SettingsList(settingsItems(), 4, settingsTheme, (id, v) => log.push(`${id}=${v}`), () => log.push("cancel"), {
        enableSearch: true,
      }),
    empty: (log) => new tui.SettingsList([], 5, settingsTheme, () => log.push("change"), () => log.push("cancel"), { enableSearch: true }),
  };
  for (const [name, make] of Object.entries(settings)) {
    const scripts = name === "search" ? { ...SETTINGS_SCRIPTS, ...SEARCH_SCRIPTS } : SETTINGS_SCRIPTS;
    for (const [script, data] of Object.entries(scripts)) {
      needs(["SettingsList"], `SettingsList/${name}/${script}`, () =>
        renderAt(() => {
          const log = [];
          return { component: make(log), log };
        }, [5, 20, 40, 60, 80], data),
      );
    }
  }
  needs(["SettingsList", "SelectList"], "SettingsList/submenu", () =>
    renderAt(() => {
      const log = [];
      const items = settingsItems();
      items[1].submenu = (current, done) => {
        const list = new tui.SelectList([{ value: "on" }, { value: "off" }, { value: "auto" }], 5, plainTheme);
        list.onSelect = (item) => done(item.value);
        list.onCancel = () => done();
        log.push(`open:${current}`);
        return list;
      };
      const component = new tui.SettingsList(items, 5, settingsTheme, (id, v) => log.push(`${id}=${v}`), () => log.push("cancel"));
      return { component, log };
    }, [40, 80], ["\x1b[B", "\r", "\x1b[B", "\x1b[B", "\r", "\x1b[B", "\r"]),
  );

  // Editor: every start text at rest, then scripts on the texts they matter for.
  const EW = [10, 20, 40, 80];
  for (const [name, text] of Object.entries(EDITOR_TEXTS)) {
    for (const [variant, options] of Object.entries(EDITOR_VARIANTS)) {
      needs(["Editor"], `Editor/render/${name}/${variant}`, () => runEditor(tui, text, options, [], [3, ...EW]));
    }
    for (const script of ["type", "arrows", "upDown", "backspace", "words", "homeEnd"]) {
      // Word moves over Han text follow ICU's dictionary, which pihost does not carry.
      if (script === "words" && name === "cjk") continue;
      needs(["Editor"], `Editor/${script}/${name}`, () => runEditor(tui, text, EDITOR_VARIANTS.focused, EDITOR_SCRIPTS[script], EW));
    }
  }
  for (const [script, data] of Object.entries(EDITOR_SCRIPTS)) {
    for (const name of ["empty", "short", "multi", "long"]) {
      needs(["Editor"], `Editor/script/${script}/${name}`, () => runEditor(tui, EDITOR_TEXTS[name], EDITOR_VARIANTS.focused, data, EW));
    }
    needs(["Editor"], `Editor/noSubmit/${script}`, () => runEditor(tui, EDITOR_TEXTS.short, EDITOR_VARIANTS.noSubmit, data, [20, 80]));
  }
  for (const script of ["sticky", "jumpBack", "words"]) {
    needs(["Editor"], `Editor/sticky/${script}`, () => runEditor(tui, EDITOR_TEXTS.sticky, EDITOR_VARIANTS.focused, EDITOR_SCRIPTS[script], [3, ...EW]));
  }
  for (const script of ["page", "upDown", "type", "arrows", "kill", "jump"]) {
    needs(["Editor"], `Editor/scroll/${script}`, () => runEditor(tui, EDITOR_TEXTS.many, EDITOR_VARIANTS.smallTerminal, EDITOR_SCRIPTS[script], EW));
  }
  needs(["Editor"], "Editor/scroll/walk", () =>
    capture(() => {
      const log = [];
      const editor = makeEditor(tui, EDITOR_TEXTS.many, EDITOR_VARIANTS.smallTerminal, log);
      const frames = [editor.render(20)];
      for (const key of ["\x1b[5~", "\x1b[A", "\x1b[A", "\x1b[5~", "\x1b[5~", "\x1b[B", "\x1b[6~", "\x1b[6~"]) {
        editor.handleInput(key);
        frames.push(editor.render(20));
      }
      frames.push(editor.render(6));
      return { frames, cursor: editor.getCursor() };
    }),
  );
  needs(["Editor"], "Editor/history", () =>
    capture(() => {
      const log = [];
      const editor = makeEditor(tui, "", EDITOR_VARIANTS.focused, log);
      const steps = [];
      const keys = [..."first", "\r", ..."second", "\r", ..."  second  ", "\r", "d", "r", "a", "f", "t", "\x1b[A", "\x01",
        "\x1b[A", "\x1b[A", "\x1b[A", "\x1b[B", "\x1b[B", "\x1b[B", "\x1b[A", "x", "\x1b[A", "\x1b[B"];
      editor.render(40);
      for (const key of keys) {
        editor.handleInput(key);
        steps.push(`${JSON.stringify(key)} ${JSON.stringify(editor.getText())} ${JSON.stringify(editor.getCursor())}`);
        editor.render(40);
      }
      return { steps, lines: editor.render(40), log };
    }),
  );
  needs(["Editor"], "Editor/api", () =>
    capture(() => {
      const log = [];
      const editor = makeEditor(tui, "", EDITOR_VARIANTS.plain, log);
      const out = {};
      out.padding = [editor.getPaddingX(), editor.getAutocompleteMaxVisible(), editor.isShowingAutocomplete(), editor.disableSubmit];
      editor.setPaddingX(3.7);
      editor.setPaddingX(3);
      editor.setAutocompleteMaxVisible(50);
      out.after = [editor.getPaddingX(), editor.getAutocompleteMaxVisible()];
      editor.setText("a\tb\r\nc");
      editor.setText("a    b\nc");
      editor.insertTextAtCursor("X\nY");
      out.insert = [editor.getText(), editor.getLines(), editor.getCursor()];
      editor.handleInput("\x1f");
      out.undoInsert = [editor.getText(), editor.getCursor()];
      editor.handleInput("\x1f");
      out.undoSet = [editor.getText(), editor.getCursor()];
      out.lines = editor.render(12);
      out.wide = new tui.Editor({ terminal: { rows: 5 }, requestRender() {} }, { borderColor: (s) => s }, { paddingX: 50, autocompleteMaxVisible: 1 }).render(9);
      out.log = log;
      return out;
    }),
  );
  needs(["Editor"], "Editor/mouse", () =>
    capture(() => {
      const log = [];
      const editor = makeEditor(tui, EDITOR_TEXTS.long, { paddingX: 1 }, log);
      const out = [];
      editor.render(20);
      for (const [x, y] of [[3, 1], [0, 2], [30, 1], [5, 9], [5, 0], [4, 4]]) {
        const result = editor.handleMouse({ type: "click", button: "left", x, y, width: 20, height: 10 });
        out.push([result, editor.getCursor()]);
      }
      out.push(editor.handleMouse({ type: "press", button: "left", x: 1, y: 1, width: 20, height: 10 }) ?? null);
      return out;
    }),
  );

  // Markdown.
  for (const [name, doc] of Object.entries(MARKDOWN_DOCS)) {
    needs(["Markdown"], `Markdown/${name}`, () =>
      renderAt(() => ({ component: new tui.Markdown(doc, 1, 0, markdownTheme) }), [10, 40, 80]),
    );
  }
  const styledDoc = `${MARKDOWN_DOCS.paragraph}\n\n> ${MARKDOWN_DOCS.emphasis}\n\n${MARKDOWN_DOCS.tableAligned}`;
  const markdowns = {
    highlighted: () =>
      new tui.Markdown(`${MARKDOWN_DOCS.code}\n\n${MARKDOWN_DOCS.codeNoLang}`, 0, 0, {
        ...markdownTheme,
        highlightCode: (code, lang) => code.split("\n").map((line) => `[${lang ?? "-"}]${line}`),
        codeBlockIndent: "> ",
      }),
    defaultStyle: () =>
      new tui.Markdown(styledDoc, 1, 1, markdownTheme, { color: (s) => `<fg>${s}</fg>`, bold: true, italic: true }),
    background: () => new tui.Markdown(styledDoc, 2, 1, markdownTheme, { bgColor: (s) => `{${s}}`, underline: true }),
    ansiTheme: () =>
      new tui.Markdown(styledDoc, 1, 0, {
        ...markdownTheme,
        bold: (s) => `${ESC}[1m${s}${ESC}[22m`,
        italic: (s) => `${ESC}[3m${s}${ESC}[23m`,
        quote: (s) => `${ESC}[90m${s}${ESC}[39m`,
        heading: (s) => `${ESC}[33m${s}${ESC}[39m`,
      }),
    preserve: () =>
      new tui.Markdown(`${MARKDOWN_DOCS.orderedStart}\n\n${MARKDOWN_DOCS.listKinds}\n\n${MARKDOWN_DOCS.escapes}`, 0, 0, markdownTheme, undefined, {
        preserveOrderedListMarkers: true,
        preserveBackslashEscapes: true,
      }),
    transform: () =>
      new tui.Markdown("# width", 0, 0, markdownTheme, undefined, { transform: (md, w) => `${md} ${w}\n\nbody` }),
    empty: () => new tui.Markdown("   \n ", 1, 1, markdownTheme),
    setText: () => {
      const md = new tui.Markdown("first", 0, 0, markdownTheme);
      md.render(20);
      md.setText("**second** text");
      return md;
    },
  };
  for (const [name, make] of Object.entries(markdowns)) {
    needs(["Markdown"], `Markdown/component/${name}`, () => renderAt(() => ({ component: make() }), [1, 5, 30, 80]));
  }

  // Loaders: the first frame only, stopped before the spinner advances.
  const loaders = {
    plain: () => new tui.Loader(null, (s) => `<s>${s}</s>`, (s) => `<m>${s}</m>`),
    message: () => new tui.Loader(null, (s) => `<s>${s}</s>`, (s) => `<m>${s}</m>`, "Thinking hard about it"),
    indicator: () => new tui.Loader(null, (s) => `<s>${s}</s>`, (s) => s, "custom", { frames: ["*", "+"], intervalMs: 5 }),
    noFrames: () => new tui.Loader(null, (s) => `<s>${s}</s>`, (s) => s, "still", { frames: [] }),
    setMessage: () => {
      const loader = new tui.Loader(null, (s) => s, (s) => `<m>${s}</m>`, "before");
      loader.setMessage("after");
      return loader;
    },
  };
  for (const [name, make] of Object.entries(loaders)) {
    needs(["Loader"], `Loader/${name}`, () =>
      renderAt(() => {
        const component = make();
        component.stop();
        return { component };
      }, [5, 20, 40]),
    );
  }
  for (const [script, data] of Object.entries({ none: [], escape: ["\x1b"], other: ["a", "\r"] })) {
    needs(["CancellableLoader"], `CancellableLoader/${script}`, () =>
      capture(() => {
        const log = [];
        const loader = new tui.CancellableLoader({ requestRender: () => log.push("render") }, (s) => s, (s) => s, "Working");
        loader.onAbort = () => log.push("abort");
        for (const d of data) loader.handleInput(d);
        loader.dispose();
        return { lines: [...loader.render(30)], aborted: loader.aborted, signalAborted: loader.signal.aborted, log };
      }),
    );
  }

  terminalImageCases(tui, needs);
  colorCases(tui, needs);
  layoutCases(tui, needs);
  markedCases(tui, needs);
  latexCases(tui, needs);
  markdownMathCases(tui, needs);
  exportCoverageCases(tui, needs);
  return results;
}

// Terminal images and capabilities. Images are built byte by byte here, so
// every header field is known; the environment and pi-tui's capability state
// are set per case and put back afterwards.

const bytesToBase64 = (bytes) => btoa(String.fromCharCode(...bytes));
const asciiBytes = (text) => Array.from(text, (char) => char.charCodeAt(0));
const u16be = (n) => [(n >>> 8) & 0xff, n & 0xff];
const u16le = (n) => [n & 0xff, (n >>> 8) & 0xff];
const u32be = (n) => [...u16be(Math.floor(n / 0x10000)), ...u16be(n)];
const u32le = (n) => [...u16le(n), ...u16le(Math.floor(n / 0x10000))];
const u24le = (n) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const body = [...asciiBytes(type), ...data];
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
}

function png(width, height) {
  const ihdr = [...u32be(width), ...u32be(height), 8, 6, 0, 0, 0];
  return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk("IHDR", ihdr), ...pngChunk("IEND", [])];
}

const jpegSegment = (marker, data) => [0xff, marker, ...u16be(data.length + 2), ...data];
const jfif = jpegSegment(0xe0, [...asciiBytes("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const frame = (width, height) => [8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
const jpegTail = [...jpegSegment(0xda, [1, 1, 0, 0, 0x3f, 0]), 0x12, 0x34, 0xff, 0xd9];

function jpeg(width, height, { sof = 0xc0, before = [] } = {}) {
  return [0xff, 0xd8, ...jfif, ...before, ...jpegSegment(sof, frame(width, height)), ...jpegTail];
}

const riff = (chunk) => [...asciiBytes("RIFF"), ...u32le(chunk.length + 4), ...asciiBytes("WEBP"), ...chunk];
const webpChunk = (type, data) => [...asciiBytes(type), ...u32le(data.length), ...data, ...(data.length % 2 ? [0] : [])];
const webpLossy = (width, height, scale = 0) =>
  riff(webpChunk("VP8 ", [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width | (scale << 14)), ...u16le(height | (scale << 14)), 0, 0, 0, 0]));
function webpLossless(width, height) {
  const packed = (width - 1) | ((height - 1) << 14) | (1 << 28);
  return riff(webpChunk("VP8L", [0x2f, ...u32le(packed >>> 0), 0, 0, 0, 0, 0]));
}
const webpExtended = (width, height) => riff(webpChunk("VP8X", [0x10, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]));

const gif = (version, width, height) => [...asciiBytes(version), ...u16le(width), ...u16le(height), 0xf7, 0, 0, 0, 0, 0, 0x3b];

const IMAGE_BYTES = {
  png: png(100, 50),
  pngTiny: png(1, 1),
  pngTall: png(30, 900),
  pngHuge: png(0x12345678, 0x9abcdef0),
  pngZero: png(0, 0),
  pngShort: png(100, 50).slice(0, 23),
  pngExact24: png(640, 480).slice(0, 24),
  pngBadSignature: [0x88, ...png(100, 50).slice(1)],
  jpeg: jpeg(320, 240),
  jpegProgressive: jpeg(1024, 768, { sof: 0xc2 }),
  jpegExtended: jpeg(17, 33, { sof: 0xc1 }),
  jpegLossless: jpeg(5, 6, { sof: 0xc3 }),
  jpegHuffmanFirst: jpeg(64, 48, { before: jpegSegment(0xc4, [0, ...Array(16).fill(0)]) }),
  jpegExifFirst: jpeg(4000, 3000, { before: jpegSegment(0xe1, [...asciiBytes("Exif"), 0, 0, ...Array(600).fill(0x41)]) }),
  jpegFillBytes: [0xff, 0xd8, 0x00, 0x11, ...jpegSegment(0xc0, frame(12, 34)), ...jpegTail],
  jpegZeroLength: [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, ...Array(20).fill(0)],
  jpegNoFrame: [0xff, 0xd8, ...jfif, ...jpegTail],
  jpegFrameAtEnd: [0xff, 0xd8, ...jpegSegment(0xc0, frame(8, 9)).slice(0, 9)],
  jpegFrameJustFits: [0xff, 0xd8, ...jpegSegment(0xc0, frame(8, 9)).slice(0, 10)],
  jpegSignatureOnly: [0xff, 0xd8],
  jpegOneByte: [0xff],
  gif89: gif("GIF89a", 48, 32),
  gif87: gif("GIF87a", 1, 65535),
  gifOtherVersion: gif("GIF88a", 48, 32),
  gifHighBits: [0xc7, 0xc9, 0xc6, 0xb8, 0xb9, 0xe1, ...u16le(7), ...u16le(9), 0],
  gifShort: gif("GIF89a", 48, 32).slice(0, 9),
  webpLossy: webpLossy(400, 300),
  webpLossyScaled: webpLossy(400, 300, 2),
  webpLossless: webpLossless(1000, 16384),
  webpExtended: webpExtended(16777216, 2),
  webpOtherChunk: riff(webpChunk("VP9 ", Array(14).fill(1))),
  webpShort: webpLossy(400, 300).slice(0, 29),
  webpNotRiff: [...asciiBytes("RIFX"), ...webpLossy(400, 300).slice(4)],
  empty: [],
  text: asciiBytes("just some text, not an image at all"),
};

const IMAGE_DATA = Object.fromEntries(Object.entries(IMAGE_BYTES).map(([name, bytes]) => [name, bytesToBase64(bytes)]));
const pngData = IMAGE_DATA.png;
// Variations on how base64 reaches pi-tui: wrapped, URL-safe, unpadded, with
// noise, cut short by padding, behind a data URL prefix.
const BASE64_FORMS = {
  wrapped: IMAGE_DATA.jpegExifFirst.replace(/.{76}/g, "$&\r\n"),
  urlSafe: IMAGE_DATA.webpLossless.replace(/\+/g, "-").replace(/\//g, "_"),
  unpadded: IMAGE_DATA.gif89.replace(/=+$/, ""),
  noise: IMAGE_DATA.png.replace(/(.{5})/g, "$1 !*\u00e9\u3000"),
  padInside: `${IMAGE_DATA.png.slice(0, 20)}=${IMAGE_DATA.png.slice(20)}`,
  dataUrl: `data:image/png;base64,${IMAGE_DATA.png}`,
  wideNoise: IMAGE_DATA.png.replace(/(.{8})/g, "$1\u0100"),
  // Node reads a UTF-16 unit by its low byte: "\u0141" counts as "A".
  wideLetters: `${IMAGE_DATA.png.slice(0, 8)}\u0141\u0141\u0141\u0141${IMAGE_DATA.png.slice(8)}`,
};
const MIME_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/PNG", "image/bmp", "", undefined];

// Everything capability detection or the fallback text reads.
const TERMINAL_ENV = [
  "TERM", "TERM_PROGRAM", "TERMINAL_EMULATOR", "COLORTERM", "TMUX", "KITTY_WINDOW_ID", "GHOSTTY_RESOURCES_DIR",
  "WEZTERM_PANE", "WARP_SESSION_ID", "WARP_TERMINAL_SESSION_UUID", "ITERM_SESSION_ID", "WT_SESSION",
  "ALACRITTY_WINDOW_ID", "ORCA_IMAGE_PROTOCOL", "PI_HYPERLINKS", "PI_IMAGE_PROTOCOL", "PI_TRUE_COLOR", "HOME",
];

function withTerminal(tui, vars, fn) {
  const env = globalThis.process.env;
  const saved = Object.fromEntries(TERMINAL_ENV.map((name) => [name, env[name]]));
  for (const name of TERMINAL_ENV) delete env[name];
  Object.assign(env, vars);
  const cell = tui.getCellDimensions();
  tui.setCapabilityOverrides({});
  tui.resetCapabilitiesCache();
  try {
    return fn();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    tui.setCellDimensions(cell);
    tui.setCapabilityOverrides({});
    tui.resetCapabilitiesCache();
  }
}

const DETECT_ENVS = {
  bare: {},
  colorTermTruecolor: { COLORTERM: "truecolor" },
  colorTerm24bit: { COLORTERM: "24BIT", TERM: "xterm" },
  termDirect: { TERM: "xterm-direct" },
  appleTerminal: { TERM_PROGRAM: "Apple_Terminal", TERM: "xterm-256color" },
  tmux: { TMUX: "/tmp/tmux-1000/default,1,0", TERM: "screen-256color", KITTY_WINDOW_ID: "3" },
  tmuxTerm: { TERM: "tmux-256color", COLORTERM: "truecolor" },
  screen: { TERM: "screen.xterm-256color", TERM_PROGRAM: "ghostty" },
  herdr: { TERM_PROGRAM: "herdr", KITTY_WINDOW_ID: "1" },
  herdrTruecolor: { TERM_PROGRAM: "HERDR", COLORTERM: "truecolor" },
  rex: { TERM_PROGRAM: "rex" },
  orcaAdvertised: { TERM_PROGRAM: "orca", ORCA_IMAGE_PROTOCOL: "kitty" },
  orcaSilent: { TERM_PROGRAM: "orca" },
  orcaUpperCase: { TERM_PROGRAM: "Orca", ORCA_IMAGE_PROTOCOL: "KITTY" },
  kittyWindow: { KITTY_WINDOW_ID: "1" },
  kittyEmptyWindow: { KITTY_WINDOW_ID: "" },
  kittyProgram: { TERM_PROGRAM: "Kitty" },
  ghosttyProgram: { TERM_PROGRAM: "ghostty" },
  ghosttyTerm: { TERM: "xterm-ghostty" },
  ghosttyResources: { GHOSTTY_RESOURCES_DIR: "/usr/share/ghostty" },
  weztermPane: { WEZTERM_PANE: "0" },
  weztermProgram: { TERM_PROGRAM: "WezTerm" },
  warpProgram: { TERM_PROGRAM: "WarpTerminal" },
  warpSession: { WARP_SESSION_ID: "abc" },
  warpUuid: { WARP_TERMINAL_SESSION_UUID: "abc" },
  itermProgram: { TERM_PROGRAM: "iTerm.app" },
  itermSession: { ITERM_SESSION_ID: "w0t0p0" },
  windowsTerminal: { WT_SESSION: "guid" },
  alacrittyTerm: { TERM: "alacritty" },
  alacrittyWindow: { ALACRITTY_WINDOW_ID: "1", TERM: "xterm-256color" },
  alacrittyProgram: { TERM_PROGRAM: "alacritty" },
  vscode: { TERM_PROGRAM: "vscode" },
  zed: { TERM_PROGRAM: "zed" },
  jetbrains: { TERMINAL_EMULATOR: "JetBrains-JediTerm", COLORTERM: "truecolor" },
  forceKitty: { PI_IMAGE_PROTOCOL: "kitty" },
  forceIterm: { PI_IMAGE_PROTOCOL: "ITERM2", TERM_PROGRAM: "kitty" },
  forceNone: { PI_IMAGE_PROTOCOL: "none", TERM_PROGRAM: "kitty" },
  forceZero: { PI_IMAGE_PROTOCOL: "0", ITERM_SESSION_ID: "x" },
  forceUnknown: { PI_IMAGE_PROTOCOL: "sixel", ITERM_SESSION_ID: "x" },
  trueColorOn: { PI_TRUE_COLOR: "1" },
  trueColorOff: { PI_TRUE_COLOR: "0", TERM_PROGRAM: "kitty" },
  trueColorYes: { PI_TRUE_COLOR: "yes" },
  linksOn: { PI_HYPERLINKS: "1" },
  linksOff: { PI_HYPERLINKS: "0", TERM_PROGRAM: "vscode" },
  linksTrue: { PI_HYPERLINKS: "true", TERM_PROGRAM: "vscode" },
  tmuxLinksForced: { TMUX: "x", PI_HYPERLINKS: "1" },
  tmuxLinksRefused: { TMUX: "x", PI_HYPERLINKS: "0" },
  everything: { PI_IMAGE_PROTOCOL: "iterm2", PI_TRUE_COLOR: "0", PI_HYPERLINKS: "0", TERM_PROGRAM: "ghostty" },
};

function terminalImageCases(tui, needs) {
  const NAMES = Object.keys(IMAGE_DATA);
  const fallbackTheme = { fallbackColor: (s) => `<fb>${s}</fb>` };
  const KITTY = { images: "kitty", trueColor: true, hyperlinks: true };
  const ITERM2 = { images: "iterm2", trueColor: true, hyperlinks: false };
  const TEXT_ONLY = { images: null, trueColor: false, hyperlinks: false };

  // Header readers: every reader on every image, so a wrong format is null.
  for (const name of NAMES) {
    needs(["getPngDimensions", "getJpegDimensions", "getGifDimensions", "getWebpDimensions"], `imageDimensions/${name}`, () =>
      capture(() => {
        const data = IMAGE_DATA[name];
        return [tui.getPngDimensions(data), tui.getJpegDimensions(data), tui.getGifDimensions(data), tui.getWebpDimensions(data)];
      }),
    );
  }
  for (const [form, data] of Object.entries(BASE64_FORMS)) {
    needs(["getImageDimensions"], `imageDimensions/base64/${form}`, () =>
      capture(() => MIME_TYPES.slice(0, 4).map((mime) => tui.getImageDimensions(data, mime))),
    );
  }
  for (const name of ["png", "jpeg", "gif89", "webpLossy", "text"]) {
    needs(["getImageDimensions"], `getImageDimensions/${name}`, () =>
      capture(() => MIME_TYPES.map((mime) => tui.getImageDimensions(IMAGE_DATA[name], mime))),
    );
  }
  needs(["getPngDimensions", "getJpegDimensions", "getGifDimensions", "getWebpDimensions"], "imageDimensions/notText", () =>
    capture(() =>
      [undefined, null, 42].map((input) => [
        tui.getPngDimensions(input),
        tui.getJpegDimensions(input),
        tui.getGifDimensions(input),
        tui.getWebpDimensions(input),
      ]),
    ),
  );

  // Cell dimensions.
  needs(["getCellDimensions", "setCellDimensions"], "cellDimensions", () =>
    capture(() =>
      withTerminal(tui, {}, () => {
        const before = { ...tui.getCellDimensions() };
        const next = { widthPx: 11, heightPx: 23 };
        tui.setCellDimensions(next);
        return { before, after: tui.getCellDimensions(), same: tui.getCellDimensions() === next };
      }),
    ),
  );

  // Cells an image takes.
  const SIZES = [[800, 600], [100, 100], [1, 1000], [1000, 1], [0, 0], [9, 18], [1920, 1080], [-5, 40]];
  const CELLS = [undefined, { widthPx: 10, heightPx: 20 }, { widthPx: 8, heightPx: 17 }, { widthPx: 7.5, heightPx: 15.25 }];
  for (const [w, h] of SIZES) {
    needs(["calculateImageRows"], `calculateImageRows/${w}x${h}`, () =>
      capture(() =>
        CELLS.map((cell) => [1, 10, 33.7, 80, 0].map((columns) => tui.calculateImageRows({ widthPx: w, heightPx: h }, columns, cell))),
      ),
    );
  }

  // Kitty transmissions, short and chunked.
  const longData = (length) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".repeat(Math.ceil(length / 36)).slice(0, length);
  const KITTY_OPTIONS = {
    none: undefined,
    empty: {},
    all: { columns: 20, rows: 5, imageId: 42, moveCursor: false },
    zeros: { columns: 0, rows: 0, imageId: 0, moveCursor: true },
    rowsOnly: { rows: 3 },
  };
  for (const length of [0, 10, 4096, 4097, 8192, 8193, 10000]) {
    for (const [name, options] of Object.entries(KITTY_OPTIONS)) {
      if (length > 10 && name !== "all" && name !== "empty") continue;
      needs(["encodeKitty"], `encodeKitty/${length}/${name}`, () => capture(() => tui.encodeKitty(longData(length), options)));
    }
  }
  needs(["deleteKittyImage", "deleteAllKittyImages"], "kittyDelete", () =>
    capture(() => [tui.deleteKittyImage(7), tui.deleteKittyImage(0xffffffff), tui.deleteAllKittyImages()]),
  );

  // iTerm2 inline files.
  const ITERM_OPTIONS = {
    none: undefined,
    sized: { width: 10, height: "auto" },
    strings: { width: "50%", height: "3px" },
    zeroWidth: { width: 0 },
    named: { name: "pic.png" },
    namedWide: { name: "日本 😀.png" },
    emptyName: { name: "" },
    notInline: { inline: false, preserveAspectRatio: false },
    keepAspect: { inline: true, preserveAspectRatio: true },
  };
  for (const [name, options] of Object.entries(ITERM_OPTIONS)) {
    needs(["encodeITerm2"], `encodeITerm2/${name}`, () => capture(() => tui.encodeITerm2(pngData, options)));
  }
  for (const data of ["", "=", "YQ", "YQ==", "YWJj", "a===", "a b c d", IMAGE_DATA.jpegExifFirst]) {
    needs(["encodeITerm2"], `encodeITerm2/size/${data.slice(0, 12)}/${data.length}`, () => capture(() => tui.encodeITerm2(data)));
  }

  // renderImage under each protocol.
  const RENDER_OPTIONS = {
    none: undefined,
    width20: { maxWidthCells: 20 },
    boxed: { maxWidthCells: 20, maxHeightCells: 3 },
    fractional: { maxWidthCells: 12.9, maxHeightCells: 2.5 },
    withId: { imageId: 42, moveCursor: false },
    squeeze: { maxWidthCells: 1, maxHeightCells: 1 },
    stretch: { preserveAspectRatio: false, maxWidthCells: 7 },
  };
  const RENDER_SIZES = { wide: [1000, 100], tall: [100, 1000], square: [300, 300], tiny: [3, 2] };
  const PROTOCOLS = { kitty: KITTY, iterm2: ITERM2, none: TEXT_ONLY, unknown: { images: "sixel", trueColor: true, hyperlinks: true } };
  for (const [protocol, caps] of Object.entries(PROTOCOLS)) {
    for (const [sizeName, [w, h]] of Object.entries(RENDER_SIZES)) {
      needs(["renderImage", "setCapabilities"], `renderImage/${protocol}/${sizeName}`, () =>
        capture(() =>
          withTerminal(tui, {}, () => {
            tui.setCapabilities({ ...caps });
            const out = {};
            for (const [name, options] of Object.entries(RENDER_OPTIONS)) {
              out[name] = tui.renderImage("QUJD", { widthPx: w, heightPx: h }, options);
            }
            tui.setCellDimensions({ widthPx: 7, heightPx: 16 });
            out.otherCell = tui.renderImage("QUJD", { widthPx: w, heightPx: h }, { maxWidthCells: 30, maxHeightCells: 10 });
            return out;
          }),
        ),
      );
    }
  }
  needs(["renderImage", "setCapabilities"], "renderImage/kitty/chunked", () =>
    capture(() =>
      withTerminal(tui, {}, () => {
        tui.setCapabilities({ ...KITTY });
        return tui.renderImage(longData(9000), { widthPx: 640, heightPx: 480 }, { imageId: 9, maxWidthCells: 40 });
      }),
    ),
  );

  // Links and the text stand-in.
  needs(["hyperlink"], "hyperlink", () =>
    capture(() => [
      tui.hyperlink("docs", "https://pi.dev/docs?a=1&b=2"),
      tui.hyperlink("", ""),
      tui.hyperlink(red("styled"), "file:///tmp/x"),
      tui.hyperlink("中文", "https://例え.jp/パス"),
    ]),
  );
  const FALLBACK_FILES = [
    undefined,
    "",
    "pic.png",
    "./relative/pic.png",
    "/home/tester/pics/a b#c?d%e.png",
    "/home/tester",
    "/home/tester/",
    "/home/tester2/x.png",
    "/home/tester\\x.png",
    "/tmp/./x/../y//日本 語 😀.png",
    "/tmp/odd[]^`{|}~\"<>'!$&()*+,;=@:.png",
    "/tmp/ctl\t\n\x7f.png",
    "/tmp/dir/",
    "/",
    "/..",
    "/tmp/lone\ud800.png",
  ];
  for (const [label, caps] of Object.entries({ links: KITTY, plain: ITERM2 })) {
    needs(["imageFallback", "setCapabilities"], `imageFallback/${label}`, () =>
      capture(() =>
        withTerminal(tui, { HOME: "/home/tester" }, () => {
          tui.setCapabilities({ ...caps });
          return FALLBACK_FILES.map((file) => [
            tui.imageFallback("image/png", undefined, file),
            tui.imageFallback("image/jpeg", { widthPx: 640, heightPx: 480 }, file),
          ]);
        }),
      ),
    );
  }
  needs(["imageFallback", "setCapabilities"], "imageFallback/homeWithSlash", () =>
    capture(() =>
      withTerminal(tui, { HOME: "/home/tester/" }, () => {
        tui.setCapabilities({ ...TEXT_ONLY });
        return ["/home/tester/", "/home/tester/x", "/home/tester//x"].map((file) => tui.imageFallback("image/gif", { widthPx: 0, heightPx: 0 }, file));
      }),
    ),
  );
  needs(["imageFallback"], "imageFallback/noFileNoDetection", () =>
    capture(() =>
      withTerminal(tui, { TMUX: "x" }, () => [tui.imageFallback("image/webp"), tui.imageFallback("", { widthPx: 1, heightPx: 2 })]),
    ),
  );
  needs(["imageFallback"], "imageFallback/detected", () =>
    capture(() => withTerminal(tui, { TERM_PROGRAM: "vscode", HOME: "/home/tester" }, () => tui.imageFallback("image/png", undefined, "/home/tester/a.png"))),
  );

  // Detection from the environment, with the tmux probe injected.
  for (const [name, vars] of Object.entries(DETECT_ENVS)) {
    needs(["detectCapabilities"], `detectCapabilities/${name}`, () =>
      capture(() =>
        withTerminal(tui, vars, () => {
          const out = {};
          for (const answer of [true, false]) {
            let probes = 0;
            const caps = tui.detectCapabilities(() => {
              probes++;
              return answer;
            });
            out[answer ? "tmuxForwards" : "tmuxStrips"] = { caps, probes };
          }
          return out;
        }),
      ),
    );
  }
  needs(["detectCapabilities"], "detectCapabilities/defaultProbeOutsideTmux", () =>
    capture(() => withTerminal(tui, { TERM_PROGRAM: "WezTerm" }, () => tui.detectCapabilities())),
  );

  // The cached capabilities and their overrides.
  needs(["getCapabilities", "setCapabilityOverrides", "resetCapabilitiesCache", "setCapabilities"], "getCapabilities/cache", () =>
    capture(() =>
      withTerminal(tui, { KITTY_WINDOW_ID: "1" }, () => {
        const steps = [];
        const first = tui.getCapabilities();
        steps.push({ caps: first, cached: tui.getCapabilities() === first });
        globalThis.process.env.KITTY_WINDOW_ID = "";
        steps.push({ stale: tui.getCapabilities() === first });
        tui.resetCapabilitiesCache();
        const redetected = tui.getCapabilities();
        steps.push({ caps: redetected, fresh: redetected !== first });
        tui.setCapabilityOverrides({ images: "kitty" });
        const overridden = tui.getCapabilities();
        steps.push({ caps: overridden, fresh: overridden !== redetected });
        tui.setCapabilityOverrides({ images: "kitty", extra: 1 });
        steps.push({ keptForSameOverrides: tui.getCapabilities() === overridden });
        tui.setCapabilityOverrides({ images: "kitty", trueColor: false, extra: "x" });
        steps.push({ caps: tui.getCapabilities() });
        tui.setCapabilityOverrides({ images: undefined, trueColor: false, hyperlinks: undefined });
        steps.push({ caps: tui.getCapabilities(), keys: Object.keys(tui.getCapabilities()) });
        const forced = { images: "iterm2", trueColor: false, hyperlinks: true };
        tui.setCapabilities(forced);
        steps.push({ same: tui.getCapabilities() === forced });
        tui.setCapabilities(null);
        steps.push({ caps: tui.getCapabilities() });
        return steps;
      }),
    ),
  );
  needs(["getCapabilities", "setCapabilityOverrides"], "getCapabilities/tmuxLinksOverridden", () =>
    capture(() =>
      withTerminal(tui, { TMUX: "x", COLORTERM: "truecolor" }, () => {
        tui.setCapabilityOverrides({ hyperlinks: true });
        const on = tui.getCapabilities();
        tui.setCapabilityOverrides({ hyperlinks: false, images: "iterm2" });
        return [on, tui.getCapabilities()];
      }),
    ),
  );
  needs(["getCapabilities"], "getCapabilities/env", () =>
    capture(() =>
      withTerminal(tui, { TERM_PROGRAM: "iTerm.app", PI_TRUE_COLOR: "0" }, () => ({
        caps: tui.getCapabilities(),
        colorMode: tui.getTerminalColorMode(),
      })),
    ),
  );
  needs(["getTerminalColorMode", "setCapabilities"], "getTerminalColorMode", () =>
    capture(() =>
      withTerminal(tui, {}, () => {
        tui.setCapabilities({ images: null, trueColor: true, hyperlinks: false });
        return [
          tui.getTerminalColorMode(),
          tui.getTerminalColorMode(undefined),
          tui.getTerminalColorMode({ trueColor: false }),
          tui.getTerminalColorMode({ trueColor: 1 }),
          tui.getTerminalColorMode({}),
        ];
      }),
    ),
  );

  // Image ids are random: only their kind is compared.
  needs(["allocateImageId"], "allocateImageId", () =>
    capture(() => {
      const ids = Array.from({ length: 200 }, () => tui.allocateImageId());
      return {
        integers: ids.every(Number.isInteger),
        inRange: ids.every((id) => id >= 1 && id <= 0xffffffff),
        mostlyDistinct: new Set(ids).size > 190,
      };
    }),
  );

  // The Image component. Random Kitty ids are replaced by "<id>".
  const anonymise = (lines, id) => lines.map((line) => (id === undefined ? line : line.split(`i=${id}`).join("i=<id>")));
  function renderImageComponent(caps, make, widths, vars = {}) {
    const out = {};
    for (const width of widths) {
      out[width] = capture(() =>
        withTerminal(tui, { HOME: "/home/tester", ...vars }, () => {
          tui.setCapabilities({ ...caps });
          const image = make();
          const idBefore = image.getImageId();
          const lines = [...image.render(width)];
          const id = image.getImageId();
          const random = idBefore === undefined && id !== undefined;
          return {
            lines: random ? anonymise(lines, id) : lines,
            id: random ? { random: Number.isInteger(id) && id >= 1 && id <= 0xffffffff } : id,
          };
        }),
      );
    }
    return out;
  }
  const IMAGES = {
    png: () => new tui.Image(pngData, "image/png", fallbackTheme),
    pngWithId: () => new tui.Image(pngData, "image/png", fallbackTheme, { imageId: 77 }),
    pngTall: () => new tui.Image(IMAGE_DATA.pngTall, "image/png", fallbackTheme, { imageId: 5, filename: "/home/tester/tall.png" }),
    pngLimits: () => new tui.Image(pngData, "image/png", fallbackTheme, { imageId: 6, maxWidthCells: 12, maxHeightCells: 2 }),
    pngWide: () => new tui.Image(pngData, "image/png", fallbackTheme, { imageId: 8, maxWidthCells: 200 }),
    givenDimensions: () => new tui.Image(pngData, "image/png", fallbackTheme, { imageId: 3 }, { widthPx: 40, heightPx: 400 }),
    jpeg: () => new tui.Image(IMAGE_DATA.jpeg, "image/jpeg", fallbackTheme, { imageId: 4, filename: "/tmp/photo 1.jpg" }),
    unknownType: () => new tui.Image("AAAA", "image/avif", fallbackTheme, { imageId: 2, filename: "x.avif" }),
    brokenPng: () => new tui.Image("bm90IGEgcG5n", "image/png", fallbackTheme, { imageId: 1 }),
    emptyData: () => new tui.Image("", "image/png", fallbackTheme, { imageId: 1, filename: "/home/tester/e.png" }),
    chunked: () => new tui.Image(`${pngData}${"A".repeat(5000)}`, "image/png", fallbackTheme, { imageId: 12 }),
  };
  const PROTOCOL_CAPS = { kitty: KITTY, iterm2: ITERM2, none: TEXT_ONLY, noneLinks: { images: null, trueColor: true, hyperlinks: true } };
  for (const [protocol, caps] of Object.entries(PROTOCOL_CAPS)) {
    for (const [name, make] of Object.entries(IMAGES)) {
      needs(["Image", "setCapabilities"], `Image/${protocol}/${name}`, () => renderImageComponent(caps, make, [1, 3, 10, 40, 100]));
    }
  }
  needs(["Image", "setCapabilities", "setCellDimensions"], "Image/otherCell", () =>
    renderImageComponent(ITERM2, () => {
      tui.setCellDimensions({ widthPx: 12, heightPx: 12 });
      return new tui.Image(pngData, "image/png", fallbackTheme);
    }, [20, 50]),
  );
  needs(["Image", "setCapabilities"], "Image/cache", () =>
    capture(() =>
      withTerminal(tui, {}, () => {
        tui.setCapabilities({ ...ITERM2 });
        const image = new tui.Image(pngData, "image/png", fallbackTheme);
        const first = image.render(30);
        const again = image.render(30);
        tui.setCapabilities({ ...TEXT_ONLY });
        const stale = [...image.render(30)];
        const otherWidth = [...image.render(31)];
        image.invalidate();
        const afterInvalidate = [...image.render(31)];
        return { cached: first === again, stale, otherWidth, afterInvalidate };
      }),
    ),
  );
  needs(["Image", "setImageTranscoder", "setCapabilities"], "Image/transcoder", () =>
    capture(() =>
      withTerminal(tui, {}, () => {
        tui.setCapabilities({ ...KITTY });
        const calls = [];
        const out = {};
        try {
          out.without = [...new tui.Image(IMAGE_DATA.jpeg, "image/jpeg", fallbackTheme, { imageId: 1 }).render(40)];
          tui.setImageTranscoder((data, mime) => {
            calls.push(mime);
            return data === IMAGE_DATA.gif89 ? null : IMAGE_DATA.pngTall;
          });
          out.converted = [...new tui.Image(IMAGE_DATA.jpeg, "image/jpeg", fallbackTheme, { imageId: 2, filename: "/a.jpg" }).render(40)];
          out.convertedAgain = [...new tui.Image(IMAGE_DATA.jpeg, "image/jpeg", fallbackTheme, { imageId: 3 }).render(20)];
          out.failed = [...new tui.Image(IMAGE_DATA.gif89, "image/gif", fallbackTheme, { imageId: 4 }).render(40)];
          out.failedAgain = [...new tui.Image(IMAGE_DATA.gif89, "image/gif", fallbackTheme, { imageId: 5 }).render(40)];
          out.pngUntouched = [...new tui.Image(pngData, "image/png", fallbackTheme, { imageId: 6 }).render(40)];
          tui.setCapabilities({ ...ITERM2 });
          out.itermUntouched = [...new tui.Image(IMAGE_DATA.webpLossy, "image/webp", fallbackTheme).render(40)];
          tui.setCapabilities({ ...KITTY });
          const retried = new tui.Image(IMAGE_DATA.gif89, "image/gif", fallbackTheme, { imageId: 7 });
          out.beforeNewTranscoder = [...retried.render(40)];
          tui.setImageTranscoder(() => {
            calls.push("second");
            return IMAGE_DATA.pngTiny;
          });
          retried.invalidate();
          out.afterNewTranscoder = [...retried.render(40)];
          for (let i = 0; i < 40; i++) new tui.Image(`${IMAGE_DATA.jpeg}${"A".repeat(i * 4)}`, "image/jpeg", fallbackTheme, { imageId: 1 }).render(10);
          new tui.Image(IMAGE_DATA.gif89, "image/gif", fallbackTheme, { imageId: 8 }).render(10);
          out.calls = calls;
        } finally {
          tui.setImageTranscoder(undefined);
        }
        return out;
      }),
    ),
  );
}

// Colours: construction and its checks, every syntax parseColor takes or
// refuses, conversions between the spaces (raw floats, so the Oklab/OKHSL
// arithmetic must match to the last bit), mixing, SGR sequences in both
// colour modes, styling and the terminal's colour-scheme report.

const COLOR_TEXTS = [
  "#000", "#fff", "#FFF", "#abc", "#a1B2c3", "#000000", "#ffffff", "#7f7f7f", "#12345", "#1234567", "#ggg",
  "abc", "#abcd", " #abc", "#abc ", "#abc\n",
  "oklch(0.5 0.1 120)", "oklch(50% 0.1 120)", "OKLCH(0.7 0.15 30deg)", "oklch( 0.7   0.15  30DEG )",
  "oklch(0.7 0.15 -30)", "oklch(0.7 0.15 400)", "oklch(1 0.3 150)", "oklch(100% 0.3 150)", "oklch(0 0 0)",
  "oklch(.5 .2 .5)", "oklch(5. 0.1 10)", "oklch(0.5e0 1e-1 1.2E2)", "oklch(+0.5 +0.1 +10)", "oklch(0.6 0.4 264)",
  "oklch(0.9 0.37 145)", "oklch(0.2 0.2 300)", "oklch(1.5 0.1 10)", "oklch(150% 0.1 10)", "oklch(0.5 -0.1 10)",
  "oklch(0.5 0.1)", "oklch(0.5,0.1,10)", "oklch(0.5 0.1 10 / 0.5)", "oklch(0.5 0.1% 10)", "oklch(0.5 0.1 10%)",
  "oklch(0.5 0.1 10rad)", "oklch(0.5 0.1 1e999)", "oklch (0.5 0.1 10)", "oklch(0.5 0.1 10deg deg)",
  "okhsl(0 0% 0%)", "okhsl(0 0 1)", "okhsl(120 50% 50%)", "okhsl(120 0.5 0.5)", "OKHSL(240deg 100% 70%)",
  "okhsl(30 80% 60%)", "okhsl(-90 40% 30%)", "okhsl(725 100% 50%)", "okhsl(200 100% 100%)", "okhsl(200 100% 0%)",
  "okhsl(10 0.8 0.5)", "okhsl(10 80 50)", "okhsl(10 101% 50%)", "okhsl(10 50% -1%)", "okhsl(10% 50% 50%)",
  "okhsl(10 50% 50%", "okhsl(10deg 50%% 50%)", "okhsl(.5e1 .5 .5)", "okhsl( 350 12% 88% )",
  "", "red", "rgb(1,2,3)", "hsl(0 0% 0%)",
];
const COLOR_NUMBERS = [0, 7, 15, 16, 100, 231, 232, 244, 255, 256, -1, 1.5, NaN, Infinity];

/** Colours the conversion, mixing and SGR cases run over, by name. */
function colorSamples(tui) {
  return {
    black: tui.rgbColor(0, 0, 0),
    white: tui.rgbColor(255, 255, 255),
    red: tui.rgbColor(255, 0, 0),
    green: tui.rgbColor(0, 255, 0),
    blue: tui.rgbColor(0, 0, 255),
    grey: tui.rgbColor(128, 128, 128),
    nearGrey: tui.rgbColor(120, 124, 127),
    orange: tui.rgbColor(255, 136, 0),
    teal: tui.rgbColor(18, 140, 126),
    fraction: tui.rgbColor(10.4, 200.5, 99.6),
    darkest: tui.rgbColor(1, 0, 0),
    idx0: tui.indexedColor(0),
    idx9: tui.indexedColor(9),
    idx16: tui.indexedColor(16),
    idx208: tui.indexedColor(208),
    idx231: tui.indexedColor(231),
    idx232: tui.indexedColor(232),
    idx255: tui.indexedColor(255),
    oklchMid: tui.oklchColor(0.6, 0.12, 250),
    oklchGrey: tui.oklchColor(0.5, 0, 123),
    oklchWide: tui.oklchColor(0.7, 0.35, 140),
    oklchWhiteWide: tui.oklchColor(1, 0.3, 150),
    oklchBlack: tui.oklchColor(0, 0.2, 20),
    oklchNegHue: tui.oklchColor(0.8, 0.05, -60),
    okhslVivid: tui.okhslColor(300, 1, 0.55),
    okhslPale: tui.okhslColor(45, 0.2, 0.9),
  };
}

// Conversions to OKLCH and OKHSL run through Math.cbrt, Math.hypot,
// Math.atan2 and `**`, whose last bits differ between V8 (pi's fdlibm-based
// functions) and the libm pihost's engine calls, by a few ulps at most.
// Such results are compared to 10 significant digits: closer than any
// formula difference would come, and each engine's own exact result rounds
// the same way. A grey's chroma is rounding noise (~1e-16) and its hue the
// angle of that noise, so both read as 0 below 1e-9.
function approx(value) {
  if (typeof value === "number") return Math.abs(value) < 1e-9 ? 0 : Number(value.toPrecision(10));
  if (Array.isArray(value)) return value.map(approx);
  if (value && typeof value === "object") {
    const out = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, approx(item)]));
    if (typeof value.c === "number" && Math.abs(value.c) < 1e-9 && "h" in value) out.h = 0;
    return out;
  }
  return value;
}
const approxCapture = (fn) => approx(capture(fn));

function colorCases(tui, needs) {
  const frozen = (value) => ({ value, frozen: Object.isFrozen(value) });

  needs(["indexedColor"], "indexedColor", () =>
    COLOR_NUMBERS.concat(["3", null]).map((n) => capture(() => frozen(tui.indexedColor(n)))),
  );
  needs(["rgbColor"], "rgbColor", () =>
    [
      [0, 0, 0], [255, 255, 255], [1.5, 2.25, 254.75], [256, 0, 0], [0, -1, 0], [0, 0, 255.01], [NaN, 0, 0],
      [0, Infinity, 0], [0, 0, "7"], [300, NaN, -5], [-0, 0, 0],
    ].map(([r, g, b]) => capture(() => frozen(tui.rgbColor(r, g, b)))),
  );
  needs(["oklchColor"], "oklchColor", () =>
    [
      [0, 0, 0], [1, 0.4, 359.5], [0.5, 0.1, 360], [0.5, 0.1, 720.5], [0.5, 0.1, -30], [0.5, 0.1, -720],
      [0.5, 2, 10], [1.0001, 0.1, 10], [-0.1, 0.1, 10], [0.5, -0.01, 10], [NaN, 0, 0], [0.5, Infinity, 0],
      [0.5, 0.1, NaN], [0.5, 0.1, 1e20], [0.5, 0.1, 0.1 + 0.2],
    ].map(([l, c, h]) => capture(() => frozen(tui.oklchColor(l, c, h)))),
  );
  needs(["okhslColor"], "okhslColor/errors", () =>
    [[NaN, 0.5, 0.5], [0, Infinity, 0.5], [0, 0.5, NaN], [0, 1.1, 0.5], [0, -0.1, 0.5], [0, 0.5, 1.1], [0, 0.5, -0.1]].map(
      ([h, s, l]) => capture(() => tui.okhslColor(h, s, l)),
    ),
  );
  for (const h of [0, 29, 60, 90, 110, 142, 180, 210, 264, 300, 330, 359.9, -45, 1080]) {
    needs(["okhslColor"], `okhslColor/h${h}`, () => {
      const out = [];
      for (const s of [0, 0.05, 0.3, 0.79, 0.8, 0.81, 0.95, 1]) {
        for (const l of [0, 0.02, 0.2, 0.5, 0.65, 0.9, 0.99, 1]) out.push(capture(() => tui.okhslColor(h, s, l)));
      }
      return out;
    });
  }

  for (const text of COLOR_TEXTS) {
    needs(["parseColor"], `parseColor/${text}`, () => capture(() => frozen(tui.parseColor(text))));
  }
  needs(["parseColor"], "parseColor/numbers", () => COLOR_NUMBERS.map((n) => capture(() => tui.parseColor(n))));
  needs(["parseColor"], "parseColor/nonStrings", () =>
    [undefined, null, true, {}, ["#abc"]].map((v) => capture(() => tui.parseColor(v))),
  );

  const conversions = ["colorToRgb", "colorToOklch", "colorToOkhsl", "colorToHex"];
  needs(["rgbColor", "indexedColor", "oklchColor", "okhslColor", ...conversions], "colorConversions/samples", () => {
    const out = {};
    for (const [name, color] of Object.entries(colorSamples(tui))) {
      out[name] = Object.fromEntries(conversions.map((fn) => [fn, approxCapture(() => tui[fn](color))]));
    }
    return out;
  });
  needs(["indexedColor", ...conversions], "colorConversions/palette", () =>
    Array.from({ length: 256 }, (_, i) => conversions.map((fn) => approxCapture(() => tui[fn](tui.indexedColor(i))))),
  );
  needs(["rgbColor", ...conversions], "colorConversions/rgbGrid", () => {
    const out = [];
    for (const r of [0, 37, 102, 200, 255]) {
      for (const g of [0, 64, 181, 255]) {
        for (const b of [0, 15, 128, 254]) {
          const color = tui.rgbColor(r, g, b);
          out.push(approx([tui.colorToOklch(color), tui.colorToOkhsl(color), tui.colorToHex(color)]));
        }
      }
    }
    return out;
  });
  needs(["oklchColor", "colorToRgb", "colorToHex"], "colorConversions/oklchSweep", () => {
    const out = [];
    for (const l of [0, 0.05, 0.3, 0.55, 0.75, 0.92, 1]) {
      for (const c of [0, 0.03, 0.09, 0.16, 0.25, 0.4]) {
        for (const h of [0, 40, 95, 150, 200, 265, 320]) out.push(tui.colorToHex(tui.oklchColor(l, c, h)));
      }
    }
    return out;
  });
  // OKHSL -> sRGB -> OKHSL -> sRGB settles after one trip.
  needs(["okhslColor", "colorToOkhsl", "colorToRgb"], "colorConversions/okhslRoundTrip", () => {
    const out = [];
    for (const h of [15, 75, 135, 195, 255, 315]) {
      for (const s of [0.1, 0.5, 0.85, 1]) {
        for (const l of [0.1, 0.45, 0.8]) {
          const first = tui.okhslColor(h, s, l);
          const back = tui.colorToOkhsl(first);
          out.push(approx([back, tui.colorToRgb(tui.okhslColor(back.h, back.s, back.l))]));
        }
      }
    }
    return out;
  });
  needs(["parseColor", "colorToHex", "colorToOklch"], "colorConversions/hexRoundTrip", () =>
    ["#000000", "#ffffff", "#ff8800", "#0a0b0c", "#7fffd4", "#c0ffee", "#808080"].map((hex) => {
      const color = tui.parseColor(hex);
      const oklch = tui.colorToOklch(color);
      return approx([tui.colorToHex(color), oklch, tui.colorToHex(tui.oklchColor(oklch.l, oklch.c, oklch.h))]);
    }),
  );
  needs(["colorToRgb", "colorToHex"], "colorConversions/handMade", () =>
    [
      { kind: "rgb", r: 300, g: -4, b: 0.5 },
      { kind: "indexed", index: 300 },
      { kind: "indexed", index: 20.5 },
      { kind: "oklch", l: 0.5, c: 0.1, h: 400 },
      { kind: "oklch", l: 2, c: 0.1, h: 10 },
    ].map((color) => [capture(() => tui.colorToRgb(color)), capture(() => tui.colorToHex(color))]),
  );
  needs(["colorToRgb"], "colorConversions/unknownKind", () => capture(() => tui.colorToRgb({ kind: "named" })));

  needs(["rgbColor", "indexedColor", "oklchColor", "okhslColor", "mixColors"], "mixColors/samples", () => {
    const samples = colorSamples(tui);
    const pairs = [
      ["black", "white"], ["red", "blue"], ["red", "green"], ["orange", "teal"], ["grey", "red"], ["red", "grey"],
      ["oklchGrey", "blue"], ["white", "oklchGrey"], ["idx9", "idx208"], ["idx232", "oklchMid"], ["oklchWide", "okhslPale"],
      ["oklchNegHue", "okhslVivid"], ["fraction", "teal"], ["oklchWhiteWide", "oklchBlack"], ["blue", "blue"],
    ];
    const out = {};
    for (const [a, b] of pairs) {
      for (const space of [undefined, "oklch", "srgb", "lab"]) {
        out[`${a}+${b}/${space}`] = [0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 0.9, 1].map((amount) =>
          approxCapture(() => tui.mixColors(samples[a], samples[b], amount, space)),
        );
      }
    }
    return out;
  });
  needs(["rgbColor", "mixColors"], "mixColors/amounts", () => {
    const a = tui.rgbColor(10, 20, 30);
    const b = tui.rgbColor(200, 100, 0);
    return [-0.01, 1.01, NaN, Infinity, -Infinity, "0.5", -0].map((amount) => [
      approxCapture(() => tui.mixColors(a, b, amount)),
      approxCapture(() => tui.mixColors(a, b, amount, "srgb")),
    ]);
  });

  const sgr = ["foregroundAnsi", "backgroundAnsi"];
  needs(["rgbColor", "indexedColor", "oklchColor", "okhslColor", ...sgr], "colorAnsi/samples", () => {
    const out = {};
    for (const [name, color] of Object.entries(colorSamples(tui))) {
      out[name] = [];
      for (const mode of ["truecolor", "256color", undefined]) {
        for (const fn of sgr) out[name].push(capture(() => tui[fn](color, mode)));
      }
    }
    return out;
  });
  // Which palette entry a 256-colour terminal gets, over a grid of the cube,
  // the grey ramp and the colours between.
  needs(["rgbColor", "foregroundAnsi"], "colorAnsi/256grid", () => {
    const out = [];
    for (const r of [0, 47, 48, 95, 114, 115, 160, 200, 235, 255]) {
      for (const g of [0, 50, 95, 155, 215, 255]) {
        for (const b of [0, 75, 135, 196, 255]) out.push(tui.foregroundAnsi(tui.rgbColor(r, g, b), "256color"));
      }
    }
    return out;
  });
  needs(["rgbColor", "foregroundAnsi"], "colorAnsi/256greys", () => {
    const out = [];
    for (let v = 0; v <= 255; v += 3) {
      out.push(tui.foregroundAnsi(tui.rgbColor(v, v, v), "256color"));
      out.push(tui.foregroundAnsi(tui.rgbColor(v, Math.min(255, v + 9), v), "256color"));
      out.push(tui.foregroundAnsi(tui.rgbColor(v, Math.min(255, v + 10), v), "256color"));
    }
    return out;
  });
  needs(["rgbColor", "backgroundAnsi"], "colorAnsi/truecolorRounding", () =>
    [[0.5, 1.5, 2.49], [254.5, 127.5, 0.4999], [10.4, 200.5, 99.6]].map(([r, g, b]) =>
      tui.backgroundAnsi(tui.rgbColor(r, g, b), "truecolor"),
    ),
  );

  const STYLE_OPTIONS = {
    none: {},
    bold: { bold: true },
    dim: { dim: true },
    boldDim: { bold: true, dim: true },
    italic: { italic: true },
    underline: { underline: true },
    inverse: { inverse: true },
    strike: { strikethrough: true },
    all: { bold: true, dim: true, italic: true, underline: true, inverse: true, strikethrough: true },
    falsy: { bold: false, dim: 0, italic: "", underline: null },
    truthy: { bold: 1, italic: "yes" },
  };
  needs(["rgbColor", "indexedColor", "oklchColor", "styleText"], "styleText", () => {
    const samples = colorSamples(tui);
    const colorings = {
      plain: {},
      fg: { fg: samples.orange },
      bg: { bg: samples.idx208 },
      both: { fg: samples.oklchMid, bg: samples.okhslPale },
      undefinedColors: { fg: undefined, bg: undefined },
    };
    const out = {};
    for (const [colorName, colors] of Object.entries(colorings)) {
      for (const [styleName, style] of Object.entries(STYLE_OPTIONS)) {
        for (const mode of ["truecolor", "256color"]) {
          out[`${colorName}/${styleName}/${mode}`] = capture(() => tui.styleText("text", { ...colors, ...style }, mode));
        }
      }
    }
    out.empty = capture(() => tui.styleText("", { fg: samples.red, bold: true }, "truecolor"));
    out.multiline = capture(() => tui.styleText("a\nb", { bg: samples.blue, underline: true }, "256color"));
    return out;
  });
  needs(["rgbColor", "styleTextWithAnsi"], "styleTextWithAnsi", () => {
    const out = {};
    for (const [styleName, style] of Object.entries(STYLE_OPTIONS)) {
      out[styleName] = [
        capture(() => tui.styleTextWithAnsi("x", "<fg>", "<bg>", style)),
        capture(() => tui.styleTextWithAnsi("x", undefined, "<bg>", style)),
        capture(() => tui.styleTextWithAnsi("x", "", undefined, style)),
      ];
    }
    out.ignoresColors = capture(() =>
      tui.styleTextWithAnsi("x", undefined, undefined, { fg: tui.rgbColor(1, 2, 3), bg: tui.rgbColor(4, 5, 6) }),
    );
    return out;
  });

  needs(["oklabToOkhslLightness"], "oklabToOkhslLightness", () =>
    [0, 1e-9, 0.01, 0.1, 0.25, 0.4, 0.5, 0.568, 0.75, 0.9, 0.999, 1, 1.2, -0.1, NaN].map((x) =>
      capture(() => tui.oklabToOkhslLightness(x)),
    ),
  );

  const SCHEME_REPORTS = {
    dark: `${ESC}[?997;1n`,
    light: `${ESC}[?997;2n`,
    repeatedLastLight: `${ESC}[?997;1n${ESC}[?997;2n`,
    repeatedLastDark: `${ESC}[?997;2n${ESC}[?997;1n`,
    three: `${ESC}[?997;2n${ESC}[?997;2n${ESC}[?997;2n`,
    otherValue: `${ESC}[?997;3n`,
    zero: `${ESC}[?997;0n`,
    twoDigits: `${ESC}[?997;12n`,
    noPrivate: `${ESC}[997;1n`,
    query: `${ESC}[?996n`,
    trailingText: `${ESC}[?997;1nx`,
    leadingText: `x${ESC}[?997;1n`,
    newline: `${ESC}[?997;1n\n`,
    upperN: `${ESC}[?997;1N`,
    truncated: `${ESC}[?997;1`,
    osc11: `${ESC}]11;rgb:0000/0000/0000${ESC}\\`,
    c1Csi: "\x9b?997;1n",
    empty: "",
  };
  for (const [name, data] of Object.entries(SCHEME_REPORTS)) {
    needs(["parseTerminalColorSchemeReport"], `parseTerminalColorSchemeReport/${name}`, () =>
      capture(() => tui.parseTerminalColorSchemeReport(data)),
    );
  }
}
