//! Imports as jiti gives them (L9). pi loads every extension module through
//! jiti, which turns each import into a property read of the target's
//! exports: a name the target does not export is `undefined` (never a link
//! error), a default import of a module without a default is the module
//! itself, and a default that carries a function `default` of its own is
//! that function (Babel's `__esModule` interop).
//!
//! pihost keeps real ES module linking, with its live bindings and
//! evaluation order, and rewrites only the declarations that would fail or
//! differ: before an extension-side module (any `file:` ES module) runs,
//! each `import`/`export … from` is checked against what its target
//! statically exports, and
//! - a missing named import becomes a local `var` (undefined);
//! - a default import of a module without `default` becomes a namespace import;
//! - a missing re-exported name is re-exported as undefined, a missing
//!   re-exported `default` as the target's namespace;
//! - a name a CommonJS module does not visibly export is read from its
//!   `module.exports` (the default import);
//! - `export default <expression>` and `import(…)` go through the glue
//!   module's `jitiDefault` and `jitiImport`, for Babel's interop;
//! - exported `const`, `let` and `class` declarations become `var`s, since
//!   jiti's exports are undefined, not uninitialised, until their module
//!   runs: an import cycle reads `undefined` instead of throwing.
//!
//! A declaration whose target cannot be analysed is left as written, so a
//! missing module still fails with the specifier and the importing file.
//! The rewrite keeps every line where it was, so source maps stay right.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::rc::Rc;

use deno_ast::{MediaType, ModuleSpecifier};

use super::embedded_shapes::embedded_shape;
use super::scan_needle::scan_needle;
use super::{INTERNAL_SCHEME, builtin_specifiers, commonjs_interop, resolve_specifier, virtual_map, virtual_views};
use crate::transpile::{
    EsModuleShape, ImportBinding, LexicalExport, LinkKind, ModuleFormat, ReexportBinding, StaticLink, TranspiledModule,
};

/// How deep `export * from` chains are followed for names.
const STAR_EXPORT_DEPTH: usize = 32;

/// The glue module extension code may import (the loader allows it).
const GLUE: &str = "pihost:runtime/module-globals.js";

/// What a module exports, as far as an importer's rewrite needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Exports {
    /// An ES module with exactly these names (`default` included when it has one).
    EsModule(BTreeSet<String>),
    /// A CommonJS or JSON module: `default` is its `module.exports`; these
    /// are the other names it exports as ES names. Any other name is a
    /// property of `module.exports`.
    CommonJs(BTreeSet<String>),
    /// Not known: imports of it stay as written.
    Unknown,
}

