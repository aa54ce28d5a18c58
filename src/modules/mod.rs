//! The module loader: every `import` an extension (or pihost's own JS) makes
//! is resolved here, in this order — pi's virtual modules (L2), Node
//! built-ins (`node:x` and bare `x`), pihost's own `pihost:` modules, paths
//! and `file:` URLs, then packages from `node_modules` (L7).
//!
//! Files are transpiled on load ([`crate::transpile`]); ES modules get jiti's
//! module globals (L8) and its lenient imports (L9), and scripts are wrapped
//! as CommonJS, whose `module.exports` becomes the default export (L3).

mod builtin_specifiers;
mod commonjs_interop;
mod embedded_shapes;
mod lenient_imports;
pub(crate) mod load_timing;
pub(crate) mod load_window;
pub(crate) mod prefetch;
pub mod resolve;
pub(crate) mod scan_needle;
pub(crate) mod sources;
pub mod virtual_map;
mod virtual_views;

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use deno_core::error::ModuleLoaderError;
use deno_core::{
    ModuleLoadOptions, ModuleLoadReferrer, ModuleLoadResponse, ModuleLoader, ModuleSource, ModuleSourceCode,
    ModuleSpecifier, ModuleType, RequestedModuleType, ResolutionKind,
};
use deno_error::JsErrorBox;

use crate::embedded;

use crate::transpile::{MODULE_GLOBAL_NAMES, ModuleFormat};

/// Scheme of the modules pihost ships (`js/`).
pub const INTERNAL_SCHEME: &str = "pihost:";

/// The one internal module extension files import, through the prologue and
/// CommonJS wrapper pihost puts around them (`js/templates/`).
const GLUE_MODULE: &str = "runtime/module-globals.js";

/// Node's built-in modules as the reference's Node 22 gives them
/// (recorded by tests/reference/record-node-builtins.mjs).
#[derive(serde::Deserialize, Default)]
struct NodeBuiltins {
    builtins: BTreeSet<String>,
    /// The names `import { x } from "node:<name>"` takes, per module.
    #[serde(default)]
    exports: HashMap<String, Vec<String>>,
}

static NODE_BUILTINS: LazyLock<NodeBuiltins> = LazyLock::new(|| {
    serde_json::from_str::<NodeBuiltins>(include_str!("../../reference-data/node-builtins.json")).unwrap_or_default()
});

/// Whether `name` (without `node:`) is one of Node's built-in modules.
pub fn is_node_builtin(name: &str) -> bool {
    NODE_BUILTINS.builtins.contains(name)
}

/// The names `import { x } from "node:<name>"` takes, as Node 22 has them,
/// and `default` (its `module.exports`), which every built-in has.
fn node_builtin_exports(name: &str) -> Option<BTreeSet<String>> {
    NODE_BUILTINS.exports.get(name).map(|names| {
        let mut names: BTreeSet<String> = names.iter().cloned().collect();
        names.insert("default".to_string());
        names
    })
}

/// The ES module pihost serves for `node:<name>`: Node's named exports over
/// deno_node's module (js/templates/node-facade.js). Extension graphs never
/// link deno_node's own modules directly: on the QuickJS backend, linking a
/// new graph through platform modules that are already instantiated makes
/// the engine resolve their `ext:` imports again, which deno_core refuses
/// outside its own loading (docs/engine-notes.md).
fn node_facade_source(name: &str) -> String {
    let names = NODE_BUILTINS.exports.get(name).map(Vec::as_slice).unwrap_or_default();
    let mut exports = String::new();
    let mut list = Vec::with_capacity(names.len());
    for (index, export) in names.iter().enumerate() {
        exports.push_str(&format!("const e{index} = pick({export:?});\n"));
        list.push(format!("e{index} as {export}"));
    }
    if !list.is_empty() {
        exports.push_str(&format!("export {{ {} }};\n", list.join(", ")));
    }
    embedded::template("node-facade.js")
        .replace("/*NAME*/", name)
        .replace("/*EXPORTS*/", &exports)
}

