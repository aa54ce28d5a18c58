//! Where the engine keeps the QuickJS bytecode it compiles: v8x's own cache
//! on disk, which every later process reads back. v8x keys an entry by the
//! module's text and its QuickJS version only, so one build of pihost reads
//! what another build wrote, and a bytecode file an earlier build wrote made
//! a later build crash (SIGSEGV) as soon as a load reached it (engine note
//! 38). pihost's CLI therefore gives each build a folder of its own;
//! embedders may do the same with [`scope_bytecode_cache_to_this_build`].
//!
//! The platform's own code (pihost's runtime, Deno's crates' modules, pi's
//! packages) is the same for every user of a build, and compiling it from
//! source is most of a first start. `pihost prepare` compiles it ahead of
//! time, as a build step ([`stage_platform_bytecode`],
//! [`keep_platform_bytecode`]), into a folder beside the binary, and a
//! user's first start seeds its new cache folder from there: as Node
//! carries its built-in modules compiled in its binary.

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
    if chosen_by_environment() {
        return;
    }
    if let Some(dir) = bytecode_cache_dir() {
        if !dir.exists()
            && let Some(prepared) = prepared_platform_bytecode_dir().filter(|prepared| prepared.is_dir())
        {
            seed(&dir, &prepared);
        }
        mark_used_and_prune(&dir, SystemTime::now());
        // SAFETY: the caller guarantees no other thread reads or writes the
        // environment now.
        unsafe { std::env::set_var(CACHE_DIR_VARIABLE, dir) };
    }
}

/// Whether the environment chose the engine's cache (`V82JSC_BC_CACHE_DIR`,
/// or `V82JSC_NO_BC_CACHE` for none): pihost then leaves it alone.
fn chosen_by_environment() -> bool {
    std::env::var_os(CACHE_DIR_VARIABLE).is_some() || std::env::var_os(NO_CACHE_VARIABLE).is_some()
}

/// Where `pihost prepare` keeps this build's platform bytecode: beside the
/// binary, `<binary>.platform-bytecode-<build>`.
pub fn prepared_platform_bytecode_dir() -> Option<PathBuf> {
    let (name, dir) = binary_place()?;
    Some(dir.join(format!("{name}{PREPARED_INFIX}{}", env!("PIHOST_BUILD_FINGERPRINT"))))
}

const PREPARED_INFIX: &str = ".platform-bytecode-";

/// The binary's file name and folder, if it has them: where `prepare`
/// keeps what it makes.
pub(crate) fn binary_place() -> Option<(String, PathBuf)> {
    let exe = std::env::current_exe().ok()?;
    let name = exe.file_name()?.to_string_lossy().into_owned();
    Some((name, exe.parent()?.to_path_buf()))
}

/// Points the engine's bytecode cache at a new, empty folder beside the
/// binary, for `pihost prepare` to fill with the platform's code (then
/// [`keep_platform_bytecode`]). Its path; `None` when the environment chose
/// the engine's cache, which is then left as it is.
///
/// # Safety
/// As [`scope_bytecode_cache_to_this_build`], instead of which it is called.
pub unsafe fn stage_platform_bytecode() -> std::io::Result<Option<PathBuf>> {
    if chosen_by_environment() {
        return Ok(None);
    }
    let prepared =
        prepared_platform_bytecode_dir().ok_or_else(|| std::io::Error::other("the binary's own path is not known"))?;
    let mut staging = prepared.into_os_string();
    staging.push(format!(".staging-{}", std::process::id()));
    let staging = PathBuf::from(staging);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)?;
    }
    std::fs::create_dir_all(&staging)?;
    // SAFETY: the caller guarantees no other thread reads or writes the
    // environment now.
    unsafe { std::env::set_var(CACHE_DIR_VARIABLE, &staging) };
    Ok(Some(staging))
}

/// Keeps what the engine compiled into `staging` as this build's prepared
/// platform bytecode, in place of an earlier one, and removes other
/// builds' (and abandoned stagings') beside the binary. The kept folder and
/// its count of compiled units.
pub fn keep_platform_bytecode(staging: &Path) -> std::io::Result<(PathBuf, usize)> {
    let prepared =
        prepared_platform_bytecode_dir().ok_or_else(|| std::io::Error::other("the binary's own path is not known"))?;
    // Unfinished writes of the engine's (`<key>.tmp`) are not bytecode.
    for entry in std::fs::read_dir(staging)?.flatten() {
        if entry.path().extension().is_none_or(|extension| extension != "qbc") {
            std::fs::remove_file(entry.path())?;
        }
    }
    if prepared.exists() {
        std::fs::remove_dir_all(&prepared)?;
    }
    std::fs::rename(staging, &prepared)?;
    remove_others_beside_binary(PREPARED_INFIX, "", &prepared);
    let units = std::fs::read_dir(&prepared)?.flatten().count();
    Ok((prepared, units))
}

/// Removes what `prepare` kept beside the binary for other builds (and
/// abandoned work): the files and folders named `<binary><infix>…<suffix>`
/// other than `kept`.
pub(crate) fn remove_others_beside_binary(infix: &str, suffix: &str, kept: &Path) {
    let Some((name, dir)) = binary_place() else {
        return;
    };
    let ours = format!("{name}{infix}");
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let file = entry.file_name();
        let file = file.to_string_lossy();
        if path == kept || !file.starts_with(&ours) || !file.ends_with(suffix) {
            continue;
        }
        let _ = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
    }
}

/// Fills a build's new cache folder `dir` with the prepared platform
/// bytecode: hard links where the two folders share a file system, copies
/// elsewhere. A file that cannot be placed is left for the engine to
/// compile; the engine replaces files by renaming, never writes into one,
/// so a linked file stays as prepared.
fn seed(dir: &Path, prepared: &Path) {
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut linking = true;
    for entry in std::fs::read_dir(prepared).into_iter().flatten().flatten() {
        let source = entry.path();
        let target = dir.join(entry.file_name());
        if linking {
            match std::fs::hard_link(&source, &target) {
                Ok(()) => continue,
                // Another first start seeded it at the same moment.
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(_) => linking = false,
            }
        }
        let mut temporary = target.clone().into_os_string();
        temporary.push(format!(".seed-{}", std::process::id()));
        let copied = std::fs::copy(&source, &temporary).and_then(|_| std::fs::rename(&temporary, &target));
        if copied.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
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