/// The code of the ES module at `url` with its imports made lenient and
/// its Node built-in specifiers pointed at pihost's facades
/// (`builtin_specifiers`), or `None` when nothing needs rewriting. Both come
/// from the module's shape, read when it was transpiled, so the code is
/// not parsed again.
pub fn rewrite(url: &ModuleSpecifier, transpiled: &TranspiledModule) -> Option<String> {
    let shape = transpiled.es_module.as_ref()?;
    let mut edits = Edits::default();
    // Each declaration rewritten, with the specifier it now imports.
    let mut rewritten_links: Vec<(Range<usize>, String)> = Vec::new();
    for (index, link) in shape.links.iter().enumerate() {
        if link.has_attributes {
            continue;
        }
        let exports = exports_of_link(&link.specifier, url.as_str());
        let view = virtual_view(link, &exports);
        let to_view = view.is_some();
        let written = view
            .or_else(|| builtin_specifiers::facade_for(&link.specifier))
            .unwrap_or_else(|| link.specifier.clone());
        if let Some(text) = rewrite_link(link, &quoted(&written), &exports, index, to_view) {
            edits.replace(link.range.clone(), text);
            rewritten_links.push((link.range.clone(), written));
        }
    }
    for literal in &shape.literal_specifiers {
        let range = &literal.range;
        let rewritten_link = rewritten_links
            .iter()
            .find(|(link, _)| link.start <= range.start && range.end <= link.end);
        let facade = builtin_specifiers::facade_for(&literal.value);
        if rewritten_link.is_none()
            && let Some(facade) = &facade
        {
            edits.replace(range.clone(), quoted(facade));
        }
        let Some(declaration_end) = literal.declaration_end else {
            continue;
        };
        // What the engine's import scan looks for (engine note 31): the
        // specifier in the quotes the code does not use, after the
        // declaration (after the text that replaced it, where it was
        // rewritten). Not inside it: v8x reads a bare import and import
        // attributes off the text that follows the literal.
        let written = match rewritten_link {
            Some((_, written)) => written.as_str(),
            None => facade.as_deref().unwrap_or(&literal.value),
        };
        let quote = match (rewritten_link, &facade) {
            (None, None) => transpiled.code[range.clone()].chars().next().unwrap_or('"'),
            _ => '"',
        };
        let at = rewritten_link.map_or(declaration_end, |(link, _)| link.end);
        let inside_another = rewritten_links.iter().any(|(link, _)| link.start < at && at < link.end);
        if !inside_another && let Some(needle) = scan_needle(written, quote) {
            edits.replace(at..at, needle);
        }
    }
    // jiti's exports exist (undefined) before their module runs, so an
    // import cycle reads undefined where an ES binding would throw.
    for lexical in &shape.lexical_exports {
        match lexical {
            LexicalExport::Variables { keyword } => {
                let text = transpiled.code.get(keyword.clone()).unwrap_or_default();
                if text == "const" || text == "let" {
                    // Padded, so the columns after it stay.
                    edits.replace(keyword.clone(), format!("{:<width$}", "var", width = text.len()));
                }
            }
            LexicalExport::Class { range, name } => {
                if transpiled
                    .code
                    .get(range.clone())
                    .is_some_and(|text| text.starts_with("class"))
                {
                    edits.replace(range.start..range.start, format!("var {name} = "));
                    edits.replace(range.end..range.end, ";".to_string());
                }
            }
        }
    }
    let mut helpers = Vec::new();
    if !shape.dynamic_imports.is_empty() {
        helpers.push("jitiImport as __pihostJitiImport");
        for range in &shape.dynamic_imports {
            edits.wrap(range.clone(), "__pihostJitiImport(", Rank::Inner);
        }
    }
    if let Some(range) = &shape.default_expression {
        helpers.push("jitiDefault as __pihostJitiDefault");
        edits.wrap(range.clone(), "__pihostJitiDefault(", Rank::Outer);
    }
    if edits.is_empty() {
        return None;
    }
    let mut code = edits.apply(&transpiled.code);
    if !helpers.is_empty() {
        let needle = scan_needle(GLUE, '"').unwrap_or_default();
        let import = format!("import {{ {} }} from \"{GLUE}\";{needle}", helpers.join(", "));
        code = on_first_line(&code, &import);
    }
    Some(code)
}

/// `text` put in front of `code` on its first line, so no line moves. A
/// `#!` line, legal only at the very start, becomes a `//` comment after it.
pub(super) fn on_first_line(code: &str, text: &str) -> String {
    match code.strip_prefix("#!") {
        Some(rest) => format!("{text} //{rest}"),
        None => format!("{text} {code}"),
    }
}

/// Which of two edits at one position goes outside the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Inner,
    Outer,
}

/// Text edits of one module's code, applied from the end so earlier
/// offsets stay valid.
#[derive(Default)]
struct Edits {
    /// (range, replacement, rank); an empty range is an insertion.
    list: Vec<(Range<usize>, String, Rank)>,
}

impl Edits {
    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    fn replace(&mut self, range: Range<usize>, text: String) {
        self.list.push((range, text, Rank::Outer));
    }

    fn wrap(&mut self, range: Range<usize>, opening: &str, rank: Rank) {
        self.list.push((range.start..range.start, opening.to_string(), rank));
        self.list.push((range.end..range.end, ")".to_string(), rank));
    }

    fn apply(mut self, code: &str) -> String {
        // From the end; at one position the inner edit first, so the outer
        // one's text lands in front of it.
        self.list.sort_by(|a, b| b.0.start.cmp(&a.0.start).then(a.2.cmp(&b.2)));
        let applies = |range: &Range<usize>| {
            range.end <= code.len() && code.is_char_boundary(range.start) && code.is_char_boundary(range.end)
        };
        // The same text built in one pass from the start (that order
        // reversed): replacing in place moved the rest of a large module's
        // code at every edit.
        let mut built = String::with_capacity(code.len() + self.list.iter().map(|edit| edit.1.len()).sum::<usize>());
        let mut copied = 0;
        for (range, text, _) in self.list.iter().rev().filter(|edit| applies(&edit.0)) {
            if range.start < copied {
                return Self::apply_in_place(self.list, code);
            }
            built.push_str(&code[copied..range.start]);
            built.push_str(text);
            copied = range.end;
        }
        built.push_str(&code[copied..]);
        built
    }

