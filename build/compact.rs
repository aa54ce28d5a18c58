//! pihost's own modules and Deno's platform sources made smaller when they
//! are embedded: comments and the indentation of each line go, every line
//! break stays. The engine keeps every module's text several times per
//! runtime and scans it in Rust before each compile, bytecode cache or not
//! (docs/engine-notes.md, notes 44 and 48), and its bytecode carries each
//! function's text; a fifth of this code was comments, another tenth
//! indentation. Line numbers in stack traces stay those of the files; only
//! columns of pihost's and the platform's own frames move.
//!
//! Kept: a file's header (the comments before its first token: the
//! platform's MIT notices), comments naming a copyright or licence or
//! marked `/*!` (the vendored libraries'), `//# sourceURL`-style directives,
//! the engine's scan needles (`/*'x'*/`, build/scan_needles.rs) and the
//! placeholders pihost's templates are filled in at (`/*NAME*/`). Strings
//! and templates that span lines are left as written. A file deno_ast cannot
//! parse, or whose tokens would not come out the same on the same lines, is
//! embedded as it is.

use deno_ast::{MediaType, ModuleSpecifier, ParseParams, SourceRangedForSpanned};
use std::ops::Range;
use std::path::Path;

/// `text` without comments or indentation, or `None` when it cannot be
/// parsed or its tokens would change (then it is embedded as it is).
pub fn compact(path: &Path, text: &str) -> Option<String> {
    let (comments, tokens) = parse(path, text)?;
    let first_token = tokens.first().map_or(text.len(), |token| token.start);
    let removed: Spans = comments
        .into_iter()
        .filter(|range| range.start > first_token && !is_kept(&text[range.clone()]))
        .collect();
    // Tokens whose text spans lines (strings continued with `\`, template
    // chunks): their lines keep their leading white space.
    let multiline: Spans = tokens
        .iter()
        .filter(|range| text[(*range).clone()].contains('\n'))
        .cloned()
        .collect();
    let compacted = rebuild(text, &removed, &multiline);
    // Never embed changed code: the same tokens must stand on the same lines.
    let (_, compacted_tokens) = parse(path, &compacted)?;
    let same = tokens.len() == compacted_tokens.len()
        && token_lines(text, &tokens) == token_lines(&compacted, &compacted_tokens)
        && tokens
            .iter()
            .zip(&compacted_tokens)
            .all(|(before, after)| text[before.clone()] == compacted[after.clone()]);
    same.then_some(compacted)
}

/// Byte ranges in a text, in order.
type Spans = Vec<Range<usize>>;

/// The comments and the tokens of `text`.
fn parse(path: &Path, text: &str) -> Option<(Spans, Spans)> {
    let specifier = ModuleSpecifier::from_file_path(path).ok()?;
    let parsed = deno_ast::parse_program(ParseParams {
        specifier,
        text: text.into(),
        media_type: MediaType::JavaScript,
        capture_tokens: true,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .ok()?;
    let start = parsed.range().start;
    let mut comments: Spans = parsed
        .comments()
        .get_vec()
        .iter()
        .map(|comment| comment.range().as_byte_range(start))
        .collect();
    comments.sort_by_key(|range| range.start);
    let tokens = parsed
        .tokens()
        .iter()
        .map(|token| token.span.range().as_byte_range(start))
        .collect();
    Some((comments, tokens))
}

/// The line each token starts on (the tokens come in order).
fn token_lines(text: &str, tokens: &[Range<usize>]) -> Vec<usize> {
    let mut line = 0;
    let mut counted_to = 0;
    tokens
        .iter()
        .map(|token| {
            line += text.as_bytes()[counted_to..token.start]
                .iter()
                .filter(|byte| **byte == b'\n')
                .count();
            counted_to = token.start;
            line
        })
        .collect()
}

fn is_kept(comment: &str) -> bool {
    let lower = comment.to_ascii_lowercase();
    lower.contains("copyright")
        || lower.contains("license")
        || lower.contains("licence")
        || comment.starts_with("//#")
        || comment.starts_with("//@")
        || comment.starts_with("/*!")
        || comment.starts_with("/*'")
        || comment.starts_with("/*\"")
        || comment
            .strip_prefix("/*")
            .and_then(|rest| rest.strip_suffix("*/"))
            .is_some_and(|inner| !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
}

/// The text with each comment replaced by its line breaks (or one space,
/// so the tokens on both sides stay apart), and the white space at the start
/// of each line dropped unless a multi-line token covers it.
fn rebuild(text: &str, comments: &[Range<usize>], multiline: &[Range<usize>]) -> String {
    let inside_token = |at: usize| multiline.iter().any(|token| token.start < at && at < token.end);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let copy = |out: &mut String, from: usize, to: usize| {
        let mut line_start = from;
        for (index, line) in text[from..to].split('\n').enumerate() {
            if index > 0 {
                out.push('\n');
            }
            let at_line_start = index > 0 || out.is_empty() || out.ends_with('\n');
            if at_line_start && !inside_token(line_start) {
                out.push_str(line.trim_start_matches([' ', '\t']));
            } else {
                out.push_str(line);
            }
            line_start += line.len() + 1;
        }
    };
    for comment in comments {
        if comment.start < at {
            continue;
        }
        copy(&mut out, at, comment.start);
        let breaks = text[comment.clone()].matches('\n').count();
        if breaks == 0 {
            if !out.is_empty() && !out.ends_with(['\n', ' ']) {
                out.push(' ');
            }
        } else {
            out.extend(std::iter::repeat_n('\n', breaks));
        }
        at = comment.end;
    }
    copy(&mut out, at, text.len());
    out
}
