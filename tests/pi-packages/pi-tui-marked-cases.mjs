// Cases for the `Marked` class pi-tui re-exports from the marked library:
// lexing, parsing, inline parsing, options and use() with extensions,
// renderers, hooks and walkTokens, all through pi-tui's export. Run by
// runCases in pi-tui-cases.mjs, so the recorder and both differentials see
// them.

function capture(fn) {
  try {
    const value = fn();
    return value === undefined ? { undefined: true } : { value };
  } catch (err) {
    return { error: String(err?.message ?? err) };
  }
}

// Tokens carry no functions or cycles, but JSON keeps only what both sides
// can compare; a round trip also drops undefined fields as the goldens do.
const plain = (value) => JSON.parse(JSON.stringify(value));

const DOCUMENTS = {
  empty: "",
  heading: "# Title\n\nSome *emphasis* and **strong** text.\n\nSetext\n======\n",
  lists: "- one\n- two\n  - nested\n\n1. first\n2. second\n\n- [ ] todo\n- [x] done\n",
  looseList: "- a\n\n- b\n\n  para in b\n",
  code: "```js\nconst x = 1;\n```\n\n    indented code\n\nInline `code` here.\n",
  quote: "> quoted\n> > nested\n\nafter\n",
  table: "| a | b |\n|:--|--:|\n| 1 | 2 |\n| *x* | `y` |\n",
  links: "[link](https://example.com \"title\") <https://auto.link> ![img](a.png) www.example.com\n\n[ref]: https://ref.example\n\n[ref] and [text][ref]\n",
  html: "<div class=\"x\">\n*not md*\n</div>\n\ninline <b>html</b> &amp; &copy; entities\n",
  breaks: "line one\nline two  \nline three\\\nline four\n",
  strike: "~~gone~~ and ~single~ and a_b_c\n",
  hr: "a\n\n---\n\n***\n\nb\n",
  escapes: "\\*not em\\* \\# not heading <script>alert(1)</script> & < >\n",
  unicode: "日本語 **太字** 😀 café\n",
  deep: "1. a\n   > quote in list\n   ```\n   code in list\n   ```\n2. b\n",
  mixedIndent: "-\tTab item\n\n  text\n",
};

const INLINES = {
  emphasis: "*a* **b** ***c*** _d_ __e__",
  code: "`a` ``b ` c``",
  link: "[x](y) <z@example.com> https://bare.example",
  html: "a <span>b</span> c",
  breaks: "a\nb",
  escapes: "\\*x\\* &amp; < >",
};

function lexerCases(tui, needs) {
  for (const [name, src] of Object.entries(DOCUMENTS)) {
    needs(["Marked"], `marked/lexer/${name}`, () => capture(() => plain(new tui.Marked().lexer(src))));
    needs(["Marked"], `marked/parse/${name}`, () => capture(() => new tui.Marked().parse(src)));
    needs(["Marked"], `marked/parse/noGfm/${name}`, () => capture(() => new tui.Marked({ gfm: false }).parse(src)));
    needs(["Marked"], `marked/parse/breaks/${name}`, () => capture(() => new tui.Marked({ breaks: true }).parse(src)));
    needs(["Marked"], `marked/parse/pedantic/${name}`, () =>
      capture(() => new tui.Marked({ pedantic: true, gfm: false }).parse(src)),
    );
  }
  for (const [name, src] of Object.entries(INLINES)) {
    needs(["Marked"], `marked/parseInline/${name}`, () => capture(() => new tui.Marked().parseInline(src)));
    needs(["Marked"], `marked/parseInline/breaks/${name}`, () =>
      capture(() => new tui.Marked({ breaks: true }).parseInline(src)),
    );
  }
  needs(["Marked"], "marked/parse/nonString", () => capture(() => new tui.Marked().parse(42)));
  needs(["Marked"], "marked/parse/nullSilent", () => capture(() => new tui.Marked({ silent: true }).parse(null)));
  needs(["Marked"], "marked/parse/undefined", () => capture(() => new tui.Marked().parse(undefined)));
  needs(["Marked"], "marked/defaults", () => capture(() => plain(new tui.Marked().defaults)));
  needs(["Marked"], "marked/setOptions", () =>
    capture(() => {
      const marked = new tui.Marked();
      marked.setOptions({ breaks: true });
      return [marked.parse("a\nb"), marked.defaults.breaks];
    }),
  );
  needs(["Marked"], "marked/classes", () =>
    capture(() => {
      const marked = new tui.Marked();
      return ["Parser", "Renderer", "TextRenderer", "Lexer", "Tokenizer", "Hooks"].map((name) => [
        name,
        typeof marked[name],
      ]);
    }),
  );
  needs(["Marked"], "marked/subclass", () =>
    capture(() => {
      class Shouting extends tui.Marked {
        parse(src, options) {
          return super.parse(src.toUpperCase(), options);
        }
      }
      return new Shouting().parse("hello *world*");
    }),
  );
}