    /// Edits that overlap, applied one by one from the end.
    fn apply_in_place(list: Vec<(Range<usize>, String, Rank)>, code: &str) -> String {
        let mut code = code.to_string();
        for (range, text, _) in list {
            if range.end <= code.len() && code.is_char_boundary(range.start) && code.is_char_boundary(range.end) {
                code.replace_range(range, &text);
            }
        }
        code
    }
}

fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// A name as it may stand in an import or export list.
fn export_name(name: &str) -> String {
    if virtual_map::is_identifier(name) {
        name.to_string()
    } else {
        quoted(name)
    }
}

fn import_specifier(imported: &str, local: &str) -> String {
    if imported == local {
        local.to_string()
    } else {
        format!("{} as {local}", export_name(imported))
    }
}

/// The replacement of one declaration, or `None` when it links as written.
/// `source` is the quoted specifier the replacement imports; `to_view`: it
/// is a virtual module's view, so an import is written again even when all
/// its names link.
fn rewrite_link(link: &StaticLink, source: &str, exports: &Exports, index: usize, to_view: bool) -> Option<String> {
    match (&link.kind, exports) {
        (_, Exports::Unknown) => None,
        (LinkKind::Import(bindings), Exports::EsModule(names)) => rewrite_esm_import(source, bindings, names, to_view),
        (LinkKind::Import(bindings), Exports::CommonJs(names)) => {
            rewrite_commonjs_import(source, bindings, names, index)
        }
        (LinkKind::Reexport(bindings), _) => rewrite_reexport(source, bindings, exports, index),
    }
}

/// The view of a virtual module (`super::virtual_views`) an import
/// declaration can take its names from instead of the whole module: one that
/// imports only names, some of which the module has.
fn virtual_view(link: &StaticLink, exports: &Exports) -> Option<String> {
    let (LinkKind::Import(bindings), Exports::EsModule(names)) = (&link.kind, exports) else {
        return None;
    };
    let module_id = virtual_map::module_id(&link.specifier)?;
    let mut imported = Vec::with_capacity(bindings.len());
    for binding in bindings {
        match binding {
            ImportBinding::Named { imported: name, .. } if names.contains(name) => imported.push(name.as_str()),
            ImportBinding::Named { .. } => {}
            ImportBinding::Default { .. } | ImportBinding::Namespace { .. } => return None,
        }
    }
    virtual_views::specifier(module_id, imported)
}

/// `force`: the declaration is written again even when every name links
/// as written (its specifier changes).
fn rewrite_esm_import(
    source: &str,
    bindings: &[ImportBinding],
    names: &BTreeSet<String>,
    force: bool,
) -> Option<String> {
    let mut changed = force;
    let mut default = None;
    let mut named = Vec::new();
    let mut namespaces = Vec::new();
    let mut extra = Vec::new();
    for binding in bindings {
        match binding {
            ImportBinding::Default { local } if names.contains("default") => default = Some(local.clone()),
            // jiti: the default of a module without one is the module.
            ImportBinding::Default { local } => {
                changed = true;
                namespaces.push(local.clone());
            }
            ImportBinding::Named { imported, local } if names.contains(imported) => {
                named.push(import_specifier(imported, local));
            }
            ImportBinding::Named { local, .. } => {
                changed = true;
                extra.push(format!("var {local};"));
            }
            ImportBinding::Namespace { local } => namespaces.push(local.clone()),
        }
    }
    changed.then(|| import_statements(source, default.as_deref(), &named, &namespaces, &extra))
}

fn rewrite_commonjs_import(
    source: &str,
    bindings: &[ImportBinding],
    names: &BTreeSet<String>,
    index: usize,
) -> Option<String> {
    let mut default = None;
    let mut named = Vec::new();
    let mut namespaces = Vec::new();
    let mut read = Vec::new();
    for binding in bindings {
        match binding {
            ImportBinding::Default { local } => default = Some(local.clone()),
            ImportBinding::Named { imported, local } if names.contains(imported) => {
                named.push(import_specifier(imported, local));
            }
            // jiti reads any other name off `module.exports`.
            ImportBinding::Named { imported, local } => read.push(format!("{}: {local}", quoted(imported))),
            ImportBinding::Namespace { local } => namespaces.push(local.clone()),
        }
    }
    if read.is_empty() {
        return None;
    }
    let default = default.unwrap_or_else(|| format!("__pihostCommonJs{index}"));
    let extra = [format!("const {{ {} }} = {default};", read.join(", "))];
    Some(import_statements(source, Some(&default), &named, &namespaces, &extra))
}

