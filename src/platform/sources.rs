//! The JavaScript of Deno's platform crates, embedded at build time.
//!
//! deno_core 0.413 records an extension's files by their path in the
//! crate's source folder and reads them when a runtime starts, transpiling
//! TypeScript every time. build.rs (build/platform_sources.rs) transpiles
//! each file once and embeds the JavaScript; [`embed`] puts it in place of
//! the path, so a runtime reads nothing from disk and transpiles nothing.
//! [`add_stand_ins`] adds pihost's own versions of the few modules that
//! deno_node expects from crates pihost does not use (deno_runtime's global
//! scope, deno_telemetry).

use super::RuntimeStartError;

use std::collections::HashMap;
use std::sync::OnceLock;

use deno_core::{Extension, ExtensionFileSource, ExtensionFileSourceCode, FastStaticString};

/// `(path as the crate's extension declares it, transpiled code)`.
static PLATFORM_SOURCES: &[(&str, FastStaticString)] = include!(concat!(env!("OUT_DIR"), "/platform_sources.rs"));

fn by_path() -> &'static HashMap<&'static str, FastStaticString> {
    static TABLE: OnceLock<HashMap<&'static str, FastStaticString>> = OnceLock::new();
    TABLE.get_or_init(|| PLATFORM_SOURCES.iter().copied().collect())
}

/// The embedded code for a file an extension declares by path.
#[allow(
    deprecated,
    reason = "deno_core still declares extension files by path through this variant"
)]
fn embedded(file: &ExtensionFileSource) -> Result<ExtensionFileSource, RuntimeStartError> {
    match &file.code {
        ExtensionFileSourceCode::LoadedFromFsDuringSnapshot(path) => by_path()
            .get(path)
            .map(|code| ExtensionFileSource::new(file.specifier, *code))
            .ok_or_else(|| RuntimeStartError::NotEmbedded {
                specifier: file.specifier,
                path: path.to_string(),
            }),
        _ => Ok(file.clone()),
    }
}

fn embed_list(list: &mut std::borrow::Cow<'static, [ExtensionFileSource]>) -> Result<(), RuntimeStartError> {
    if list.is_empty() {
        return Ok(());
    }
    let replaced = list.iter().map(embedded).collect::<Result<Vec<_>, _>>()?;
    *list = std::borrow::Cow::Owned(replaced);
    Ok(())
}

/// Replaces every file `extension` declares by path with its embedded code.
pub(super) fn embed(extension: &mut Extension) -> Result<(), RuntimeStartError> {
    embed_list(&mut extension.js_files)?;
    embed_list(&mut extension.esm_files)?;
    embed_list(&mut extension.lazy_loaded_esm_files)?;
    embed_list(&mut extension.lazy_loaded_js_files)?;
    Ok(())
}

/// One of pihost's own files under js/ as an extension file.
fn pihost_file(specifier: &'static str, file: &str) -> ExtensionFileSource {
    let code = crate::embedded::file(file).unwrap_or("");
    ExtensionFileSource::new_computed(specifier, std::sync::Arc::from(code))
}

/// Modules deno_node reaches into crates pihost leaves out: the global scope
/// table of deno_runtime (for `node:console`) and deno_telemetry (for
/// http's tracing, which is off).
pub(super) fn add_stand_ins(extension: &mut Extension) {
    let stand_ins_js = [
        ("ext:deno_telemetry/telemetry.ts", "platform/stand-ins/telemetry.js"),
        ("ext:deno_telemetry/util.ts", "platform/stand-ins/telemetry-util.js"),
    ];
    let stand_ins_esm = [(
        "ext:runtime/98_global_scope_shared.js",
        "platform/stand-ins/global-scope.js",
    )];
    extension.lazy_loaded_js_files.to_mut().extend(
        stand_ins_js
            .iter()
            .map(|(specifier, file)| pihost_file(specifier, file)),
    );
    extension.lazy_loaded_esm_files.to_mut().extend(
        stand_ins_esm
            .iter()
            .map(|(specifier, file)| pihost_file(specifier, file)),
    );
}
