//! Where the engine keeps the QuickJS bytecode it compiles: v8x's own cache
//! on disk, which every later process reads back. v8x keys an entry by the
//! module's text and its QuickJS version only, so one build of pihost reads
//! what another build wrote, and a bytecode file an earlier build wrote made
//! a later build crash (SIGSEGV) as soon as a load reached it (engine note
//! 38). pihost's CLI therefore gives each build a folder of its own;
//! embedders may do the same with [`scope_bytecode_cache_to_this_build`].

use std::path::PathBuf;

/// The environment variable v8x reads its cache folder from, once, when it
/// first compiles.
const CACHE_DIR_VARIABLE: &str = "V82JSC_BC_CACHE_DIR";
/// Set, it turns v8x's cache off.
const NO_CACHE_VARIABLE: &str = "V82JSC_NO_BC_CACHE";

/// This build's folder: `<cache dir>/pihost/engine-bytecode/<build>`, where
/// `<build>` changes whenever pihost's version, its JavaScript or any
/// dependency's version does (build.rs).
pub fn bytecode_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|cache| {
        cache
            .join("pihost")
            .join("engine-bytecode")
            .join(env!("PIHOST_BUILD_FINGERPRINT"))
    })
}

/// Points the engine's bytecode cache at [`bytecode_cache_dir`], unless the
/// environment already chose (`V82JSC_BC_CACHE_DIR`, or `V82JSC_NO_BC_CACHE`
/// for none).
///
/// # Safety
/// It sets an environment variable: call it before any other thread of the
/// process exists (first in `main`), and before the first runtime starts.
pub unsafe fn scope_bytecode_cache_to_this_build() {
    if std::env::var_os(CACHE_DIR_VARIABLE).is_some() || std::env::var_os(NO_CACHE_VARIABLE).is_some() {
        return;
    }
    if let Some(dir) = bytecode_cache_dir() {
        // SAFETY: the caller guarantees no other thread reads or writes the
        // environment now.
        unsafe { std::env::set_var(CACHE_DIR_VARIABLE, dir) };
    }
}