fn rewrite_reexport(source: &str, bindings: &[ReexportBinding], exports: &Exports, index: usize) -> Option<String> {
    let mut kept = Vec::new();
    let mut extra = Vec::new();
    let mut changed = false;
    for (position, binding) in bindings.iter().enumerate() {
        let local = format!("__pihostReexport{index}_{position}");
        match (binding, exports) {
            (ReexportBinding::Namespace { exported }, _) => {
                extra.push(format!("export * as {} from {source};", export_name(exported)));
            }
            (ReexportBinding::Named { imported, exported }, Exports::EsModule(names)) if !names.contains(imported) => {
                changed = true;
                if imported == "default" {
                    extra.push(format!("import * as {local} from {source};"));
                } else {
                    extra.push(format!("var {local};"));
                }
                extra.push(format!("export {{ {local} as {} }};", export_name(exported)));
            }
            (ReexportBinding::Named { imported, exported }, Exports::CommonJs(names))
                if imported != "default" && !names.contains(imported) =>
            {
                changed = true;
                extra.push(format!("import {local}Module from {source};"));
                extra.push(format!("var {local} = {local}Module[{}];", quoted(imported)));
                extra.push(format!("export {{ {local} as {} }};", export_name(exported)));
            }
            (ReexportBinding::Named { imported, exported }, _) => {
                kept.push(if imported == exported {
                    export_name(imported)
                } else {
                    format!("{} as {}", export_name(imported), export_name(exported))
                });
            }
        }
    }
    if !changed {
        return None;
    }
    let mut statements = Vec::new();
    if !kept.is_empty() {
        statements.push(format!("export {{ {} }} from {source};", kept.join(", ")));
    }
    statements.extend(extra);
    Some(statements.join(" "))
}

/// Import declarations for the bindings kept, then `extra`; a bare import
/// when nothing else imports the module, so it still runs where it did.
fn import_statements(
    source: &str,
    default: Option<&str>,
    named: &[String],
    namespaces: &[String],
    extra: &[String],
) -> String {
    let mut statements = Vec::new();
    match (default, named.is_empty()) {
        (Some(default), true) => statements.push(format!("import {default} from {source};")),
        (Some(default), false) => {
            statements.push(format!("import {default}, {{ {} }} from {source};", named.join(", ")))
        }
        (None, false) => statements.push(format!("import {{ {} }} from {source};", named.join(", "))),
        (None, true) => {}
    }
    for namespace in namespaces {
        statements.push(format!("import * as {namespace} from {source};"));
    }
    if statements.is_empty() {
        statements.push(format!("import {source};"));
    }
    statements.extend(extra.iter().cloned());
    statements.join(" ")
}

thread_local! {
    /// What each module exports, kept under the load window's number
    /// (`load_window::kept_work`): a package's barrel module is imported by
    /// many of its files, and its names (through every `export *`) were
    /// gathered again for each import.
    static KEPT_EXPORTS: RefCell<(u64, HashMap<String, Rc<Exports>>)> = RefCell::new((0, HashMap::new()));
}

/// What the module `specifier` (imported by `referrer`) exports, worked out
/// once per load window and module.
fn exports_of_link(specifier: &str, referrer: &str) -> Rc<Exports> {
    let Ok(url) = resolve_specifier(specifier, referrer) else {
        return Rc::new(Exports::Unknown);
    };
    let Some(kept_work) = super::load_window::kept_work() else {
        return Rc::new(exports_of(&url, &mut BTreeSet::new(), 0));
    };
    let kept = KEPT_EXPORTS.with_borrow_mut(|(kept_for, exports)| {
        if *kept_for != kept_work {
            *kept_for = kept_work;
            exports.clear();
        }
        exports.get(url.as_str()).cloned()
    });
    if let Some(exports) = kept {
        return exports;
    }
    let exports = Rc::new(exports_of(&url, &mut BTreeSet::new(), 0));
    KEPT_EXPORTS.with_borrow_mut(|(kept_for, kept)| {
        if *kept_for == kept_work {
            kept.insert(url.to_string(), exports.clone());
        }
    });
    exports
}