/// Resolves one import. `referrer` is the importing module's URL.
pub fn resolve_specifier(specifier: &str, referrer: &str) -> Result<ModuleSpecifier, ModuleLoaderError> {
    // Deno's platform modules (`node:…`, `ext:…`) import each other by
    // their own names; those stay as they are.
    if is_platform_module(referrer) {
        return deno_core::resolve_import(specifier, referrer)
            .map_err(|error| JsErrorBox::generic(format!("pihost: {referrer} imports {specifier}: {error}")));
    }
    if let Some(id) = virtual_map::module_id(specifier) {
        return internal_url(&format!("pi/{id}"));
    }
    if let Some(name) = specifier
        .strip_prefix("node:")
        .or_else(|| is_node_builtin(specifier).then_some(specifier))
    {
        return node_module_url(name);
    }
    if let Some(internal) = specifier.strip_prefix(INTERNAL_SCHEME) {
        // Extension code (file: modules) must not reach pihost's internals,
        // except the module the injected module-globals glue imports.
        if referrer.starts_with("file:")
            && internal != GLUE_MODULE
            && !specifier.starts_with(builtin_specifiers::NODE_FACADE_PREFIX)
            && specifier != builtin_specifiers::PIHOST_NODE_MODULE
            && !virtual_views::is_view(specifier)
        {
            return Err(JsErrorBox::generic(cannot_find_module(specifier, referrer)));
        }
        return internal_url(internal);
    }
    if let Some(internal_referrer) = referrer.strip_prefix(INTERNAL_SCHEME)
        && (specifier.starts_with("./") || specifier.starts_with("../"))
    {
        let base = Path::new(internal_referrer).parent().unwrap_or(Path::new(""));
        let joined = crate::discovery::normalize_lexically(&Path::new("/").join(base).join(specifier));
        return internal_url(joined.to_string_lossy().trim_start_matches('/'));
    }

    load_window::remembered(specifier, referrer, || resolve_file_specifier(specifier, referrer))
}

/// What a specifier that names a file or a package resolves to.
fn resolve_file_specifier(specifier: &str, referrer: &str) -> Result<ModuleSpecifier, ModuleLoaderError> {
    let not_found = || JsErrorBox::generic(cannot_find_module(specifier, referrer));
    let importer_dir = referrer_dir(referrer);
    let path_specifier = if specifier.starts_with("file://") {
        ModuleSpecifier::parse(specifier)
            .ok()
            .and_then(|url| url.to_file_path().ok())
    } else {
        None
    };
    let found = match path_specifier {
        Some(path) => resolve::resolve_path(&path, &importer_dir, resolve::IMPORT_CONDITIONS),
        None => resolve::resolve(specifier, &importer_dir, resolve::IMPORT_CONDITIONS),
    };
    let found = found.ok_or_else(not_found)?;
    let mut url = ModuleSpecifier::from_file_path(&found).map_err(|_| not_found())?;
    // A reloaded graph carries its generation in the query, so every file it
    // reaches is evaluated anew instead of coming from the engine's module map.
    let generation = reload_generation(specifier).or_else(|| reload_generation(referrer));
    if let Some(generation) = generation {
        url.set_query(Some(&format!("{RELOAD_QUERY}={generation}")));
    }
    Ok(url)
}

/// Whether `url` is one of the modules of Deno's platform crates.
fn is_platform_module(url: &str) -> bool {
    url.starts_with("node:") || url.starts_with("ext:")
}

/// What `node:<name>` resolves to where the import was not rewritten to a
/// facade (a computed `import()`): deno_node's module itself, under its own
/// name; pihost's own `node:module`.
fn node_module_url(name: &str) -> Result<ModuleSpecifier, ModuleLoaderError> {
    if name == "module" {
        return ModuleSpecifier::parse(builtin_specifiers::PIHOST_NODE_MODULE)
            .map_err(|error| JsErrorBox::generic(format!("pihost: node:module: {error}")));
    }
    if is_node_builtin(name) && crate::platform::provides_node_module(name) {
        return ModuleSpecifier::parse(&format!("node:{name}"))
            .map_err(|error| JsErrorBox::generic(format!("pihost: node:{name}: {error}")));
    }
    Err(JsErrorBox::generic(format!("pihost: node:{name} is not available")))
}

/// The query key the loader adds to a re-imported extension's URL.
const RELOAD_QUERY: &str = "pihost-reload";

fn reload_generation(url: &str) -> Option<String> {
    let url = ModuleSpecifier::parse(url).ok()?;
    if url.scheme() != "file" {
        return None;
    }
    url.query_pairs()
        .find(|(key, _)| key == RELOAD_QUERY)
        .map(|(_, value)| value.into_owned())
}

