//! Where one extension's load time goes, stage by stage and module by
//! module, so a user can tell which extension (and which of its
//! dependencies) makes a start slow: `pihost inspect --timing`.
//!
//! The loader runs on the engine's thread, so the record is per thread. The
//! loader's own stages are timed where they happen (resolving specifiers,
//! reading files, transpiling, rewriting imports). The engine compiles a
//! module right after the loader hands it over and before it asks for the
//! next, so the time between two loads, less the resolutions in it, is
//! the previous module's compile time. What is left of the import once the
//! loader's stages and the compiles are taken out is the evaluation of the
//! modules (and the compile of the graph's last module).

use std::cell::RefCell;
use std::time::{Duration, Instant};

use crate::report::{LoadTiming, ModuleTiming};

/// A stage of the loader's own work.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stage {
    /// Resolving specifiers to files (Node's resolution, package.json reads).
    Resolve,
    /// Reading files.
    Read,
    /// Transpiling, or taking a transpiled module from a cache.
    Transpile,
    /// Rewriting a module's imports (jiti's lenient imports, built-in facades).
    Rewrite,
}

#[derive(Default)]
struct Profile {
    active: bool,
    resolve: Duration,
    read: Duration,
    transpile: Duration,
    rewrite: Duration,
    compile: Duration,
    /// Resolutions since the last module was handed to the engine.
    resolve_since_load: Duration,
    last_load_end: Option<Instant>,
    modules: Vec<ModuleTime>,
    /// The loader's time in the module being loaded now.
    current_module: Duration,
}

struct ModuleTime {
    path: String,
    bytes: usize,
    loader: Duration,
    compile: Duration,
}

thread_local! {
    static PROFILE: RefCell<Profile> = RefCell::new(Profile::default());
}

/// Starts the record of one extension's load on this thread.
pub(crate) fn begin() {
    PROFILE.with_borrow_mut(|profile| {
        *profile = Profile {
            active: true,
            ..Profile::default()
        }
    });
}

/// Ends the record without a report (nothing was loaded to split).
pub(crate) fn discard() {
    PROFILE.with_borrow_mut(|profile| *profile = Profile::default());
}

/// Adds `elapsed` to `stage` of the load being recorded, if any.
pub(crate) fn record(stage: Stage, elapsed: Duration) {
    PROFILE.with_borrow_mut(|profile| {
        if !profile.active {
            return;
        }
        match stage {
            Stage::Resolve => {
                profile.resolve += elapsed;
                profile.resolve_since_load += elapsed;
                return;
            }
            Stage::Read => profile.read += elapsed,
            Stage::Transpile => profile.transpile += elapsed,
            Stage::Rewrite => profile.rewrite += elapsed,
        }
        profile.current_module += elapsed;
    });
}

/// Runs `rewrite` (a module's import rewriting) as the rewrite stage; the
/// files it reads and transpiles to learn what they export stay in those
/// stages.
pub(crate) fn rewriting<R>(rewrite: impl FnOnce() -> R) -> R {
    let started = Instant::now();
    let before = PROFILE.with_borrow(|profile| profile.read + profile.transpile);
    let result = rewrite();
    let inside = PROFILE
        .with_borrow(|profile| profile.read + profile.transpile)
        .saturating_sub(before);
    record(Stage::Rewrite, started.elapsed().saturating_sub(inside));
    result
}

/// The engine asks for a module: what passed since the last one was handed
/// over was that one's compile.
pub(crate) fn load_starting() {
    PROFILE.with_borrow_mut(|profile| {
        if !profile.active {
            return;
        }
        if let Some(end) = profile.last_load_end.take() {
            let gap = end.elapsed().saturating_sub(profile.resolve_since_load);
            profile.compile += gap;
            if let Some(last) = profile.modules.last_mut() {
                last.compile += gap;
            }
        }
        profile.resolve_since_load = Duration::ZERO;
        profile.current_module = Duration::ZERO;
    });
}

/// The loader handed the engine the module at `path` of `bytes` bytes.
pub(crate) fn loaded(path: &str, bytes: usize) {
    PROFILE.with_borrow_mut(|profile| {
        if !profile.active {
            return;
        }
        let loader = std::mem::take(&mut profile.current_module);
        profile.modules.push(ModuleTime {
            path: path.to_string(),
            bytes,
            loader,
            compile: Duration::ZERO,
        });
        profile.last_load_end = Some(Instant::now());
    });
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// Ends the record: `import_ms` is how long the extension's import took,
/// `factory_ms` its factory.
pub(crate) fn end(import_ms: f64, factory_ms: f64) -> LoadTiming {
    PROFILE.with_borrow_mut(|profile| {
        let profile = std::mem::take(profile);
        let loader = profile.resolve + profile.read + profile.transpile + profile.rewrite;
        let mut modules: Vec<ModuleTiming> = profile
            .modules
            .iter()
            .map(|module| ModuleTiming {
                path: module.path.clone(),
                bytes: module.bytes,
                ms: ms(module.loader + module.compile),
            })
            .collect();
        modules.sort_by(|a, b| b.ms.total_cmp(&a.ms));
        let bytes = modules.iter().map(|module| module.bytes).sum();
        let count = modules.len();
        modules.truncate(5);
        LoadTiming {
            resolve_ms: ms(profile.resolve),
            read_ms: ms(profile.read),
            transpile_ms: ms(profile.transpile),
            rewrite_ms: ms(profile.rewrite),
            compile_ms: ms(profile.compile),
            evaluate_ms: (import_ms - ms(loader + profile.compile)).max(0.0),
            factory_ms,
            modules: count,
            bytes,
            slowest_modules: modules,
        }
    })
}
