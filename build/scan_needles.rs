//! Puts the engine's scan needles into pihost's own modules when they are
//! embedded: after each static import's and re-export's specifier, a comment
//! holding the same specifier in the other quotes (`from "./x.js"/*'./x.js'*/`).
//! v8x searches each module's text, once per static import, for the
//! specifier in both quote styles (docs/engine-notes.md, note 31); without
//! the comment the search for the quotes a module does not use runs to the
//! end of the text, for every import: O(imports × size) per module, in every
//! runtime. The loader does the same for extensions' modules
//! (src/modules/lenient_imports.rs). Specifiers are found with deno_ast, so
//! text inside strings and templates is never touched; only import lines
//! change, and their line numbers stay.

use deno_ast::swc::ast::{ModuleDecl, ModuleItem, Str};
use deno_ast::{MediaType, ModuleSpecifier, ParseParams, ProgramRef, SourceRangedForSpanned};
use std::path::Path;

#[path = "../src/modules/scan_needle.rs"]
mod scan_needle;

/// `text` with the needles in, or None when it has no static specifier to
/// mark (or is not an ES module deno_ast can parse: then it is embedded as
/// it is, and the engine reports any error as before).
pub fn with_scan_needles(path: &Path, text: &str) -> Option<String> {
    if !text.contains("import") && !text.contains("export") {
        return None;
    }
    let specifier = ModuleSpecifier::from_file_path(path).ok()?;
    let parsed = deno_ast::parse_module(ParseParams {
        specifier,
        text: text.into(),
        media_type: MediaType::JavaScript,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .ok()?;
    let ProgramRef::Module(module) = parsed.program_ref() else {
        return None;
    };
    let start = parsed.range().start;
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut note = |literal: &Str| {
        let range = literal.range().as_byte_range(start);
        let quote = text[range.clone()].chars().next().unwrap_or('"');
        if let Some(needle) = scan_needle::scan_needle(&literal.value.to_string_lossy(), quote) {
            inserts.push((range.end, needle));
        }
    };
    for item in &module.body {
        let ModuleItem::ModuleDecl(declaration) = item else {
            continue;
        };
        match declaration {
            // A bare `import "x"` stays as it is: v8x does not take one with a
            // comment after its specifier for an import.
            ModuleDecl::Import(import) if !import.specifiers.is_empty() => note(&import.src),
            ModuleDecl::ExportAll(export) => note(&export.src),
            ModuleDecl::ExportNamed(export) => {
                if let Some(src) = &export.src {
                    note(src);
                }
            }
            _ => {}
        }
    }
    if inserts.is_empty() {
        return None;
    }
    let mut out = text.to_string();
    inserts.sort_by_key(|(at, _)| *at);
    for (at, needle) in inserts.into_iter().rev() {
        out.insert_str(at, &needle);
    }
    Some(out)
}