/// Node's wording, which jiti passes on: the specifier, then the importing
/// file. An entry point pihost itself imports shows as its plain path.
fn cannot_find_module(specifier: &str, referrer: &str) -> String {
    if referrer.starts_with(INTERNAL_SCHEME) {
        return format!("Cannot find module '{}'", display_referrer(specifier));
    }
    format!(
        "Cannot find module '{specifier}'\nRequire stack:\n- {}",
        display_referrer(referrer)
    )
}

fn internal_url(path: &str) -> Result<ModuleSpecifier, ModuleLoaderError> {
    ModuleSpecifier::parse(&format!("{INTERNAL_SCHEME}{path}"))
        .map_err(|error| JsErrorBox::generic(format!("pihost: bad internal module {path}: {error}")))
}

fn referrer_dir(referrer: &str) -> PathBuf {
    ModuleSpecifier::parse(referrer)
        .ok()
        .and_then(|url| url.to_file_path().ok())
        .and_then(|path| path.parent().map(Path::to_path_buf))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// A referrer as a user reads it: a file path, not a `file://` URL.
pub fn display_referrer(referrer: &str) -> String {
    ModuleSpecifier::parse(referrer)
        .ok()
        .and_then(|url| url.to_file_path().ok())
        .map(|path| path.display().to_string())
        .unwrap_or_else(|| referrer.to_string())
}

/// The loader deno_core calls for every module; it keeps the source maps of
/// what it transpiled so stack traces point into the original files.
#[derive(Default)]
pub struct PihostModuleLoader {
    /// Shared with the transpiled module the source cache keeps, not copied.
    source_maps: RefCell<HashMap<String, crate::transpile::SourceMapping>>,
    /// What a sandbox lets the runtime read, and the extensions' own
    /// folders, whose files load without a grant.
    permissions: crate::permissions::PermissionSlot,
    extension_folders: crate::permissions::ExtensionFolders,
}

/// An embedded module's code with its built-in imports pointed at the
/// facades, rewritten once per process: parsing pihost's own modules again
/// in every runtime was a tenth of its start-up.
fn embedded_with_facades(specifier: &ModuleSpecifier, text: &'static str) -> &'static str {
    static REWRITTEN: std::sync::OnceLock<std::sync::Mutex<HashMap<String, &'static str>>> = std::sync::OnceLock::new();
    let cache = REWRITTEN.get_or_init(Default::default);
    if let Some(code) = cache
        .lock()
        .ok()
        .and_then(|cache| cache.get(specifier.as_str()).copied())
    {
        return code;
    }
    // Each embedded module is rewritten at most once per process (a few
    // dozen), so keeping the result for the process's life is bounded.
    let code: &'static str = match builtin_specifiers::rewrite(specifier, text) {
        Some(rewritten) => Box::leak(rewritten.into_boxed_str()),
        None => text,
    };
    if let Ok(mut cache) = cache.lock() {
        cache.insert(specifier.to_string(), code);
    }
    code
}

impl PihostModuleLoader {
    /// A loader whose file loads a sandbox checks (see
    /// [`crate::permissions::check_module_read`]).
    pub(crate) fn sandboxed(
        permissions: crate::permissions::PermissionSlot,
        extension_folders: crate::permissions::ExtensionFolders,
    ) -> Self {
        Self {
            permissions,
            extension_folders,
            ..Self::default()
        }
    }

    fn load_internal(&self, specifier: &ModuleSpecifier) -> Result<ModuleSource, ModuleLoaderError> {
        let path = specifier.as_str().strip_prefix(INTERNAL_SCHEME).unwrap_or_default();
        // `pihost:pi/<id>` is a virtual module's facade; `pihost:pi/<id>.js` its implementation.
        let facade_id = path.strip_prefix("pi/").filter(|id| !id.ends_with(".js"));
        let facade_name = specifier.as_str().strip_prefix(builtin_specifiers::NODE_FACADE_PREFIX);
        let code: Cow<'static, str> = if let Some(name) = facade_name {
            Cow::Owned(node_facade_source(name))
        } else if let Some(view) = virtual_views::source(path) {
            Cow::Owned(view.map_err(JsErrorBox::generic)?)
        } else if let Some(id) = facade_id {
            virtual_map::facade_source(id)
                .map(Cow::Owned)
                .ok_or_else(|| JsErrorBox::generic(format!("pihost: no virtual module {id}")))?
        } else {
            embedded::file(path)
                .map(Cow::Borrowed)
                .ok_or_else(|| JsErrorBox::generic(format!("pihost: no internal module {path}")))?
        };
        let code = match code {
            Cow::Borrowed(text) => ModuleSourceCode::String(deno_core::FastString::from_static(embedded_with_facades(
                specifier, text,
            ))),
            Cow::Owned(text) => match builtin_specifiers::rewrite(specifier, &text) {
                Some(rewritten) => ModuleSourceCode::String(rewritten.into()),
                None => ModuleSourceCode::String(text.into()),
            },
        };
        Ok(ModuleSource::new(ModuleType::JavaScript, code, specifier, None))
    }

    fn load_file(
        &self,
        specifier: &ModuleSpecifier,
        requested: &RequestedModuleType,
    ) -> Result<ModuleSource, ModuleLoaderError> {
        let path = specifier
            .to_file_path()
            .map_err(|_| JsErrorBox::generic(format!("pihost: cannot load {specifier}")))?;
        crate::permissions::check_module_read(&self.permissions, &self.extension_folders, &path)?;
        let transpiled = match sources::source_file(&path).map_err(|error| JsErrorBox::generic(error.to_string()))? {
            sources::SourceFile::Json(source) => return json_module(specifier, &path, &source, requested),
            sources::SourceFile::Code(transpiled) => transpiled,
        };
        if self.permissions.get().is_none() {
            prefetch::imports_of(specifier);
        }
        if let Some(map) = &transpiled.source_map {
            self.source_maps.borrow_mut().insert(specifier.to_string(), map.clone());
        }
        let code = load_timing::rewriting(|| match transpiled.format {
            ModuleFormat::EcmaScript => {
                let rewritten = prefetch::take_rewrite(specifier, &transpiled)
                    .unwrap_or_else(|| lenient_imports::rewrite(specifier, &transpiled));
                let code = match (&transpiled.es_module, rewritten) {
                    (_, Some(rewritten)) => rewritten,
                    (Some(_), None) => transpiled.code.clone(),
                    // No shape to rewrite from: the built-in imports are found by parsing.
                    (None, None) => builtin_specifiers::rewrite(specifier, &transpiled.code)
                        .unwrap_or_else(|| transpiled.code.clone()),
                };
                with_module_globals(&code, &transpiled.declared_module_globals)
            }
            ModuleFormat::CommonJs => {
                let names = commonjs_interop::export_names(&path, &transpiled);
                // The source goes in last, so no marker is searched for in it.
                embedded::template("commonjs-wrapper.js")
                    .trim_end()
                    .replace("/*NAMED*/", &commonjs_interop::named_exports(&names))
                    .replace("/*SOURCE*/", &transpiled.code)
            }
        });
        // The engine keeps the code from here on.
        sources::release_code(&path);
        Ok(ModuleSource::new(
            ModuleType::JavaScript,
            ModuleSourceCode::String(code.into()),
            specifier,
            None,
        ))
    }
}

