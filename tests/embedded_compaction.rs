//! The compaction pihost's own modules and Deno's platform sources get when
//! they are embedded (build/compact.rs) changes no code: every module of
//! `js/` keeps the same tokens on the same lines, and only comments and
//! indentation go.

#[path = "../build/compact.rs"]
mod compact;

use std::path::{Path, PathBuf};

use deno_ast::{MediaType, ModuleSpecifier, ParseParams, SourceRangedForSpanned};

/// Each token's text and line (0-based).
fn tokens_with_lines(path: &Path, text: &str) -> Vec<(String, usize)> {
    let parsed = deno_ast::parse_program(ParseParams {
        specifier: ModuleSpecifier::from_file_path(path).expect("absolute path"),
        text: text.into(),
        media_type: MediaType::JavaScript,
        capture_tokens: true,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .unwrap_or_else(|error| panic!("{} does not parse: {error}", path.display()));
    let start = parsed.range().start;
    parsed
        .tokens()
        .iter()
        .map(|token| {
            let range = token.span.range().as_byte_range(start);
            let line = text[..range.start].matches('\n').count();
            (text[range].to_string(), line)
        })
        .collect()
}

fn js_modules(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("js/ reads") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            if !path.ends_with("templates") {
                js_modules(&path, out);
            }
        } else if path.extension().is_some_and(|extension| extension == "js") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_of_pihost_keeps_its_tokens_on_their_lines() {
    let mut modules = Vec::new();
    js_modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("js"), &mut modules);
    assert!(modules.len() > 100, "js/ has pihost's modules");
    let (mut before, mut after) = (0, 0);
    for path in &modules {
        let text = std::fs::read_to_string(path).expect("reads");
        let compacted = compact::compact(path, &text).unwrap_or_else(|| panic!("{} compacts", path.display()));
        assert_eq!(
            tokens_with_lines(path, &text),
            tokens_with_lines(path, &compacted),
            "{} changed",
            path.display()
        );
        assert_eq!(text.lines().count(), compacted.lines().count(), "{}", path.display());
        before += text.len();
        after += compacted.len();
    }
    assert!(
        after * 10 < before * 9,
        "comments and indentation went: {before} → {after} bytes"
    );
}

fn compacted(text: &str) -> String {
    compact::compact(Path::new("/virtual/module.js"), text).expect("parses")
}

#[test]
fn comments_and_indentation_go_and_lines_stay() {
    let text = "// header\n\nfunction f(a) {\n    // why\n    return a /* inline */ + 1; /* two\n    lines */ }\n";
    assert_eq!(compacted(text), "// header\n\nfunction f(a) {\n\nreturn a  + 1; \n}\n");
    assert_eq!(compacted("x = 1;\nlet y = a/**/b;"), "x = 1;\nlet y = a b;");
}

#[test]
fn strings_and_templates_that_span_lines_keep_their_text() {
    let text = "x = 1;\nconst t = `line\n    indented ${a}\n    more`;\nconst s = \"one\\\n    two\";\n  // gone\n";
    assert_eq!(
        compacted(text),
        "x = 1;\nconst t = `line\n    indented ${a}\n    more`;\nconst s = \"one\\\n    two\";\n\n"
    );
}

#[test]
fn licences_directives_scan_needles_and_placeholders_are_kept() {
    let text = "x = 1;\n/*! keep me */\n// Copyright someone\nimport a from \"./a.js\"/*'./a.js'*/;\nconst { /*NAMES*/ } = a;\n//# sourceURL=x.js\n// not this\n";
    assert_eq!(
        compacted(text),
        "x = 1;\n/*! keep me */\n// Copyright someone\nimport a from \"./a.js\"/*'./a.js'*/;\nconst { /*NAMES*/ } = a;\n//# sourceURL=x.js\n\n"
    );
}

#[test]
fn a_regular_expression_with_slashes_is_not_a_comment() {
    let text = "x = 1;\nconst r = /\\/\\/ not a comment/; const s = \"// nor this\";\n";
    assert_eq!(compacted(text), text);
}