fn exports_of_specifier(specifier: &str, referrer: &str, visited: &mut BTreeSet<String>, depth: usize) -> Exports {
    match resolve_specifier(specifier, referrer) {
        Ok(url) => exports_of(&url, visited, depth),
        Err(_) => Exports::Unknown,
    }
}

fn exports_of(url: &ModuleSpecifier, visited: &mut BTreeSet<String>, depth: usize) -> Exports {
    // A Node built-in exports what Node 22 gives ES importers (pihost's
    // facade of it exports exactly those, js/templates/node-facade.js).
    let builtin = url
        .as_str()
        .strip_prefix("node:")
        .or_else(|| url.as_str().strip_prefix(super::builtin_specifiers::NODE_FACADE_PREFIX));
    if let Some(name) = builtin {
        return match super::node_builtin_exports(name) {
            Some(names) => Exports::EsModule(names),
            None => Exports::Unknown,
        };
    }
    if let Some(path) = url.as_str().strip_prefix(INTERNAL_SCHEME) {
        // `pihost:pi/<id>` is a virtual module's facade, which exports every
        // name pi 1.6.0 has, and nothing else.
        if let Some(id) = path.strip_prefix("pi/").filter(|id| !id.ends_with(".js")) {
            return match virtual_map::exports(id) {
                Some(names) => Exports::EsModule(names.keys().cloned().collect()),
                None => Exports::Unknown,
            };
        }
        return match embedded_shape(path) {
            Some(shape) => esm_exports(url, &shape, visited, depth),
            None => Exports::Unknown,
        };
    }
    let Ok(path) = url.to_file_path() else {
        return Exports::Unknown;
    };
    if MediaType::from_path(&path) == MediaType::Json {
        return Exports::CommonJs(BTreeSet::new());
    }
    let Some(transpiled) = commonjs_interop::transpile_file(&path) else {
        return Exports::Unknown;
    };
    match (transpiled.format, &transpiled.es_module) {
        (ModuleFormat::CommonJs, _) => Exports::CommonJs(commonjs_interop::export_names(&path, &transpiled)),
        (ModuleFormat::EcmaScript, Some(shape)) => esm_exports(url, shape, visited, depth),
        (ModuleFormat::EcmaScript, None) => Exports::Unknown,
    }
}

