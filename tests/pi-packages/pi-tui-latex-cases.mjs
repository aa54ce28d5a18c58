// Cases for pi-tui's renderLatex: LaTeX math rendered inline and, with
// { display: true }, stacked over lines. Hand-written inputs cover each
// construct; a seeded stream of random token soups covers how they combine
// and how malformed input is refused. Run by runCases in pi-tui-cases.mjs,
// so the recorder and both differentials see them.

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

export const LATEX_INPUTS = {
  empty: "",
  blank: "   ",
  plain: "x + y = z",
  relations: "a < b > c \\le d \\geq e \\ne f \\approx g",
  greek: "\\alpha \\beta \\gamma \\Delta \\Omega \\varepsilon \\vartheta",
  operators: "a \\cdot b \\times c \\div d \\pm e \\mp f \\circ g",
  superscript: "x^2 + y^{10} + z^{n+1} + e^{-x}",
  subscript: "a_1 + a_{ij} + x_{n-1} + b_{max}",
  bothScripts: "x_i^2 + y^2_j + z_{k}^{m}",
  scriptNoUnicode: "x^{q} + y_{b} + z^{AB} + w_{xyz}",
  scriptStar: "A^* + B^{*} + C^\\ast",
  scriptSpaced: "x^{ a + b }",
  scriptTwice: "x^a^b",
  scriptOnOperator: "\\sin^2 x + \\cos^2 x = 1",
  fraction: "\\frac{a}{b}",
  fractionComplex: "\\frac{a+b}{c+d}",
  fractionNumbers: "\\frac{1}{2} + \\frac{3.5}{10}",
  fractionNested: "\\frac{\\frac{1}{x}}{1+\\frac{1}{y}}",
  dfracTfrac: "\\dfrac{x}{y} + \\tfrac{1}{n}",
  fractionBare: "\\frac12 + \\frac a b",
  fractionInScript: "e^{\\frac{x}{2}}",
  sqrt: "\\sqrt{2} + \\sqrt{x+1} + \\sqrt[3]{8} + \\sqrt[4]{y} + \\sqrt[n]{z} + \\sqrt[2]{w}",
  sqrtFraction: "\\sqrt{\\frac{a}{b}}",
  quadratic: "x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}",
  sum: "\\sum_{i=1}^{n} i^2",
  sumNoLimits: "\\sum x",
  sumNolimitsModifier: "\\sum\\nolimits_{i} x_i",
  intLimits: "\\int_0^1 x\\,dx + \\int\\limits_a^b f",
  prod: "\\prod_{k=1}^{\\infty} (1 + x^k)",
  bigOps: "\\bigcup_{i} A_i \\cap \\bigcap_j B_j \\oplus \\bigoplus_k C",
  limit: "\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1",
  limsup: "\\limsup_{n\\to\\infty} a_n + \\max_{i} x_i + \\argmax_{\\theta} L",
  doubleLimit: "\\sum_{a}_{b} x",
  namedOperators: "\\sin x \\cos y \\log n \\ln 2 \\exp(x) \\det A \\gcd(a,b)",
  namedOperatorSpacing: "2\\sin x + a\\cos\\theta + )\\tan( + \\sin\\sqrt{x}",
  operatorname: "\\operatorname{rank}(A) + \\operatorname*{argmin}_{x} f(x) + \\operatorname{foo}_{i} x",
  mod: "a \\equiv b \\pmod{n} + c \\bmod d + e \\mod f + \\pod{m}",
  arrows: "a \\to b \\rightarrow c \\Rightarrow d \\iff e \\mapsto f \\leftarrow g \\implies h",
  sets: "A \\subseteq B \\cup C \\in D \\notin \\emptyset \\setminus E \\forall x \\exists y",
  not: "a \\not= b \\not\\in C \\not< d \\not\\equiv e \\not{x} \\not\\subset F",
  notEmpty: "a \\not{} b",
  blackboard: "\\mathbb{R}^n \\mathbb{N} \\mathbb{Z} \\mathbb{Q} \\mathbb{C} \\mathbb{X}",
  wrappers: "\\mathbf{v} + \\mathrm{d}x + \\text{ if } x + \\textbf{bold} + \\mathcal{L} + \\mbox{ box } + \\boldsymbol{\\mu}",
  accents: "\\hat{x} \\bar{y} \\vec{v} \\dot{a} \\ddot{b} \\tilde{n} \\overline{AB} \\widehat{xyz} \\underline{u}",
  binom: "\\binom{n}{k} + \\dbinom{a}{b} + \\tbinom{2}{1}",
  boxed: "\\boxed{x = 1} \\fbox{y}",
  overset: "\\overset{def}{=} \\stackrel{?}{=} \\underset{n}{\\max}",
  delimiters: "\\left( \\frac{a}{b} \\right) \\left. x \\right| \\bigl[ y \\bigr] \\Big\\{ z \\Big\\}",
  middle: "\\left\\{ x \\middle| x > 0 \\right\\}",
  angles: "\\langle x, y \\rangle \\lfloor z \\rfloor \\lceil w \\rceil \\| v \\|",
  spacing: "a\\,b\\:c\\;d\\quad e\\qquad f\\ g~h\\!i",
  negativeSpace: "\\sin\\! x + a \\! b + \\int\\!\\!\\int f",
  fontSwitches: "{\\bf x} + {\\rm d}y + {\\it z} + \\displaystyle\\sum x",
  escapes: "\\{ a \\} \\$ 5 \\% \\# \\_ \\&",
  dots: "1, 2, \\ldots, n + \\cdots + \\vdots \\ddots",
  misc: "\\infty \\partial \\nabla \\hbar \\ell \\Re \\Im \\aleph \\prime",
  lineBreak: "a \\\\ b",
  escapedNewline: "a\\\nb",
  newlines: "a +\n b",
  ampersand: "a & b",
  period: "x = 1.",
  equation: "\\begin{equation} E = mc^2 \\end{equation}",
  equationStar: "\\begin{equation*} a^2 + b^2 = c^2 \\end{equation*}",
  aligned: "\\begin{aligned} a &= b + c \\\\ d &= e \\end{aligned}",
  align: "\\begin{align*} f(x) &= x^2 \\\\[2pt] &= \\frac{x}{1} \\end{align*}",
  alignat: "\\begin{alignat}{2} a &= b & c &= d \\\\ e &= f & g &= h \\end{alignat}",
  gather: "\\begin{gather} x \\\\ y \\\\ \\end{gather}",
  cases: "f(x) = \\begin{cases} 1 & x > 0 \\\\ 0 & \\text{otherwise} \\end{cases}",
  casesThree: "|x| = \\begin{cases} x, & \\text{if } x > 0 \\\\ 0, & x = 0 \\\\ -x & \\text{when } x < 0 \\end{cases}",
  casesFour: "\\begin{cases} a & 1 \\\\ b & 2 \\\\ c & 3 \\\\ d \\end{cases}",
  casesOne: "\\begin{cases} a & x \\end{cases}",
  casesEmpty: "\\begin{cases} \\end{cases}",
  matrix: "\\begin{matrix} a & b \\\\ c & d \\end{matrix}",
  pmatrix: "A = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
  bmatrix: "\\begin{bmatrix} 1 & 0 & 0 \\\\ 0 & 1 & 0 \\\\ 0 & 0 & 1 \\end{bmatrix}.",
  Bmatrix: "\\begin{Bmatrix} x \\\\ yy \\\\ zzz \\end{Bmatrix}",
  vmatrix: "\\det \\begin{vmatrix} a & b \\\\ c & d \\end{vmatrix} = ad - bc",
  Vmatrix: "\\begin{Vmatrix} 1 & 22 \\\\ 333 & 4 \\end{Vmatrix}",
  matrixOneRow: "\\begin{pmatrix} a & b \\end{pmatrix}",
  matrixRagged: "\\begin{bmatrix} 1 \\\\ 2 & 3 & 4 \\\\ \\end{bmatrix}",
  smallmatrix: "\\begin{smallmatrix} a & b \\\\ c & d \\end{smallmatrix}",
  array: "\\begin{array}{cc} 1 & 2 \\\\ 3 & 4 \\end{array}",
  matrixFractions: "\\begin{pmatrix} \\frac{1}{2} & x^2 \\\\ \\sqrt{3} & \\alpha \\end{pmatrix}",
  matrixProduct: "\\begin{pmatrix} a \\\\ b \\end{pmatrix} \\begin{pmatrix} c & d \\end{pmatrix} \\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}",
  nestedMatrix: "\\begin{pmatrix} \\begin{matrix} a \\\\ b \\end{matrix} & c \\\\ d & e \\end{pmatrix}",
  unknownEnvironment: "\\begin{foo} x \\end{foo}",
  unclosedEnvironment: "\\begin{matrix} a & b",
  beginNoGroup: "\\begin matrix",
  beginEmpty: "\\begin{}\\end{}",
  strayEnd: "x \\end{matrix}",
  unknownCommand: "\\foo{x}",
  unbalancedOpen: "\\frac{a}{b",
  unbalancedClose: "a}b",
  trailingBackslash: "x \\",
  missingArgument: "\\frac{a}",
  missingScript: "x^",
  sqrtUnclosedDegree: "\\sqrt[3{x}",
  deepNesting: "\\frac{1}{1+\\frac{1}{1+\\frac{1}{1+x}}}",
  scriptFraction: "x^{\\frac{1}{2}} + y_{a/b}",
  nestedScripts: "e^{x^{2}} + a_{i_{j}} + 2^{2^{n}}",
  euler: "e^{i\\pi} + 1 = 0",
  gaussian: "\\int_{-\\infty}^{\\infty} e^{-x^2} dx = \\sqrt{\\pi}",
  bayes: "P(A \\mid B) = \\frac{P(B \\mid A) P(A)}{P(B)}",
  taylor: "f(x) = \\sum_{n=0}^{\\infty} \\frac{f^{(n)}(a)}{n!} (x-a)^n",
  maxwell: "\\nabla \\cdot \\mathbf{E} = \\frac{\\rho}{\\varepsilon_0}",
  unicode: "日本 + 😀^2 + café_1",
  tabs: "a\t+\tb",
  crlf: "a \\\\\r\n b",
  multiline: "a = 1 \\\\ \\frac{b}{c} = 2 \\\\ d",
};