/// Puts jiti's module globals (L8) in front of an ES module, on its first
/// line so the source map's line numbers stay right. (The comment after the
/// prologue's and the CommonJS wrapper's import holds its specifier in the
/// other quotes: see `scan_needle`.)
fn with_module_globals(code: &str, declared: &[&str]) -> String {
    let missing: Vec<&str> = MODULE_GLOBAL_NAMES
        .into_iter()
        .filter(|name| !declared.contains(name))
        .collect();
    if missing.is_empty() {
        return code.to_string();
    }
    let prologue = embedded::template("module-globals-prologue.js")
        .trim_end()
        .replace("/*NAMES*/", &missing.join(", "));
    lenient_imports::on_first_line(code, &prologue)
}

fn json_module(
    specifier: &ModuleSpecifier,
    path: &Path,
    source: &str,
    requested: &RequestedModuleType,
) -> Result<ModuleSource, ModuleLoaderError> {
    // Parse here so a broken file names itself, whichever way it is imported.
    serde_json::from_str::<serde_json::Value>(source)
        .map_err(|error| JsErrorBox::generic(format!("{}: {error}", path.display())))?;
    if *requested == RequestedModuleType::Json {
        return Ok(ModuleSource::new(
            ModuleType::Json,
            ModuleSourceCode::String(source.to_string().into()),
            specifier,
            None,
        ));
    }
    // jiti lets `import data from "./x.json"` work without an import attribute.
    let code = format!("export default {source};");
    Ok(ModuleSource::new(
        ModuleType::JavaScript,
        ModuleSourceCode::String(code.into()),
        specifier,
        None,
    ))
}