/// An ES module's own names plus what its `export *` declarations bring
/// (never `default`); unknown when any of those targets is.
fn esm_exports(url: &ModuleSpecifier, shape: &EsModuleShape, visited: &mut BTreeSet<String>, depth: usize) -> Exports {
    let mut names = shape.exports.clone();
    if shape.star_exports.is_empty() {
        return Exports::EsModule(names);
    }
    // A module met again in a chain of `export *` adds nothing new.
    if depth > STAR_EXPORT_DEPTH || !visited.insert(url.to_string()) {
        return Exports::EsModule(names);
    }
    for star in &shape.star_exports {
        match exports_of_specifier(star, url.as_str(), visited, depth + 1) {
            Exports::EsModule(more) | Exports::CommonJs(more) => {
                names.extend(more.into_iter().filter(|name| name != "default"));
            }
            Exports::Unknown => return Exports::Unknown,
        }
    }
    Exports::EsModule(names)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::transpile;

    /// A folder of module files; `rewritten` gives one file's code as the loader runs it.
    struct Folder(tempfile::TempDir);

    impl Folder {
        fn new(files: &[(&str, &str)]) -> Self {
            let dir = tempfile::tempdir().expect("temp dir");
            for (name, text) in files {
                let path = dir.path().join(name);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).expect("folder");
                }
                std::fs::write(path, text).expect("write");
            }
            Folder(dir)
        }

        fn transpiled(&self, name: &str) -> (ModuleSpecifier, Arc<TranspiledModule>) {
            let path = self.0.path().join(name);
            let url = ModuleSpecifier::from_file_path(&path).expect("url");
            let source = std::fs::read_to_string(&path).expect("read");
            let transpiled = transpile::transpile(&url, MediaType::from_path(&path), &source).expect("transpiles");
            (url, transpiled)
        }

        /// The rewrite, without the engine's scan comments (`scan_needle`),
        /// which every static import gets; `None` when nothing else changed.
        fn rewritten(&self, name: &str) -> Option<String> {
            let (url, transpiled) = self.transpiled(name);
            let code = without_scan_needles(&rewrite(&url, &transpiled)?);
            (code != transpiled.code).then_some(code)
        }

        fn rewritten_with_needles(&self, name: &str) -> String {
            let (url, transpiled) = self.transpiled(name);
            rewrite(&url, &transpiled).expect("rewritten")
        }
    }

    fn without_scan_needles(code: &str) -> String {
        let mut out = String::new();
        let mut rest = code;
        while let Some(at) = rest.find("/*") {
            let end = rest[at..].find("*/ ").map(|end| at + end + 3);
            let inner = end.map(|end| &rest[at + 2..end - 3]);
            let is_needle = inner.is_some_and(|inner| {
                inner.len() >= 2
                    && (inner.starts_with('\'') && inner.ends_with('\'')
                        || inner.starts_with('"') && inner.ends_with('"'))
            });
            match (is_needle, end) {
                (true, Some(end)) => {
                    out.push_str(&rest[..at]);
                    rest = &rest[end..];
                }
                _ => {
                    out.push_str(&rest[..at + 2]);
                    rest = &rest[at + 2..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn each_static_specifier_is_repeated_after_its_declaration_in_the_other_quotes_for_the_engines_scan() {
        let folder = Folder::new(&[
            ("lib.js", "export const a = 1;\n"),
            ("data.json", "{}"),
            (
                "ext.js",
                "import './lib.js';\nimport { a } from \"./lib.js\";\nimport data from './data.json' with { type: 'json' };\nexport * from './lib.js';\nimport fs from 'node:fs';\nconst later = () => import('./lib.js');\nconsole.log(a, data, fs, later);\n",
            ),
        ]);
        let code = folder.rewritten_with_needles("ext.js");
        // Bare imports and import attributes keep what follows the literal.
        assert!(code.contains("import './lib.js';/*\"./lib.js\"*/ \n"), "{code}");
        assert!(
            code.contains("import data from './data.json' with { type: 'json' };/*\"./data.json\"*/ "),
            "{code}"
        );
        assert!(code.contains("from \"./lib.js\";/*'./lib.js'*/ "), "{code}");
        assert!(code.contains("export * from './lib.js';/*\"./lib.js\"*/ "), "{code}");
        // A built-in's facade, in the quotes its rewrite uses.
        assert!(
            code.contains("from \"pihost:node-facade/fs\";/*'pihost:node-facade/fs'*/ "),
            "{code}"
        );
        // Dynamic imports are not in the engine's scan.
        assert!(!code.contains("/*\"./lib.js\"*/ )"), "{code}");
        assert_eq!(code.lines().count(), 7, "no line moves:\n{code}");
    }

    const LIB: &str = "export const a = 1;\nexport let counter = 0;\nexport function bump() { counter++; }\nexport interface Shape { x: number }\n";

    #[test]
    fn a_missing_named_import_is_undefined_and_the_others_stay_live_bindings_l9() {
        let folder = Folder::new(&[
            ("lib.ts", LIB),
            (
                "ext.ts",
                "import { a, gone, counter as c } from \"./lib\";\nexport const seen = [a, gone, c];\n",
            ),
        ]);
        let code = folder.rewritten("ext.ts").expect("rewritten");
        assert!(code.contains("import { a, counter as c } from \"./lib\";"), "{code}");
        assert!(code.contains("var gone;"), "{code}");
        assert!(!code.contains("{ a, gone"), "{code}");
    }

    #[test]
    fn what_a_target_exports_is_kept_for_one_load_and_looked_at_again_in_the_next() {
        let folder = Folder::new(&[
            ("lib.ts", "export const a = 1;\n"),
            (
                "ext.ts",
                "import { a, later } from \"./lib\";\nexport const seen = [a, later];\n",
            ),
        ]);
        crate::modules::load_window::begin();
        let first = folder.rewritten("ext.ts").expect("rewritten");
        assert!(first.contains("var later;"), "{first}");
        crate::modules::load_window::end();
        // The extension's author adds the export, and the next load sees it.
        std::fs::write(
            folder.0.path().join("lib.ts"),
            "export const a = 1;\nexport const later = 2;\n",
        )
        .expect("write");
        crate::modules::load_window::begin();
        let next = folder.rewritten("ext.ts");
        crate::modules::load_window::end();
        assert!(
            next.as_deref().is_none_or(|code| !code.contains("var later;")),
            "{next:?}"
        );
    }

    #[test]
    fn an_import_every_name_of_which_exists_is_left_as_written() {
        let folder = Folder::new(&[
            ("lib.ts", LIB),
            ("ext.ts", "import { a, bump } from \"./lib\";\nbump(a);\n"),
        ]);
        assert_eq!(folder.rewritten("ext.ts"), None);
    }

    #[test]
    fn the_default_of_a_module_without_one_is_the_module_l9() {
        let folder = Folder::new(&[
            ("lib.ts", LIB),
            (
                "ext.ts",
                "import lib, { a } from \"./lib\";\nexport const seen = [lib, a];\n",
            ),
        ]);
        let code = folder.rewritten("ext.ts").expect("rewritten");
        assert!(code.contains("import { a } from \"./lib\";"), "{code}");
        assert!(code.contains("import * as lib from \"./lib\";"), "{code}");
    }

    #[test]
    fn type_only_imports_and_exports_are_no_names_at_run_time_l9() {
        let folder = Folder::new(&[
            ("lib.ts", LIB),
            (
                "ext.ts",
                "import type { Missing } from \"./types-only\";\nimport { type Shape, a } from \"./lib\";\nlet s: Shape | Missing;\nconsole.log(a, s);\n",
            ),
            (
                "uses-shape.ts",
                "import { Shape } from \"./lib\";\nexport const seen = Shape;\n",
            ),
        ]);
        // The type imports are stripped before the loader looks: nothing to do.
        assert_eq!(folder.rewritten("ext.ts"), None);
        // An interface is no export at run time, so a value import of it is undefined.
        let code = folder.rewritten("uses-shape.ts").expect("rewritten");
        assert!(code.contains("var Shape;"), "{code}");
    }

    #[test]
    fn names_through_export_star_count_and_missing_reexports_are_undefined_l9() {
        let folder = Folder::new(&[
            ("lib.ts", LIB),
            (
                "middle.ts",
                "export * from \"./lib\";\nexport { gone, a as first, default as whole } from \"./lib\";\n",
            ),
            (
                "ext.ts",
                "import { counter, gone, first, whole, nowhere } from \"./middle\";\nexport const seen = [counter, gone, first, whole, nowhere];\n",
            ),
        ]);
        let middle = folder.rewritten("middle.ts").expect("middle rewritten");
        assert!(middle.contains("export { a as first } from \"./lib\";"), "{middle}");
        assert!(
            middle.contains("var __pihostReexport0_0; export { __pihostReexport0_0 as gone };"),
            "{middle}"
        );
        assert!(
            middle.contains("import * as __pihostReexport0_2 from \"./lib\"; export { __pihostReexport0_2 as whole };"),
            "{middle}"
        );
        let ext = folder.rewritten("ext.ts").expect("ext rewritten");
        assert!(
            ext.contains("import { counter, gone, first, whole } from \"./middle\";"),
            "{ext}"
        );
        assert!(ext.contains("var nowhere;"), "{ext}");
    }

    #[test]
    fn pi_virtual_modules_and_node_builtins_are_lenient_too_l9() {
        let folder = Folder::new(&[(
            "ext.ts",
            "import { Text, getEditorKeybindings } from \"@earendil-works/pi-tui\";\nimport tui from \"@mariozechner/pi-tui\";\nimport { join, gone } from \"node:path\";\nimport path from \"node:path\";\nexport const seen = [Text, getEditorKeybindings, tui, join, gone, path];\n",
        )]);
        let code = folder.rewritten("ext.ts").expect("rewritten");
        // The names it has come from a view holding only them.
        assert!(
            code.contains("import { Text } from \"pihost:pi/pi-tui?only=Text\"; var getEditorKeybindings;"),
            "{code}"
        );
        assert!(
            code.contains("import * as tui from \"@mariozechner/pi-tui\";"),
            "{code}"
        );
        // Node's built-ins go to pihost's facades in the same rewrite.
        assert!(
            code.contains("import { join } from \"pihost:node-facade/path\"; var gone;"),
            "{code}"
        );
        assert!(code.contains("import path from \"pihost:node-facade/path\";"), "{code}");
    }

    #[test]
    fn named_imports_of_pi_packages_take_a_view_and_namespaces_keep_the_module() {
        let folder = Folder::new(&[(
            "ext.ts",
            "import { SessionManager as Sessions, getAgentDir } from '@earendil-works/pi-coding-agent';\nimport * as agent from '@earendil-works/pi-coding-agent';\nimport { Type } from 'typebox';\nexport const seen = [Sessions, getAgentDir, agent, Type];\n",
        )]);
        let code = without_scan_needles(&folder.rewritten("ext.ts").expect("rewritten"));
        assert!(
            code.contains("import { SessionManager as Sessions, getAgentDir } from \"pihost:pi/pi-coding-agent?only=SessionManager,getAgentDir\";"),
            "{code}"
        );
        assert!(
            code.contains("import * as agent from '@earendil-works/pi-coding-agent';"),
            "{code}"
        );
        assert!(
            code.contains("import { Type } from \"pihost:pi/typebox?only=Type\";"),
            "{code}"
        );
    }

    #[test]
    fn commonjs_names_it_does_not_visibly_export_are_read_from_module_exports() {
        let folder = Folder::new(&[
            (
                "lib.cjs",
                "exports.visible = 1;\nObject.assign(module.exports, { hidden: 2 });\n",
            ),
            (
                "ext.ts",
                "import { visible, hidden } from \"./lib.cjs\";\nexport const seen = [visible, hidden];\n",
            ),
        ]);
        let code = folder.rewritten("ext.ts").expect("rewritten");
        assert!(
            code.contains("import __pihostCommonJs0, { visible } from \"./lib.cjs\"; const { \"hidden\": hidden } = __pihostCommonJs0;"),
            "{code}"
        );
    }

    #[test]
    fn a_module_that_cannot_be_found_is_left_for_the_loader_to_report() {
        let folder = Folder::new(&[("ext.ts", "import { a } from \"./nowhere\";\nconsole.log(a);\n")]);
        assert_eq!(folder.rewritten("ext.ts"), None);
    }

    #[test]
    fn a_side_effect_import_still_runs_when_no_name_is_left() {
        let folder = Folder::new(&[
            ("lib.ts", LIB),
            ("ext.ts", "import { gone } from \"./lib\";\nexport const seen = gone;\n"),
        ]);
        let code = folder.rewritten("ext.ts").expect("rewritten");
        assert!(code.contains("import \"./lib\"; var gone;"), "{code}");
    }

    #[test]
    fn dynamic_imports_and_default_expressions_go_through_the_glue_and_no_line_moves() {
        let source = "import { gone } from \"./lib\";\nexport async function load() {\n  return import(\"./lib\");\n}\nexport default { load, gone };\n";
        let folder = Folder::new(&[("lib.ts", LIB), ("ext.ts", source)]);
        let (_, transpiled) = folder.transpiled("ext.ts");
        let code = folder.rewritten("ext.ts").expect("rewritten");
        assert!(code.starts_with("import { jitiImport as __pihostJitiImport, jitiDefault as __pihostJitiDefault } from \"pihost:runtime/module-globals.js\";"), "{code}");
        assert!(code.contains("__pihostJitiImport(import(\"./lib\"))"), "{code}");
        assert!(code.contains("export default __pihostJitiDefault({"), "{code}");
        assert_eq!(code.lines().count(), transpiled.code.lines().count(), "{code}");
    }

    #[test]
    fn exported_bindings_have_no_dead_zone_so_import_cycles_read_undefined_l9() {
        let lib = "export const a = 1;\nexport let b = 2;\nexport class C {}\nconst d = 4;\nclass E {}\nexport { d, E as F };\nconst keep = 5;\nexport function f() { return keep; }\n";
        let folder = Folder::new(&[("lib.js", lib)]);
        let code = folder.rewritten("lib.js").expect("rewritten");
        assert!(code.contains("export var   a = 1;"), "{code}");
        assert!(code.contains("export var b = 2;"), "{code}");
        assert!(code.contains("export var C = class C {};"), "{code}");
        assert!(code.contains("var   d = 4;"), "{code}");
        assert!(code.contains("var E = class E {};"), "{code}");
        assert!(code.contains("const keep = 5;"), "{code}");
        assert_eq!(code.lines().count(), lib.lines().count(), "{code}");
    }

    #[test]
    fn a_default_import_from_a_module_with_a_default_export_keeps_its_binding() {
        let folder = Folder::new(&[
            ("lib.ts", "export default function named() {}\nexport const b = 2;\n"),
            (
                "ext.ts",
                "import named, { b } from \"./lib\";\nconsole.log(named, b);\n",
            ),
        ]);
        assert_eq!(folder.rewritten("ext.ts"), None);
    }
}