// Pieces the random soups are made of: valid constructs, fragments of them
// and stray syntax, so that both rendering and refusal get exercised.
const SOUP_TOKENS = [
  "x", "y", "2", "10", " ", " ", "+", "-", "=", "<", ",", ".", "(", ")", "[", "]", "|", "&", "~",
  "{", "}", "{a}", "{n+1}", "^", "_", "^2", "_i", "^{AB}", "_{xy}", "^{*}",
  "\\alpha", "\\pi", "\\cdot", "\\to", "\\le", "\\in", "\\infty", "\\sum", "\\int", "\\prod", "\\lim", "\\max",
  "\\sin", "\\log", "\\frac", "\\frac{1}{2}", "\\frac{a+b}{c}", "\\sqrt", "\\sqrt{x}", "\\sqrt[3]{y}",
  "\\mathbb{R}", "\\text{ if }", "\\hat{x}", "\\vec{ab}", "\\not", "\\left(", "\\right)", "\\,", "\\!", "\\quad",
  "\\\\", "\\limits", "\\nolimits", "\\operatorname{op}", "\\binom{n}{k}", "\\pmod{p}", "\\overset{a}{b}",
  "\\begin{cases}", "\\end{cases}", "\\begin{pmatrix}", "\\end{pmatrix}", "\\begin{aligned}", "\\end{aligned}",
  "\\bf", "\\displaystyle", "\\unknown", "\\", "\n",
];