impl ModuleLoader for PihostModuleLoader {
    fn resolve(
        &self,
        specifier: &str,
        referrer: &str,
        _kind: ResolutionKind,
    ) -> Result<ModuleSpecifier, ModuleLoaderError> {
        let started = std::time::Instant::now();
        let resolved = resolve_specifier(specifier, referrer);
        load_timing::record(load_timing::Stage::Resolve, started.elapsed());
        resolved
    }

    fn load(
        &self,
        specifier: &ModuleSpecifier,
        _referrer: Option<&ModuleLoadReferrer>,
        options: ModuleLoadOptions,
    ) -> ModuleLoadResponse {
        load_timing::load_starting();
        tracing::trace!(%specifier, "loading a module");
        let result = if specifier.scheme() == INTERNAL_SCHEME.trim_end_matches(':') {
            self.load_internal(specifier)
        } else if specifier.scheme() == "file" {
            self.load_file(specifier, &options.requested_module_type)
        } else if let Some(name) = specifier
            .as_str()
            .strip_prefix("node:")
            .filter(|name| crate::platform::is_synthetic_node_module(name))
        {
            Ok(ModuleSource::new(
                ModuleType::JavaScript,
                ModuleSourceCode::String(node_facade_source(name).into()),
                specifier,
                None,
            ))
        } else {
            Err(JsErrorBox::generic(format!("pihost cannot load {specifier}")))
        };
        if let Ok(source) = &result {
            let bytes = match &source.code {
                ModuleSourceCode::String(code) => code.len(),
                ModuleSourceCode::Bytes(bytes) => bytes.as_bytes().len(),
            };
            load_timing::loaded(&display_referrer(specifier.as_str()), bytes);
        }
        ModuleLoadResponse::Sync(result)
    }

    /// deno_node's synthetic modules are built by deno_core from a script's
    /// exports in the middle of instantiating the graph that imports them,
    /// which the QuickJS backend does not survive; this loader serves pihost's
    /// facade for them instead.
    fn should_load_synthetic_esm(&self, _specifier: &str) -> bool {
        true
    }

    fn get_source_map(&self, file_name: &str) -> Option<Cow<'_, [u8]>> {
        let mapping = self.source_maps.borrow().get(file_name).cloned()?;
        match mapping {
            crate::transpile::SourceMapping::Map(map) => Some(Cow::Owned(map.to_vec())),
            crate::transpile::SourceMapping::LongLines { source_digest } => {
                // deno_core decodes a map once per runtime and keeps it.
                let specifier = ModuleSpecifier::parse(file_name).ok()?;
                let bytes = std::fs::read(specifier.to_file_path().ok()?).ok()?;
                let source = decode_source(&bytes);
                crate::transpile::long_lines_source_map(&specifier, &source, &source_digest).map(Cow::Owned)
            }
        }
    }
}

/// The URL an extension entry point is imported under: its canonical path,
/// as pi imports it, so a symlinked extension and its target share a module.
pub fn module_url(resolved_path: &std::path::Path) -> String {
    let canonical = std::fs::canonicalize(resolved_path).unwrap_or_else(|_| resolved_path.to_path_buf());
    file_url(&canonical)
}

fn file_url(canonical: &std::path::Path) -> String {
    deno_core::ModuleSpecifier::from_file_path(canonical)
        .map(String::from)
        .unwrap_or_else(|_| format!("file://{}", canonical.display()))
}

/// [`module_url`] for the many entries of one load: the real path of each
/// folder is found once, and an entry that is no link itself is its
/// folder's real path joined with its name. (A real path is found one
/// link read per component: for pi's 77 examples, deep in an npm folder,
/// that was a tenth of a shared session's load.)
#[derive(Default)]
pub(crate) struct ModuleUrls {
    real_folders: std::collections::HashMap<std::path::PathBuf, std::path::PathBuf>,
}

