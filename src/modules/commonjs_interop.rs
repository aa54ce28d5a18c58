//! CommonJS seen from ES modules. Node gives an ES importer a CommonJS
//! module's `module.exports` as `default` plus the names a static read of
//! its source finds (cjs-module-lexer); pi loads extensions with jiti, which
//! turns every import into a property read of `module.exports`, so any name
//! works. pihost exports the statically found names, as Node does, and
//! `lenient_imports` turns an importer's other names into property reads,
//! as jiti does.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{resolve, virtual_map};
use crate::transpile::{ModuleFormat, TranspiledModule};

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

/// A file's transpiled module (from the transpile cache when it was seen
/// before), for a look at what it exports: its code may be gone
/// (`sources::source_shape`).
pub(super) fn transpile_file(path: &Path) -> Option<std::sync::Arc<TranspiledModule>> {
    match super::sources::source_shape(path).ok()? {
        super::sources::SourceFile::Code(transpiled) => Some(transpiled),
        super::sources::SourceFile::Json(_) => None,
    }
}
