//! What `require()` needs synchronously: resolving a specifier from a
//! directory, and the code of a file (transpiled if TypeScript).

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use deno_core::{OpState, op2, v8};
use deno_error::JsErrorBox;

use crate::modules::{resolve, sources};
use crate::transpile::ModuleFormat;

#[op2]
#[string]
pub fn op_pihost_require_resolve(#[string] specifier: &str, #[string] directory: &str) -> Result<String, JsErrorBox> {
    let directory = Path::new(directory);
    let found = resolve::resolve(specifier, directory, resolve::REQUIRE_CONDITIONS);
    found.map(|path| path.display().to_string()).ok_or_else(|| {
        if let Some(reason) = resolve::unexported_subpath(specifier, directory, resolve::REQUIRE_CONDITIONS) {
            return JsErrorBox::generic(reason);
        }
        JsErrorBox::generic(format!(
            "Cannot find module '{specifier}' required from {}",
            directory.display()
        ))
    })
}

/// What `require(path)` evaluates: a CommonJS file's function
/// `(exports, require, module, __filename, __dirname)`, or a JSON file's
/// text. Requiring an ES module is an error.
///
/// Strict CommonJS code is compiled as a module so that the engine's
/// bytecode cache serves it ([`crate::function_modules`]); other code is
/// handed back as text for an indirect `eval`, which keeps it sloppy as
/// Node runs it.
#[op2(reentrant)]
pub fn op_pihost_require_file<'s, 'i>(
    scope: &mut v8::PinScope<'s, 'i>,
    state: Rc<RefCell<OpState>>,
    #[string] path: &str,
) -> Result<v8::Local<'s, v8::Value>, JsErrorBox> {
    let sandboxed = {
        let state = state.borrow();
        let permissions = state.borrow::<crate::permissions::PermissionSlot>();
        crate::permissions::check_module_read(
            permissions,
            state.borrow::<crate::permissions::ExtensionFolders>(),
            Path::new(path),
        )?;
        permissions.get().is_some()
    };
    let file = sources::source_file(Path::new(path)).map_err(|error| match error.io_error() {
        Some(io) => super::node_errors::fs_error("open", path, io),
        None => JsErrorBox::generic(error.to_string()),
    })?;
    if !sandboxed && let Ok(url) = deno_core::ModuleSpecifier::from_file_path(path) {
        crate::modules::prefetch::imports_of(&url);
    }
    let answer = |scope: &mut v8::PinScope<'s, 'i>, kind: &str, text: &str| {
        let object = v8::Object::new(scope);
        for (key, value) in [("kind", kind), ("text", text)] {
            let key = v8::String::new(scope, key).ok_or_else(|| JsErrorBox::generic("pihost: out of memory"))?;
            let value = v8::String::new(scope, value)
                .ok_or_else(|| JsErrorBox::generic(format!("pihost: {path} is too large")))?;
            object.set(scope, key.into(), value.into());
        }
        Ok(object.into())
    };
    let module = match file {
        sources::SourceFile::Json(text) => return answer(scope, "json", &text),
        sources::SourceFile::Code(module) => module,
    };
    let compiled = match module.format {
        ModuleFormat::EcmaScript => {
            return Err(JsErrorBox::generic(format!(
                "pihost: require() of the ES module {path} is not supported yet; use import"
            )));
        }
        ModuleFormat::CommonJs if module.strict => crate::function_modules::compile(
            scope,
            path,
            &crate::function_modules::module_source(COMMONJS_PARAMETERS, &module.code),
        ),
        ModuleFormat::CommonJs => answer(scope, "sloppy", &module.code),
    };
    // The engine has the code now (require caches what it evaluates).
    sources::release_code(Path::new(path));
    compiled
}

/// The parameters of a CommonJS module's function, as Node's wrapper has them.
const COMMONJS_PARAMETERS: &str = "exports, require, module, __filename, __dirname";

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedEntry {
    resolved_path: String,
    module_url: String,
}

