//! Imports of Node's built-ins (`node:fs`, `fs`) in the modules pihost loads
//! are rewritten to pihost's facade for that built-in
//! (`pihost:node-facade/fs`, js/templates/node-facade.js), so that an
//! extension's module graph never links deno_node's modules directly.
//!
//! Why the specifier and not only its resolution: the QuickJS backend
//! remembers how a specifier string was resolved and reuses that answer for
//! the same string imported elsewhere, so resolving an extension's
//! `"node:stream"` to the facade would make deno_node's own
//! `import … from "node:stream"` reach the facade too
//! (docs/engine-notes.md). A string only extensions' modules contain keeps
//! the two apart.

use deno_ast::swc::ast::{Callee, Expr, Lit, ModuleDecl};
use deno_ast::swc::ecma_visit::{Visit, VisitWith};
use deno_ast::{MediaType, ModuleSpecifier, ParseParams, ProgramRef, SourceRangedForSpanned};

/// Where pihost serves its facade of each `node:` built-in.
pub const NODE_FACADE_PREFIX: &str = "pihost:node-facade/";

/// pihost's own `node:module`, whose `createRequire` is pihost's `require`.
pub const PIHOST_NODE_MODULE: &str = "pihost:platform/node-module.js";

/// The facade specifier for a built-in import, if `specifier` names one that
/// pihost provides.
pub fn facade_for(specifier: &str) -> Option<String> {
    let name = specifier
        .strip_prefix("node:")
        .or_else(|| super::is_node_builtin(specifier).then_some(specifier))?;
    if name == "module" {
        return Some(PIHOST_NODE_MODULE.to_string());
    }
    (super::is_node_builtin(name) && crate::platform::provides_node_module(name))
        .then(|| format!("{NODE_FACADE_PREFIX}{name}"))
}

/// Every string in `code` that could be a built-in specifier, found without
/// parsing, so modules that import none are left alone cheaply.
fn may_import_builtin(code: &str) -> bool {
    // Every quote opens a candidate, whatever precedes it (an apostrophe in
    // a comment must not hide the specifiers after it).
    code.match_indices(['"', '\'']).any(|(at, quote)| {
        let rest = &code[at + 1..];
        rest.find(quote)
            .filter(|&end| end <= MAX_BUILTIN_NAME)
            .is_some_and(|end| facade_for(&rest[..end]).is_some())
    })
}

/// Longer than any built-in specifier (`node:` plus the longest name).
const MAX_BUILTIN_NAME: usize = 40;

struct SpecifierRanges {
    start: deno_ast::StartSourcePos,
    found: Vec<(std::ops::Range<usize>, String)>,
}

impl SpecifierRanges {
    fn note(&mut self, literal: &deno_ast::swc::ast::Str) {
        let value = literal.value.to_string_lossy();
        if let Some(facade) = facade_for(&value) {
            self.found.push((literal.range().as_byte_range(self.start), facade));
        }
    }
}

impl Visit for SpecifierRanges {
    fn visit_module_decl(&mut self, declaration: &ModuleDecl) {
        match declaration {
            ModuleDecl::Import(import) if !import.type_only => self.note(&import.src),
            ModuleDecl::ExportAll(export) if !export.type_only => self.note(&export.src),
            ModuleDecl::ExportNamed(export) if !export.type_only => {
                if let Some(src) = &export.src {
                    self.note(src);
                }
            }
            _ => {}
        }
        declaration.visit_children_with(self);
    }

    fn visit_call_expr(&mut self, call: &deno_ast::swc::ast::CallExpr) {
        if matches!(call.callee, Callee::Import(_))
            && let Some(first) = call.args.first()
            && first.spread.is_none()
            && let Expr::Lit(Lit::Str(literal)) = &*first.expr
        {
            self.note(literal);
        }
        call.visit_children_with(self);
    }
}

