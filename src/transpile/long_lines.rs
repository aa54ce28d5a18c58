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
//! parse otherwise, which a file that parsed already never is. Tokens come
//! from the parser, so a `;` in a string, template, regular expression or
//! comment is never one of them. What does change is the text
//! `Function.prototype.toString` gives for a function that spans a break.

use deno_ast::swc::parser::token::Token;
use deno_ast::swc::sourcemap::SourceMapBuilder;
use deno_ast::{ParsedSource, SourceRangedForSpanned};

/// Files with a line longer than this are broken up. Below it the engine's
/// walks cost little (a 16 KB line takes about 10 ms).
pub(super) const LONGEST_LINE: usize = 16 * 1024;

/// A break goes after the first `;` or `,` once a line is this long.
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

/// `source` (parsed with its tokens) with line breaks after `;` and `,`
/// tokens wherever a line grows past [`TARGET_LINE`], and the source map
/// from the new text to `source`, naming `specifier`. `None` when nothing
/// needed a break.
pub(super) fn break_long_lines(parsed: &ParsedSource, source: &str, specifier: &str) -> Option<(String, Vec<u8>)> {
    let start = parsed.range().start;
    let mut breaks = Vec::new();
    let mut line_start = 0usize;
    // Only the text since the previous token can hold a new line break:
    // searching from the line's start instead made this quadratic in the
    // length of a line.
    let mut searched_to = 0usize;
    let mut tokens = Vec::with_capacity(parsed.tokens().len());
    for token in parsed.tokens() {
        let range = token.range().as_byte_range(start);
        let from = searched_to.max(line_start);
        if let Some(newline) = source
            .get(from..range.start)
            .and_then(|between| between.rfind(['\n', '\r']))
        {
            line_start = from + newline + 1;
        }
        searched_to = searched_to.max(range.start);
        tokens.push(range.start);
        if matches!(token.token, Token::Semi | Token::Comma) && range.end - line_start >= TARGET_LINE {
            breaks.push(range.end);
            line_start = range.end;
        }
    }
    if breaks.is_empty() {
        return None;
    }

    let mut code = String::with_capacity(source.len() + breaks.len());
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
            code.push('\n');
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
        code.push(character);
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
    if next_break.peek().is_some() {
        code.push('\n');
    }
    let mut map = Vec::new();
    builder.into_sourcemap().to_writer(&mut map).ok()?;
    Some((code, map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use deno_ast::{MediaType, ModuleSpecifier, ParseParams};

    fn parsed(source: &str) -> ParsedSource {
        deno_ast::parse_program(ParseParams {
            specifier: ModuleSpecifier::parse("file:///min.js").expect("url"),
            text: source.into(),
            media_type: MediaType::JavaScript,
            capture_tokens: true,
            scope_analysis: false,
            maybe_syntax: None,
        })
        .expect("parses")
    }

    #[test]
    fn breaks_only_after_semicolon_and_comma_tokens_and_keeps_every_other_byte() {
        let statement = "var a=\"x;y,z\",b=`t;${1,2}`,c=/;,/g;if(a){return}";
        let source: String = std::iter::repeat_n(statement, 200).collect();
        let parsed = parsed(&format!("function f(){{{source}}}"));
        let (code, _) = break_long_lines(&parsed, parsed.text(), "file:///min.js").expect("broken");
        assert!(longest_line(&code) < 2 * TARGET_LINE, "{}", longest_line(&code));
        assert_eq!(code.replace('\n', ""), parsed.text().to_string());
        for line in code.lines().take(code.lines().count() - 1) {
            assert!(line.ends_with(';') || line.ends_with(','), "{line}");
        }
        // The strings, template and regular expression are whole.
        assert!(!code.contains("\"x;\n") && !code.contains("`t;\n") && !code.contains("/;\n"));
    }

    #[test]
    fn the_source_map_points_each_token_at_its_original_column() {
        let source: String = (0..400).map(|index| format!("var v{index}=\"é\";")).collect();
        let parsed = parsed(&source);
        let (code, map) = break_long_lines(&parsed, parsed.text(), "file:///min.js").expect("broken");
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
        let parsed = parsed("var a = 1;\nvar b = 2;\n");
        assert!(break_long_lines(&parsed, parsed.text(), "file:///min.js").is_none());
    }
}
