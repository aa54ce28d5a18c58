//! What `require()` needs synchronously: resolving a specifier from a
//! directory, and the CommonJS source of a file (transpiled if TypeScript).

use std::path::Path;

use deno_ast::{MediaType, ModuleSpecifier};
use deno_core::{OpState, op2};
use deno_error::JsErrorBox;

use crate::modules::resolve;
use crate::transpile::{self, ModuleFormat};

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

#[derive(serde::Serialize)]
pub struct CommonJsSource {
    code: String,
    /// "commonjs", "esm" or "json".
    format: &'static str,
}

#[op2]
#[serde]
pub fn op_pihost_commonjs_source(state: &mut OpState, #[string] path: &str) -> Result<CommonJsSource, JsErrorBox> {
    crate::permissions::check_module_read(
        state.borrow::<crate::permissions::PermissionSlot>(),
        state.borrow::<crate::permissions::ExtensionFolders>(),
        Path::new(path),
    )?;
    let source = std::fs::read_to_string(path).map_err(|error| super::node_errors::fs_error("open", path, &error))?;
    let source = source.strip_prefix('\u{feff}').unwrap_or(&source);
    let media_type = MediaType::from_path(Path::new(path));
    if media_type == MediaType::Json {
        return Ok(CommonJsSource {
            code: source.to_string(),
            format: "json",
        });
    }
    let specifier = ModuleSpecifier::from_file_path(path)
        .map_err(|_| JsErrorBox::generic(format!("pihost: not an absolute path: {path}")))?;
    let transpiled =
        transpile::transpile(&specifier, media_type, source).map_err(|error| JsErrorBox::generic(error.to_string()))?;
    Ok(CommonJsSource {
        code: transpiled.code.clone(),
        format: match transpiled.format {
            ModuleFormat::CommonJs => "commonjs",
            ModuleFormat::EcmaScript => "esm",
        },
    })
}

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