/// `code` (JavaScript, an ES module) with each literal built-in specifier of
/// its imports, re-exports and dynamic imports replaced by the facade's;
/// `None` when it has none.
pub fn rewrite(specifier: &ModuleSpecifier, code: &str) -> Option<String> {
    if !may_import_builtin(code) {
        return None;
    }
    let parsed = deno_ast::parse_module(ParseParams {
        specifier: specifier.clone(),
        text: code.to_string().into(),
        media_type: MediaType::JavaScript,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .ok()?;
    let ProgramRef::Module(module) = parsed.program_ref() else {
        return None;
    };
    let mut ranges = SpecifierRanges {
        start: parsed.range().start,
        found: Vec::new(),
    };
    for item in &module.body {
        item.visit_with(&mut ranges);
    }
    if ranges.found.is_empty() {
        return None;
    }
    let mut rewritten = code.to_string();
    ranges.found.sort_by_key(|(range, _)| range.start);
    for (range, facade) in ranges.found.into_iter().rev() {
        let literal = serde_json::Value::String(facade.clone()).to_string();
        // A scan needle after the old specifier (build/scan_needles.rs) follows it.
        match scan_needle_after(code, &range) {
            Some(needle_end) => rewritten.replace_range(range.start..needle_end, &format!("{literal}/*'{facade}'*/")),
            None => rewritten.replace_range(range, &literal),
        }
    }
    Some(rewritten)
}

/// Where the scan needle right after the specifier literal at `range` ends
/// (its trailing space stays where it is).
fn scan_needle_after(code: &str, range: &std::ops::Range<usize>) -> Option<usize> {
    let written = code.get(range.clone())?;
    let quote = written.chars().next()?;
    let value = written.get(1..written.len().checked_sub(1)?)?;
    let needle = super::scan_needle::scan_needle(value, quote)?;
    let needle = needle.trim_end();
    code.get(range.end..)?
        .starts_with(needle)
        .then(|| range.end + needle.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url() -> ModuleSpecifier {
        ModuleSpecifier::parse("file:///ext.js").expect("url")
    }

    #[test]
    fn a_scan_needle_after_a_built_in_specifier_names_the_facade_too() {
        let code = "import fs from \"node:fs\"/*'node:fs'*/;\nimport local from \"./fs.js\"/*'./fs.js'*/;\n";
        let rewritten = rewrite(&url(), code).expect("rewritten");
        assert_eq!(
            rewritten,
            "import fs from \"pihost:node-facade/fs\"/*'pihost:node-facade/fs'*/;\nimport local from \"./fs.js\"/*'./fs.js'*/;\n"
        );
    }

    #[test]
    fn built_in_imports_of_every_kind_go_to_the_facade() {
        let code = r#"import fs from "node:fs";
import { join } from 'path';
export * from "node:os";
export { promisify } from "util";
const later = () => import("node:http");
const text = "node:fs is just a string here";
import local from "./fs";
"#;
        let rewritten = rewrite(&url(), code).expect("rewritten");
        assert!(
            rewritten.contains(r#"import fs from "pihost:node-facade/fs";"#),
            "{rewritten}"
        );
        assert!(
            rewritten.contains(r#"import { join } from "pihost:node-facade/path";"#),
            "{rewritten}"
        );
        assert!(
            rewritten.contains(r#"export * from "pihost:node-facade/os";"#),
            "{rewritten}"
        );
        assert!(
            rewritten.contains(r#"export { promisify } from "pihost:node-facade/util";"#),
            "{rewritten}"
        );
        assert!(
            rewritten.contains(r#"import("pihost:node-facade/http")"#),
            "{rewritten}"
        );
        assert!(rewritten.contains(r#""node:fs is just a string here""#), "{rewritten}");
        assert!(rewritten.contains(r#"import local from "./fs";"#), "{rewritten}");
    }

    #[test]
    fn an_apostrophe_in_a_comment_does_not_hide_the_imports_after_it() {
        let code = "// the file's header\nimport { join } from \"node:path\";\n";
        let rewritten = rewrite(&url(), code).expect("rewritten");
        assert!(rewritten.contains("\"pihost:node-facade/path\""), "{rewritten}");
    }

    #[test]
    fn modules_without_built_ins_are_left_alone() {
        assert_eq!(
            rewrite(&url(), r#"import x from "./x.js"; export const y = "z";"#),
            None
        );
        assert_eq!(rewrite(&url(), r#"import x from "lodash";"#), None);
    }

    #[test]
    fn built_ins_pihost_does_not_provide_are_left_for_the_loader_to_refuse() {
        assert_eq!(facade_for("node:sqlite"), None);
        assert_eq!(facade_for("node:not-a-module"), None);
        assert_eq!(facade_for("left-pad"), None);
    }
}
