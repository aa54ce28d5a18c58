//! `pihost prepare`: what every start of a build would otherwise make for
//! itself, made once ahead of time and kept beside the binary — the
//! startup snapshot (src/startup_snapshot.rs) and the platform's compiled
//! code (src/engine_cache.rs).

use std::path::{Path, PathBuf};

use crate::engine::EngineOptions;
use crate::error::PihostError;

/// The platform's bytecode as `prepare` kept it.
#[derive(Debug)]
pub struct PreparedBytecode {
    /// The folder beside the binary.
    pub folder: PathBuf,
    /// How many compiled units it holds.
    pub units: usize,
    /// Modules the warm-up could not import (`name: message`): their code
    /// is compiled by the first start that needs it, as before.
    pub not_compiled: Vec<String>,
}

/// Compiles the platform's code (pihost's runtime, every Node built-in,
/// pi's packages) into `staging`, which the engine's bytecode cache must
/// already point at ([`crate::engine_cache::stage_platform_bytecode`]), by
/// loading an extension that imports all of it; then keeps it beside the
/// binary.
pub fn platform_bytecode(staging: &Path) -> Result<PreparedBytecode, PihostError> {
    let failed = |context: &str, error: &dyn std::fmt::Display| {
        PihostError::Prepare(format!("{context} ({}): {error}", staging.display()))
    };
    let warm_up_dir = staging.with_extension(format!("warm-up-{}", std::process::id()));
    let warm_up = warm_up_dir.join("warm-up.js");
    std::fs::create_dir_all(&warm_up_dir)
        .and_then(|()| {
            std::fs::write(
                &warm_up,
                crate::embedded::file("prepare/warm-up.js").unwrap_or_default(),
            )
        })
        .map_err(|error| failed("cannot write the warm-up extension", &error))?;
    let mut options = EngineOptions::for_cwd(&warm_up_dir);
    options.agent_dir = warm_up_dir.join("agent");
    let loaded = crate::handle::inspect_blocking(options, &[warm_up.display().to_string()]);
    let _ = std::fs::remove_dir_all(&warm_up_dir);
    let report = loaded?;
    if let Some(error) = report.errors.first() {
        let _ = std::fs::remove_dir_all(staging);
        return Err(failed("the platform's warm-up failed to load", &error.error));
    }
    let (folder, units) = crate::engine_cache::keep_platform_bytecode(staging)
        .map_err(|error| failed("cannot keep the platform's bytecode", &error))?;
    let not_compiled = report
        .extensions
        .iter()
        .flat_map(|extension| extension.flags.iter())
        .filter(|flag| flag.name == "not-prepared")
        .filter_map(|flag| flag.default.as_ref().and_then(|value| value.as_str()))
        .flat_map(str::lines)
        .map(str::to_string)
        .collect();
    Ok(PreparedBytecode {
        folder,
        units,
        not_compiled,
    })
}