function useCases(tui, needs) {
  needs(["Marked"], "marked/use/renderer", () =>
    capture(() => {
      const marked = new tui.Marked();
      marked.use({
        renderer: {
          heading({ tokens, depth }) {
            return `<h${depth} class="custom">${this.parser.parseInline(tokens)}</h${depth}>\n`;
          },
          codespan() {
            return false;
          },
        },
      });
      return marked.parse("## Hi *there*\n\nuse `code`\n");
    }),
  );
  needs(["Marked"], "marked/use/constructorExtensions", () =>
    capture(() =>
      new tui.Marked(
        { renderer: { strong: ({ text }) => `[${text}]` } },
        { renderer: { em: ({ text }) => `{${text}}` } },
      ).parse("**a** *b*"),
    ),
  );
  needs(["Marked"], "marked/use/tokenizer", () =>
    capture(() => {
      const marked = new tui.Marked();
      marked.use({
        tokenizer: {
          codespan(src) {
            const match = src.match(/^\$+([^$\n]+?)\$+/);
            if (match) return { type: "codespan", raw: match[0], text: `math:${match[1].trim()}` };
            return false;
          },
        },
      });
      return marked.parse("inline $x^2$ and `code`");
    }),
  );
  needs(["Marked"], "marked/use/extension", () =>
    capture(() => {
      const marked = new tui.Marked();
      marked.use({
        extensions: [
          {
            name: "mention",
            level: "inline",
            start: (src) => src.indexOf("@"),
            tokenizer(src) {
              const match = /^@(\w+)/.exec(src);
              if (match) return { type: "mention", raw: match[0], user: match[1] };
              return undefined;
            },
            renderer: (token) => `<a class="mention">${token.user}</a>`,
          },
          {
            name: "note",
            level: "block",
            start: (src) => src.match(/^!!!/m)?.index,
            tokenizer(src) {
              const match = /^!!! (.*)(?:\n|$)/.exec(src);
              if (match) {
                const token = { type: "note", raw: match[0], text: match[1], tokens: [] };
                this.lexer.inline(token.text, token.tokens);
                return token;
              }
              return undefined;
            },
            renderer(token) {
              return `<aside>${this.parser.parseInline(token.tokens)}</aside>\n`;
            },
            childTokens: ["tokens"],
          },
        ],
      });
      const src = "hi @alice and @bob\n\n!!! note with *em* and @carol\n\nend";
      return { tokens: plain(marked.lexer(src)), html: marked.parse(src) };
    }),
  );
  needs(["Marked"], "marked/use/hooks", () =>
    capture(() => {
      const marked = new tui.Marked();
      const seen = [];
      marked.use({
        hooks: {
          preprocess(markdown) {
            seen.push(`pre:${markdown.length}`);
            return markdown.replace(/TODAY/g, "Monday");
          },
          postprocess(html) {
            seen.push("post");
            return `<article>${html}</article>`;
          },
          processAllTokens(tokens) {
            seen.push(`tokens:${tokens.length}`);
            return tokens;
          },
        },
      });
      const html = marked.parse("It is TODAY.\n\n# Head\n");
      return { html, seen };
    }),
  );
  needs(["Marked"], "marked/use/walkTokens", () =>
    capture(() => {
      const marked = new tui.Marked();
      const types = [];
      marked.use({
        walkTokens(token) {
          types.push(token.type);
          if (token.type === "heading") token.depth = Math.min(6, token.depth + 1);
        },
      });
      const html = marked.parse("# A\n\n- *b*\n- c\n\n| x |\n|---|\n| y |\n");
      return { html, types };
    }),
  );
  needs(["Marked"], "marked/use/chainedRenderers", () =>
    capture(() => {
      const marked = new tui.Marked();
      marked.use({ renderer: { paragraph: () => false } });
      marked.use({ renderer: { paragraph: ({ tokens }) => `<p class="first">${tokens.length}</p>\n` } });
      return marked.parse("one *two*\n");
    }),
  );
  needs(["Marked"], "marked/use/unknownRenderer", () =>
    capture(() => new tui.Marked().use({ renderer: { notAThing: () => "" } })),
  );
  needs(["Marked"], "marked/use/unknownHook", () => capture(() => new tui.Marked().use({ hooks: { nope() {} } })));
  needs(["Marked"], "marked/use/extensionWithoutName", () =>
    capture(() => new tui.Marked().use({ extensions: [{ renderer: () => "" }] })),
  );
  needs(["Marked"], "marked/use/badLevel", () =>
    capture(() => new tui.Marked().use({ extensions: [{ name: "x", level: "side", tokenizer: () => undefined }] })),
  );
  needs(["Marked"], "marked/use/asyncWalk", () =>
    capture(() => {
      const marked = new tui.Marked({ async: true });
      const result = marked.parse("# x");
      return typeof result?.then;
    }),
  );
  needs(["Marked"], "marked/lexer/staticInline", () =>
    capture(() => plain(new tui.Marked().Lexer.lexInline("**a** [b](c)"))),
  );
  needs(["Marked"], "marked/parser/fromTokens", () =>
    capture(() => {
      const marked = new tui.Marked();
      const tokens = marked.lexer("# t\n\ntext");
      return marked.parser(tokens);
    }),
  );
}

export function markedCases(tui, needs) {
  lexerCases(tui, needs);
  useCases(tui, needs);
}
