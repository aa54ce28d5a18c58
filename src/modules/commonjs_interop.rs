//! CommonJS seen from ES modules. Node gives an ES importer a CommonJS
//! module's `module.exports` as `default` plus the names a static read of
//! its source finds (cjs-module-lexer); pi loads extensions with jiti, which
//! turns every import into a property read of `module.exports`, so any name
//! works. pihost exports the statically found names, as Node does, and
//! rewrites the rest of an importer's `import { x } from "cjs"` into a
//! property read, as jiti does.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use deno_ast::swc::ast::{ImportSpecifier, ModuleDecl, ModuleExportName, ModuleItem};
use deno_ast::{MediaType, ModuleSpecifier, ParseParams, ProgramRef, SourceRangedForSpanned};

use super::{resolve, virtual_map};
use crate::transpile::{self, ModuleFormat, TranspiledModule};

/// How deep `module.exports = require(…)` chains are followed for names.
const REEXPORT_DEPTH: usize = 16;

/// The names an ES importer sees on a CommonJS module besides `default`: what
/// the source visibly exports, plus the exports of what it re-exports, as
/// Node's cjs-module-lexer finds them.
pub fn export_names(path: &Path, transpiled: &TranspiledModule) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut visited = BTreeSet::new();
    collect_commonjs_names(path, transpiled, &mut names, &mut visited, 0);
    names.remove("default");
    names
}

fn collect_commonjs_names(
    path: &Path,
    transpiled: &TranspiledModule,
    names: &mut BTreeSet<String>,
    visited: &mut BTreeSet<PathBuf>,
    depth: usize,
) {
    if depth > REEXPORT_DEPTH || !visited.insert(path.to_path_buf()) {
        return;
    }
    names.extend(transpiled.commonjs_exports.iter().cloned());
    let directory = path.parent().unwrap_or(Path::new("/"));
    for specifier in &transpiled.commonjs_reexports {
        let Some(target) = resolve::resolve(specifier, directory, resolve::REQUIRE_CONDITIONS) else {
            continue;
        };
        if let Some(reexported) = transpile_file(&target)
            && reexported.format == ModuleFormat::CommonJs
        {
            collect_commonjs_names(&target, &reexported, names, visited, depth + 1);
        }
    }
}

/// `export { … }` of the named exports, read from `module.exports` once the
/// module has run (non-identifier names are exported as strings).
pub fn named_exports(names: &BTreeSet<String>) -> String {
    if names.is_empty() {
        return String::new();
    }
    let mut locals = Vec::with_capacity(names.len());
    let mut exported = Vec::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        let quoted = serde_json::Value::String(name.clone()).to_string();
        locals.push(format!("__pihostNamed{index} = __pihostModule.exports[{quoted}]"));
        let as_name = if virtual_map::is_identifier(name) {
            name.clone()
        } else {
            quoted
        };
        exported.push(format!("__pihostNamed{index} as {as_name}"));
    }
    format!(" const {}; export {{ {} }};", locals.join(", "), exported.join(", "))
}

/// The transpiled code of an ES module with each `import { … } from "x"`
/// whose target is CommonJS and lacks a statically visible name turned into
/// `import d from "x"; const { … } = d;`, on the same line so source maps
/// stay right; `None` when nothing needs it.
pub fn destructure_commonjs_named_imports(path: &Path, transpiled: &TranspiledModule) -> Option<String> {
    let directory = path.parent().unwrap_or(Path::new("/"));
    let needing: BTreeSet<&str> = transpiled
        .named_imports
        .iter()
        .filter(|import| lacks_names(&import.specifier, &import.names, directory))
        .map(|import| import.specifier.as_str())
        .collect();
    if needing.is_empty() {
        return None;
    }
    let specifier = ModuleSpecifier::from_file_path(path).ok()?;
    let parsed = deno_ast::parse_module(ParseParams {
        specifier,
        text: transpiled.code.clone().into(),
        media_type: MediaType::JavaScript,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .ok()?;
    let start = parsed.range().start;
    let ProgramRef::Module(module) = parsed.program_ref() else {
        return None;
    };
    let mut replacements: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for (index, item) in module.body.iter().enumerate() {
        let ModuleItem::ModuleDecl(ModuleDecl::Import(import)) = item else {
            continue;
        };
        let source = import.src.value.to_string_lossy().into_owned();
        if !needing.contains(source.as_str()) {
            continue;
        }
        let mut default_local = None;
        let mut properties = Vec::new();
        for specifier in &import.specifiers {
            match specifier {
                ImportSpecifier::Default(default) => default_local = Some(default.local.sym.to_string()),
                ImportSpecifier::Named(named) => {
                    let imported = match &named.imported {
                        Some(ModuleExportName::Ident(ident)) => ident.sym.to_string(),
                        Some(ModuleExportName::Str(text)) => text.value.to_string_lossy().into_owned(),
                        None => named.local.sym.to_string(),
                    };
                    let key = serde_json::Value::String(imported).to_string();
                    properties.push(format!("{key}: {}", named.local.sym));
                }
                ImportSpecifier::Namespace(_) => {}
            }
        }
        let local = default_local.unwrap_or_else(|| format!("__pihostCommonJs{index}"));
        let quoted = serde_json::Value::String(source).to_string();
        let text = format!(
            "import {local} from {quoted}; const {{ {} }} = {local};",
            properties.join(", ")
        );
        replacements.push((import.range().as_byte_range(start), text));
    }
    let mut code = transpiled.code.clone();
    for (range, text) in replacements.into_iter().rev() {
        code.replace_range(range, &text);
    }
    Some(code)
}

/// Whether `specifier` is a CommonJS file whose visible names miss one of `names`.
fn lacks_names(specifier: &str, names: &[String], directory: &Path) -> bool {
    if virtual_map::module_id(specifier).is_some()
        || specifier.starts_with("node:")
        || specifier.starts_with(super::INTERNAL_SCHEME)
        || super::is_node_builtin(specifier)
    {
        return false;
    }
    let Some(target) = resolve::resolve(specifier, directory, resolve::IMPORT_CONDITIONS) else {
        return false;
    };
    let Some(transpiled) = transpile_file(&target) else {
        return false;
    };
    if transpiled.format != ModuleFormat::CommonJs {
        return false;
    }
    let visible = export_names(&target, &transpiled);
    names.iter().any(|name| name != "default" && !visible.contains(name))
}

fn transpile_file(path: &Path) -> Option<std::sync::Arc<TranspiledModule>> {
    let bytes = std::fs::read(path).ok()?;
    let url = ModuleSpecifier::from_file_path(path).ok()?;
    let media_type = MediaType::from_path(path);
    if media_type == MediaType::Json {
        return None;
    }
    transpile::transpile(&url, media_type, &super::decode_source(&bytes)).ok()
}
