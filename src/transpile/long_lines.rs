//! Minified files broken into lines the engine can compile in linear time.
//!
//! The QuickJS backend's parser works out the column of every identifier
//! and property name by walking back to the start of its line, so compiling
//! a line of n bytes costs O(n²): elkjs's bundle (1.5 MB on one line, which
//! pi-mermaid loads) took 20 s to compile where Node takes 0.1 s
//! (docs/engine-notes.md, note 30). Such a file is given to the engine with
//! a line break after some of its `;` and `,` tokens, and a source map back
//! to the original columns, so stack traces still name the file's own
//! positions.
//!
//! A line break after a `;` or `,` token never changes what JavaScript
//! means: the grammar forbids one only after `return`, `throw`, `break`,
//! `continue`, `yield`, `async`, before postfix `++`/`--` and before `=>`,
//! and automatic semicolon insertion only acts where the code would not
//! parse otherwise, which a file that parsed already never is. The places
//! come from the parsed tree, not from a token stream: a break goes where a
//! statement or an item of a list (arguments, elements, properties,
//! declarators, parameters, expressions of a sequence) starts right after a
//! `;` or `,`, which is then that separator token, never a character of a
//! string, template, regular expression or comment. Parsing without
//! keeping every token is what makes this cheap: elkjs's bundle parsed with
//! its 883,000 tokens kept took three times as long as without. What does
//! change is the text `Function.prototype.toString` gives for a function
//! that spans a break.

use deno_ast::swc::ast::Expr;
use deno_ast::swc::ast::{ExprOrSpread, ModuleItem, Param, Pat, PropOrSpread, Stmt, VarDeclarator};
use deno_ast::swc::common::Span;
use deno_ast::swc::ecma_visit::{Visit, VisitWith};
use deno_ast::swc::sourcemap::SourceMapBuilder;
use deno_ast::{ParsedSource, ProgramRef, SourceRangedForSpanned, StartSourcePos};

/// Files with a line longer than this are broken up. Below it the engine's
/// walks cost little (a 16 KB line takes about 10 ms).
pub(super) const LONGEST_LINE: usize = 16 * 1024;

/// A break goes at the first place a line may break once it is this long.
const TARGET_LINE: usize = 1024;