function randomSoups(count) {
  // A fixed linear congruential stream, so every run builds the same soups.
  let state = 20260101;
  const next = (bound) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % bound;
  };
  const soups = [];
  for (let i = 0; i < count; i++) {
    let soup = "";
    const length = 1 + next(12);
    for (let j = 0; j < length; j++) soup += SOUP_TOKENS[next(SOUP_TOKENS.length)];
    soups.push(soup);
  }
  return soups;
}

// Whole constructs composed so they nest inside each other.
const COMPOSABLE = [
  "x^2", "\\frac{a}{b}", "\\sum_{i=1}^{n} i", "\\sqrt{x}", "a_{ij}",
  "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "\\begin{cases} a & b \\\\ c & d \\end{cases}",
  "\\lim_{x\\to0} f", "\\sin x", "e^{-x^2}", "\\int_0^1 f",
];

export function latexCases(tui, needs) {
  for (const [name, source] of Object.entries(LATEX_INPUTS)) {
    needs(["renderLatex"], `latex/${name}`, () => capture(() => tui.renderLatex(source)));
    needs(["renderLatex"], `latex/display/${name}`, () => capture(() => tui.renderLatex(source, { display: true })));
  }
  randomSoups(400).forEach((source, index) => {
    needs(["renderLatex"], `latex/soup/${index}`, () =>
      capture(() => [source, tui.renderLatex(source) ?? null, tui.renderLatex(source, { display: true }) ?? null]),
    );
  });
  for (const [i, outer] of COMPOSABLE.entries()) {
    for (const [j, inner] of COMPOSABLE.entries()) {
      const source = `\\frac{${outer}}{${inner}} + ${outer}^{${inner}} = ${inner}_{${outer}}`;
      needs(["renderLatex"], `latex/composed/${i}/${j}`, () =>
        capture(() => [tui.renderLatex(source) ?? null, tui.renderLatex(source, { display: true }) ?? null]),
      );
    }
  }
  needs(["renderLatex"], "latex/options/displayFalse", () => capture(() => tui.renderLatex("\\frac{a}{b}", { display: false })));
  needs(["renderLatex"], "latex/options/displayTruthy", () => capture(() => tui.renderLatex("\\frac{a}{b}", { display: 1 })));
  needs(["renderLatex"], "latex/options/empty", () => capture(() => tui.renderLatex("\\frac{a}{b}", {})));
  needs(["renderLatex"], "latex/options/extra", () =>
    capture(() => tui.renderLatex("\\sum_{i}^{n} x", { display: true, width: 3 })),
  );
  needs(["renderLatex"], "latex/nonString", () => capture(() => tui.renderLatex(42)));
}
