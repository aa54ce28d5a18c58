//! Where the engine keeps the QuickJS bytecode it compiles: v8x's own cache
//! on disk, which every later process reads back. v8x keys an entry by the
//! module's text and its QuickJS version only, so one build of pihost reads
//! what another build wrote, and a bytecode file an earlier build wrote made
//! a later build crash (SIGSEGV) as soon as a load reached it (engine note
//! 38). pihost's CLI therefore gives each build a folder of its own;
//! embedders may do the same with [`scope_bytecode_cache_to_this_build`].

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The environment variable v8x reads its cache folder from, once, when it
/// first compiles.
const CACHE_DIR_VARIABLE: &str = "V82JSC_BC_CACHE_DIR";
/// Set, it turns v8x's cache off.
const NO_CACHE_VARIABLE: &str = "V82JSC_NO_BC_CACHE";
/// The file in a build's folder whose time says when that build last ran.
const LAST_USED: &str = "last-used";
/// A build's folder that no process used for this long is removed.
const UNUSED_FOR: Duration = Duration::from_secs(30 * 24 * 60 * 60);
/// How often a build looks for others' folders to remove; the file beside
/// the builds' folders whose time says when one last did.
const PRUNE_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
const LAST_PRUNED: &str = "last-pruned";

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
        mark_used_and_prune(&dir, SystemTime::now());
        // SAFETY: the caller guarantees no other thread reads or writes the
        // environment now.
        unsafe { std::env::set_var(CACHE_DIR_VARIABLE, dir) };
    }
}

/// Notes that this build runs (the engine writes its folder only when it
/// compiles something new, so the folder's own time says nothing of a warm
/// start) and, at most once a day, removes the folders of builds that have
/// not run for [`UNUSED_FOR`]: v8x never trims its cache.
fn mark_used_and_prune(dir: &Path, now: SystemTime) {
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    touch(&dir.join(LAST_USED), now);
    let Some(builds) = dir.parent() else {
        return;
    };
    let pruned = builds.join(LAST_PRUNED);
    if modified(&pruned).is_some_and(|last| now.duration_since(last).is_ok_and(|age| age < PRUNE_EVERY)) {
        return;
    }
    touch(&pruned, now);
    for entry in std::fs::read_dir(builds).into_iter().flatten().flatten() {
        let other = entry.path();
        if other == dir || !other.is_dir() {
            continue;
        }
        let last = modified(&other.join(LAST_USED)).or_else(|| modified(&other));
        let unused = last.is_some_and(|last| now.duration_since(last).is_ok_and(|age| age > UNUSED_FOR));
        if unused && let Err(error) = std::fs::remove_dir_all(&other) {
            tracing::debug!("cannot remove the unused engine cache {}: {error}", other.display());
        }
    }
}

fn touch(path: &Path, now: SystemTime) {
    if let Err(error) = std::fs::File::create(path).and_then(|file| file.set_modified(now)) {
        tracing::debug!("cannot mark {}: {error}", path.display());
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|metadata| metadata.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::{LAST_USED, PRUNE_EVERY, UNUSED_FOR, mark_used_and_prune};
    use std::path::Path;
    use std::time::{Duration, SystemTime};

    fn build_used(builds: &Path, name: &str, at: SystemTime) {
        let dir = builds.join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("0123.qbc"), b"bytecode").expect("write");
        std::fs::File::create(dir.join(LAST_USED))
            .and_then(|file| file.set_modified(at))
            .expect("marker");
    }

    #[test]
    fn builds_unused_for_a_month_are_removed_at_most_once_a_day() {
        let cache = tempfile::tempdir().expect("temp dir");
        let builds = cache.path().join("engine-bytecode");
        let now = SystemTime::now();
        let day = Duration::from_secs(24 * 60 * 60);
        build_used(&builds, "old", now - UNUSED_FOR - day);
        build_used(&builds, "recent", now - day);
        let current = builds.join("current");
        mark_used_and_prune(&current, now);
        assert!(!builds.join("old").exists(), "a build unused for over a month goes");
        assert!(builds.join("recent").exists(), "a build used yesterday stays");
        assert!(current.join(LAST_USED).exists(), "this build says it ran");

        // Another stale folder appears; within the day nothing is looked at again.
        build_used(&builds, "stale", now - UNUSED_FOR - day);
        mark_used_and_prune(&current, now + PRUNE_EVERY / 2);
        assert!(builds.join("stale").exists(), "pruned at most once a day");
        mark_used_and_prune(&current, now + PRUNE_EVERY + day);
        assert!(!builds.join("stale").exists(), "the next day's start removes it");
        assert!(builds.join("recent").exists());
    }
}