impl ModuleUrls {
    /// The module URL of the entry at `resolved_path`, as [`module_url`] gives it.
    pub(crate) fn of(&mut self, resolved_path: &std::path::Path) -> String {
        let plain = resolved_path.components().all(|component| {
            matches!(
                component,
                std::path::Component::RootDir | std::path::Component::Normal(_)
            )
        });
        let not_a_link =
            std::fs::symlink_metadata(resolved_path).is_ok_and(|metadata| !metadata.file_type().is_symlink());
        let (Some(folder), Some(name), true, true) =
            (resolved_path.parent(), resolved_path.file_name(), plain, not_a_link)
        else {
            return module_url(resolved_path);
        };
        let real_folder = self
            .real_folders
            .entry(folder.to_path_buf())
            .or_insert_with(|| std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf()));
        file_url(&real_folder.join(name))
    }
}

/// Source text as Node reads a module: UTF-8, invalid bytes replaced by
/// U+FFFD, a leading byte order mark dropped.
pub(crate) fn decode_source(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    // Checked the fast way first: the lossy decoder walks valid text
    // several times slower, and nearly every file is valid.
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_urls_of_a_load_are_the_urls_of_the_real_paths() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("real/sub")).expect("mkdir");
        std::fs::write(root.join("real/a.ts"), "").expect("write");
        std::fs::write(root.join("real/sub/b.ts"), "").expect("write");
        std::fs::write(root.join("target.ts"), "").expect("write");
        std::os::unix::fs::symlink(root.join("real"), root.join("linked")).expect("folder link");
        std::os::unix::fs::symlink(root.join("target.ts"), root.join("real/c.ts")).expect("file link");
        let entries = [
            root.join("linked/a.ts"),
            root.join("linked/sub/b.ts"),
            root.join("real/a.ts"),
            root.join("linked/c.ts"),
            root.join("linked/sub/../a.ts"),
            root.join("linked/missing.ts"),
        ];
        let mut urls = ModuleUrls::default();
        for entry in &entries {
            assert_eq!(urls.of(entry), module_url(entry), "{}", entry.display());
        }
        let real = std::fs::canonicalize(root).expect("real root");
        assert_eq!(urls.of(&entries[0]), module_url(&real.join("real/a.ts")));
        assert_eq!(urls.of(&entries[3]), module_url(&real.join("target.ts")));
    }

    #[test]
    fn node_builtins_resolve_with_and_without_prefix_or_fail_clearly_l7() {
        let referrer = "file:///tmp/ext.ts";
        let prefixed = resolve_specifier("node:path", referrer).expect("node:path");
        let bare = resolve_specifier("path", referrer).expect("path");
        assert_eq!(prefixed, bare);
        // Node 22 still lists the deprecated _stream_wrap; deno_node has none.
        let error = resolve_specifier("node:_stream_wrap", referrer).expect_err("not provided");
        assert_eq!(error.to_string(), "pihost: node:_stream_wrap is not available");
    }

    #[test]
    fn both_prefixes_resolve_to_one_url_l2() {
        let referrer = "file:///tmp/ext.ts";
        let a = resolve_specifier("@earendil-works/pi-tui", referrer).expect("resolves");
        let b = resolve_specifier("@mariozechner/pi-tui", referrer).expect("resolves");
        assert_eq!(a, b);
    }

    #[test]
    fn a_missing_file_names_the_specifier_and_the_importer() {
        let error = resolve_specifier("./nope", "file:///tmp/some/ext.ts").expect_err("missing");
        let message = error.to_string();
        assert!(
            message.contains("Cannot find module './nope'\nRequire stack:\n- "),
            "{message}"
        );
        assert!(message.contains("/tmp/some/ext.ts"), "{message}");
    }

    #[test]
    fn the_module_globals_go_after_a_hashbang_on_its_line_l8() {
        let code = "#!/usr/bin/env node\nexport default 1;\n";
        let with_globals = with_module_globals(code, &[]);
        assert!(with_globals.starts_with("import "), "{with_globals}");
        assert!(
            with_globals.contains(" ///usr/bin/env node\nexport default 1;"),
            "{with_globals}"
        );
        assert_eq!(with_globals.lines().count(), code.lines().count());
    }

    #[test]
    fn extensions_cannot_import_pihost_internals() {
        assert!(resolve_specifier("pihost:runtime/loader.js", "file:///tmp/ext.ts").is_err());
        assert!(resolve_specifier("pihost:runtime/loader.js", "pihost:runtime/main.js").is_ok());
    }
}