/// The length of the longest line of `source`, in bytes.
pub(super) fn longest_line(source: &str) -> usize {
    source
        .as_bytes()
        .split(|&byte| byte == b'\n' || byte == b'\r')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// The byte offsets of `source` (which `parsed` parsed) where a line break
/// goes: at the first place a line may break once it grew past
/// [`TARGET_LINE`]. Empty when no line needs one.
pub(super) fn line_breaks(parsed: &ParsedSource, source: &str) -> Vec<usize> {
    let mut starts = ItemStarts {
        start: parsed.range().start,
        found: Vec::new(),
    };
    match parsed.program_ref() {
        ProgramRef::Module(module) => module.visit_with(&mut starts),
        ProgramRef::Script(script) => script.visit_with(&mut starts),
    }
    let mut places = starts.found;
    places.sort_unstable();
    places.dedup();
    let bytes = source.as_bytes();
    let mut breaks = Vec::new();
    let mut line_start = 0usize;
    // Only the text since the previous place can hold a new line break:
    // searching from the line's start instead would be quadratic in the
    // length of a line.
    let mut searched_to = 0usize;
    for at in places {
        if at == 0 || !matches!(bytes.get(at - 1), Some(b';' | b',')) {
            continue;
        }
        let from = searched_to.max(line_start);
        if let Some(newline) = source.get(from..at).and_then(|between| between.rfind(['\n', '\r'])) {
            line_start = from + newline + 1;
        }
        searched_to = searched_to.max(at);
        if at - line_start >= TARGET_LINE {
            breaks.push(at);
            line_start = at;
        }
    }
    breaks
}

/// `source` with a line break inserted before each offset of `breaks`.
pub(super) fn broken_code(source: &str, breaks: &[usize]) -> String {
    let mut code = String::with_capacity(source.len() + breaks.len());
    let mut copied = 0;
    for &at in breaks {
        code.push_str(&source[copied..at]);
        code.push('\n');
        copied = at;
    }
    code.push_str(&source[copied..]);
    code
}

/// Where each statement and each item of a list after the first starts.
struct ItemStarts {
    start: StartSourcePos,
    found: Vec<usize>,
}

impl ItemStarts {
    fn record<'a, T: 'a>(&mut self, items: impl IntoIterator<Item = &'a T>, lo: impl Fn(&T) -> Span) {
        let start = self.start;
        self.found.extend(
            items
                .into_iter()
                .skip(1)
                .map(|item| lo(item).range().as_byte_range(start).start),
        );
    }
}

fn spread_or_expression(item: &ExprOrSpread) -> Span {
    item.spread
        .unwrap_or_else(|| deno_ast::swc::common::Spanned::span(&*item.expr))
}

/// Visits of lists whose items carry their own span: each records where
/// its items start, then walks into them.
macro_rules! visit_spanned_lists {
    ($($visit:ident: $item:ty),* $(,)?) => {
        $(
            fn $visit(&mut self, items: &[$item]) {
                self.record(items, deno_ast::swc::common::Spanned::span);
                items.visit_children_with(self);
            }
        )*
    };
}

impl Visit for ItemStarts {
    visit_spanned_lists! {
        visit_stmts: Stmt,
        visit_module_items: ModuleItem,
        visit_exprs: Box<Expr>,
        visit_prop_or_spreads: PropOrSpread,
        visit_var_declarators: VarDeclarator,
        visit_params: Param,
        visit_pats: Pat,
    }

    fn visit_expr_or_spreads(&mut self, items: &[ExprOrSpread]) {
        self.record(items, spread_or_expression);
        items.visit_children_with(self);
    }

    fn visit_opt_vec_expr_or_spreads(&mut self, items: &[Option<ExprOrSpread>]) {
        self.record(items.iter().flatten(), spread_or_expression);
        items.visit_children_with(self);
    }
}

/// The source map from `source` broken at `breaks` back to `source`,
/// naming `specifier`: a mapping at each of the parse's tokens, so stack
/// traces name the file's own columns. `parsed` must hold its tokens.
pub(super) fn broken_lines_source_map(
    parsed: &ParsedSource,
    source: &str,
    breaks: &[usize],
    specifier: &str,
) -> Option<Vec<u8>> {
    let start = parsed.range().start;
    let tokens: Vec<usize> = parsed
        .tokens()
        .iter()
        .map(|token| token.range().as_byte_range(start).start)
        .collect();
    let mut builder = SourceMapBuilder::new(None);
    let source_id = builder.add_source(specifier.to_string().into());
    // Positions as source maps count them: lines, and UTF-16 columns.
    let (mut original_line, mut original_column) = (0u32, 0u32);
    let (mut line, mut column) = (0u32, 0u32);
    let mut next_break = breaks.iter().peekable();
    let mut next_token = tokens.iter().peekable();
    let mut previous = None;
    for (offset, character) in source.char_indices() {
        if next_break.peek().is_some_and(|&&at| at == offset) {
            next_break.next();
            line += 1;
            column = 0;
        }
        while next_token.peek().is_some_and(|&&at| at <= offset) {
            if next_token.next().is_some_and(|&at| at == offset) {
                builder.add_raw(
                    line,
                    column,
                    original_line,
                    original_column,
                    Some(source_id),
                    None,
                    false,
                );
            }
        }
        match character {
            // The '\n' of "\r\n" ends the line the '\r' already ended.
            '\n' if previous == Some('\r') => {}
            '\n' | '\r' => {
                original_line += 1;
                original_column = 0;
                line += 1;
                column = 0;
            }
            _ => {
                let width = character.len_utf16() as u32;
                original_column += width;
                column += width;
            }
        }
        previous = Some(character);
    }
    let mut map = Vec::new();
    builder.into_sourcemap().to_writer(&mut map).ok()?;
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use deno_ast::{MediaType, ModuleSpecifier, ParseParams};

    fn parsed(source: &str, capture_tokens: bool) -> ParsedSource {
        deno_ast::parse_program(ParseParams {
            specifier: ModuleSpecifier::parse("file:///min.js").expect("url"),
            text: source.into(),
            media_type: MediaType::JavaScript,
            capture_tokens,
            scope_analysis: false,
            maybe_syntax: None,
        })
        .expect("parses")
    }

    fn broken(source: &str) -> String {
        let parsed = parsed(source, false);
        broken_code(source, &line_breaks(&parsed, source))
    }

    #[test]
    fn breaks_only_after_semicolon_and_comma_tokens_and_keeps_every_other_byte() {
        let statement = "var a=\"x;y,z\",b=`t;${1,2}`,c=/;,/g;if(a){return}f(a,b);";
        let body: String = std::iter::repeat_n(statement, 200).collect();
        let source = format!("function f(){{{body}}}");
        let code = broken(&source);
        assert!(longest_line(&code) < 2 * TARGET_LINE, "{}", longest_line(&code));
        assert_eq!(code.replace('\n', ""), source);
        for line in code.lines().take(code.lines().count() - 1) {
            assert!(line.ends_with(';') || line.ends_with(','), "{line}");
        }
        // The strings, template and regular expression are whole.
        assert!(!code.contains("\"x;\n") && !code.contains("`t;\n") && !code.contains("/;\n"));
    }

    #[test]
    fn a_break_never_lands_where_a_line_break_changes_the_meaning() {
        // `async` and `get` before a method name, `return`'s argument, a
        // postfix `++`, an arrow's `=>`: a break between them would change
        // what the code means or stop it from parsing.
        let items: String = (0..300)
            .map(|index| format!("async m{index}(){{return a,b}},get g{index}(){{return x++,y}},h{index}:(p,q)=>p,"))
            .collect();
        let source = format!("var o={{{items}z:1}};");
        let code = broken(&source);
        assert!(longest_line(&code) < 2 * TARGET_LINE, "{}", longest_line(&code));
        for line in code.lines() {
            for restricted in ["async", "get", "return", "=>", "++"] {
                assert!(
                    !line.ends_with(restricted) && !line.starts_with("=>") && !line.starts_with("++"),
                    "{line}"
                );
            }
        }
        assert_eq!(code.replace('\n', ""), source);
        // It parses, and to the same program.
        let again = parsed(&code, false);
        let original = parsed(&source, false);
        use deno_ast::swc::common::EqIgnoreSpan;
        let same = match (again.program_ref(), original.program_ref()) {
            (ProgramRef::Script(again), ProgramRef::Script(original)) => again.eq_ignore_span(original),
            _ => false,
        };
        assert!(same, "the broken code parses to another program");
    }

    #[test]
    fn the_source_map_points_each_token_at_its_original_column() {
        let source: String = (0..400).map(|index| format!("var v{index}=\"é\";")).collect();
        let parsed = parsed(&source, true);
        let breaks = line_breaks(&parsed, &source);
        let code = broken_code(&source, &breaks);
        let map = broken_lines_source_map(&parsed, &source, &breaks, "file:///min.js").expect("a map");
        let map = deno_ast::swc::sourcemap::SourceMap::from_slice(&map).expect("map");
        let (line_index, line) = code.lines().enumerate().nth(3).expect("a fourth line");
        let column = line.find("var v").expect("a declaration");
        let token = map
            .lookup_token(line_index as u32, line[..column].encode_utf16().count() as u32)
            .expect("mapped");
        let name_at = line[column..].find('=').expect("=");
        let name = &line[column + 4..column + name_at];
        let original = source.find(&format!("var {name}=")).expect("in the source");
        assert_eq!(token.get_src_line(), 0);
        assert_eq!(token.get_src_col() as usize, source[..original].encode_utf16().count());
    }

    #[test]
    fn short_lines_are_left_alone() {
        let source = "var a = 1;\nvar b = 2;\n";
        assert!(line_breaks(&parsed(source, false), source).is_empty());
    }
}
