// Cases for math in pi-tui's Markdown component: inline `$…$`, `\(…\)`,
// `$$…$$` and display blocks (`$$`/`\[` lines) in paragraphs, lists, quotes,
// tables and headings; places where math must not form (code, escapes,
// prices, shell variables); unclosed delimiters as they stream in; the
// renderLatex: false option; and several widths, including ones too narrow
// for a drawn formula. Run by runCases in pi-tui-cases.mjs, so the recorder
// and both differentials see them.

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

const theme = {
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

const DOCS = {
  inline: "Euler: $e^{i\\pi} + 1 = 0$ and $\\alpha \\le \\beta$.",
  inlineParens: "Area \\(\\pi r^2\\) and \\[x_1\\] inline, $$\\sqrt{2}$$ too.",
  inlineFraction: "Half is $\\frac{1}{2}$ here.",
  display: "Before\n\n$$\n\\frac{a+b}{c}\n$$\n\nAfter",
  displayTight: "x\n$$\na^2 + b^2\n$$\ny",
  displayOneLine: "$$\\sum_{i=1}^{n} i$$\n\ntext",
  displayBracket: "\\[\n\\int_0^1 x\\,dx\n\\]\nafter",
  displayMidLine: "a$$x$$ b",
  displayIndented: "   $$x^2$$\n\n    $$x^2$$",
  displayUnknown: "$$\n\\unknowncommand{x}\n$$",
  displayMatrix: "$$\n\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}\n$$",
  list: "- $x^2$ item\n- $$\\frac{1}{2}$$\n- b $\\alpha$\n  $$\n  y_1\n  $$\n1. $a+b$",
  quote: "> Quote $\\beta^2$\n>\n> $$\n> \\frac{x}{y}\n> $$\n\nout",
  table: "| a | b |\n|---|---|\n| $x^2$ | $\\frac{1}{2}$ |\n| $5 | $10 |",
  tableAfterOpen: "$$\n| a | b |\n|---|---|\n| 1 | 2 |",
  tableAfterBracket: "\\[\nx\n| a | b |\n| - | - |\n| 1 | 2 |",
  heading: "# Title $x^2$\n\n## $\\alpha$ rule",
  emphasis: "**bold $x_1$** and *it $\\gamma$* and ~~$y$~~",
  link: "[see $x^2$](https://example.com) and <https://a.b/$x$>",
  codeSpan: "Code `$x^2$` and `\\(y\\)` stay.",
  codeBlock: "```\n$x^2$\n$$\n\\frac{1}{2}\n$$\n```",
  indentedCode: "    $x^2$ code",
  escaped: "Escaped \\$x^2\\$ and \\\\(y\\\\) and \\$5.",
  escapedClose: "$a\\$b$ and $c\\\\$",
  prices: "It costs $5 and $10 today.",
  pricesSpaced: "Pay $ 5 or $x $ or $1.50.",
  shellVars: "Use $HOME$PATH or $PATH$x and $USER$ alone.",
  backtickInside: "Odd $a`b$ text",
  emptyDollars: "Empty $$ and $ $ marks",
  multiLine: "Across $a\nb$ lines",
  pendingInline: "Streaming $\\frac{1",
  pendingInlineParen: "Streaming \\(x + ",
  pendingInlinePlain: "Streaming $abc",
  pendingDisplay: "Intro\n\n$$\n\\sum_{i=1",
  pendingDisplayPlain: "Intro\n\n$$\nabc",
  pendingBracket: "Intro\n\n\\[\nx",
  pendingInList: "- item $x^",
  unsupported: "Bad $\\frac{1}$ and $\\undefinedthing$ stay.",
  wide: "$$\n\\frac{aaaaaaaaaaaaaaaaaaaaaaaa}{bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb}\n$$",
  wideInline: "Long $\\alpha + \\beta + \\gamma + \\delta + \\epsilon + \\zeta + \\eta$ wraps",
  setextAcross: "a\n$$x$$\n===\n\nb\n\\[y\\]\n---",
  listLazy: "- a\n$$x$$\n- $$\n  x^2\n  $$\n- z",
  quoteLazy: "> a\n$$x$$\n\n> $$\n> x^2",
  adjacent: "$a$$b$ and $$x$$$$y$$ and $$a$$$",
  breaks: "a  \n$x$\n$y$  \nb",
  nested: "\\(x\\) in $\\(y\\)$ and \\($z$\\)",
  blankInside: "a\n\n$$x\n\nb$$",
  emphasisOverMath: "*a $b* c$ and *$a*b$* and $_$_* and *it $x^2* y",
  mixed: "Para $x$.\n\n$$y^2$$\n- $z$\n\n> $w$\n\n```\n$v$\n```\n\nend $\\infty$",
};

function renderAt(make, widths) {
  const out = {};
  for (const width of widths) out[width] = capture(() => [...make().render(width)]);
  return out;
}

export function markdownMathCases(tui, needs) {
  for (const [name, doc] of Object.entries(DOCS)) {
    needs(["Markdown"], `Markdown/math/${name}`, () => renderAt(() => new tui.Markdown(doc, 1, 0, theme), [6, 20, 60]));
    needs(["Markdown"], `Markdown/math/off/${name}`, () =>
      renderAt(() => new tui.Markdown(doc, 0, 0, theme, undefined, { renderLatex: false }), [20, 60]),
    );
  }
  needs(["Markdown"], "Markdown/math/styled", () =>
    renderAt(
      () => new tui.Markdown(DOCS.mixed, 1, 1, theme, { color: (s) => `<fg>${s}</fg>`, bgColor: (s) => `{${s}}`, italic: true }),
      [20, 60],
    ),
  );
  needs(["Markdown"], "Markdown/math/streamed", () => {
    const text = "Sum $\\sum_{i=1}^{n} i$ then\n\n$$\n\\frac{a}{b}\n$$\n";
    const md = new tui.Markdown("", 0, 0, theme);
    const frames = [];
    for (let end = 1; end <= text.length; end += 3) {
      md.setText(text.slice(0, end));
      frames.push(capture(() => [...md.render(30)]));
    }
    return frames;
  });
}