/// Where an extension entry point given as `path` (relative to `cwd`) is, and
/// the URL it is imported under, as the loader needs them.
#[op2]
#[serde]
pub fn op_pihost_resolve_entry(#[string] path: &str, #[string] cwd: &str) -> ResolvedEntry {
    let resolved = crate::discovery::resolve_user_path(path, Path::new(cwd));
    ResolvedEntry {
        module_url: crate::modules::module_url(&resolved),
        resolved_path: resolved.display().to_string(),
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveredEntry {
    path: String,
    resolved_path: String,
    module_url: String,
}

/// pi's discovery for `discoverAndLoadExtensions(configuredPaths, cwd,
/// agentDir)`: the entry points, in order, as the loader needs them. A
/// resource loader scans only some of the default folders (`scan_project`,
/// `scan_agent`: none under `noExtensions`, not the project's when it is not
/// trusted). Where pi throws (a malformed `file://` URL) this throws; in a
/// runtime that restricts anything, each folder discovery reads must be
/// readable.
#[op2]
#[serde]
pub fn op_pihost_discover_extensions(
    state: &mut OpState,
    #[serde] configured_paths: Vec<String>,
    #[string] cwd: &str,
    #[string] agent_dir: &str,
    scan_project: bool,
    scan_agent: bool,
) -> Result<Vec<DiscoveredEntry>, JsErrorBox> {
    use crate::discovery::{DEFAULT_CONFIG_DIR_NAME, DiscoveryOptions, ScanFolders};
    let scan = ScanFolders {
        project: scan_project,
        agent: scan_agent,
    };
    let options = DiscoveryOptions {
        cwd: cwd.into(),
        agent_dir: agent_dir.into(),
        config_dir_name: DEFAULT_CONFIG_DIR_NAME.to_string(),
        configured_paths,
    };
    if let Some(restrictions) = state.borrow::<crate::permissions::PermissionSlot>().get() {
        let scanned = [
            (
                scan.project,
                options.cwd.join(&options.config_dir_name).join("extensions"),
            ),
            (scan.agent, options.agent_dir.join("extensions")),
        ]
        .into_iter()
        .filter_map(|(scanned, folder)| scanned.then_some(folder));
        let configured = options
            .configured_paths
            .iter()
            .map(|path| crate::discovery::resolve_user_path(path, &options.cwd));
        for folder in scanned.chain(configured) {
            crate::permissions::check_read(&restrictions.container, &folder, "discoverAndLoadExtensions")?;
        }
    }
    let found = crate::discovery::try_discover_scanning(&options, scan)
        .map_err(|error| JsErrorBox::type_error(error.to_string()))?;
    let mut urls = crate::modules::ModuleUrls::default();
    Ok(found
        .into_iter()
        .map(|entry| DiscoveredEntry {
            module_url: urls.of(&entry.resolved_path),
            resolved_path: entry.resolved_path.display().to_string(),
            path: entry.path,
        })
        .collect())
}

/// Starts recording where the load time of the extension at `path` goes,
/// and marks it as the one loading (a load the engine cannot stop names it).
#[op2(fast)]
pub fn op_pihost_load_timing_begin(state: &mut OpState, #[string] path: &str) {
    crate::modules::load_timing::begin();
    crate::modules::load_window::begin();
    if let Some(mark) = state.try_borrow::<crate::limits::LoadingMark>() {
        mark.set(Some(path.to_string()));
    }
}

/// Ends the record begun by [`op_pihost_load_timing_begin`] for an
/// extension whose factory came from the cache (L6): nothing was imported,
/// so there is no split to report (the loader makes its timing, all of it
/// the factory's, without a value crossing per extension).
#[op2(fast)]
pub fn op_pihost_loaded_from_cache(state: &mut OpState) {
    end_extension_load(state);
    crate::modules::load_timing::discard();
}

/// Ends the record begun by [`op_pihost_load_timing_begin`]: the extension's
/// import took `import_ms` and its factory `factory_ms`.
#[op2]
#[serde]
pub fn op_pihost_load_timing_end(state: &mut OpState, import_ms: f64, factory_ms: f64) -> crate::report::LoadTiming {
    end_extension_load(state);
    let timing = crate::modules::load_timing::end(import_ms, factory_ms);
    let took = std::time::Duration::try_from_secs_f64((import_ms + factory_ms) / 1000.0).unwrap_or_default();
    crate::freed_memory::after_load(took);
    timing
}

/// No extension loads any more (what [`op_pihost_load_timing_begin`] marked
/// and opened, either way a load ends).
fn end_extension_load(state: &OpState) {
    if let Some(mark) = state.try_borrow::<crate::limits::LoadingMark>() {
        mark.set(None);
    }
    crate::modules::load_window::end();
}
