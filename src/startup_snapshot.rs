//! A runtime's start from a snapshot kept on disk, as Deno starts from the
//! snapshot its build makes. Without one, every runtime binds its ops and
//! evaluates Deno's crates' bootstrap JavaScript from source, and the first
//! runtime of a process also compiles the engine's Temporal polyfill (engine
//! notes 35 and 53): about 40 ms of every process's start. v8x restores a
//! context captured after all that in about a third of the time.
//!
//! pihost's build cannot make the snapshot (a build script would compile
//! the engine and Deno's crates a second time), so the first process that
//! finds none makes it on a thread of its own, after its own runtime has
//! started, and keeps it for the processes after it; that process starts
//! as before.
//!
//! A snapshot is only valid for the binary that made it: it names the ops
//! by their place in the binary's table. Its file is named by a hash of the
//! binary's identity (path, size, modification time), pihost's build
//! fingerprint and the extensions' names, ops and files, so another binary
//! never reads it; its content carries a SHA-256, so a truncated or
//! corrupted file is detected and made again, never used.
//!
//! A snapshot can also be made ahead of time, as a build step
//! (`pihost prepare`, [`prepare`]): it is then kept beside the binary
//! (`<binary>.startup-<hash>.snapshot`), where every user's first start finds
//! it, as Deno and Node carry theirs inside their binaries. Runtimes look
//! there first.
//!
//! Where else: `$PIHOST_STARTUP_SNAPSHOT_DIR` (then only there), else this
//! build's engine cache folder ([`crate::engine_cache::bytecode_cache_dir`],
//! pruned with it). `PIHOST_STARTUP_SNAPSHOT=off` (or [`set_location`])
//! turns it off. Only the QuickJS backend uses it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use deno_core::{Extension, RuntimeOptions};
use sha2::{Digest, Sha256};

use crate::cache_folder::ChosenLocation;

const MAGIC: &[u8; 8] = b"PIHOSTSS";
/// Bumped whenever the file's layout changes.
const FORMAT: u32 = 1;
/// Snapshots of other binaries that no process used for this long are
/// removed when a new one is kept.
const UNUSED_FOR: Duration = Duration::from_secs(24 * 60 * 60);
/// How a snapshot being written is named until it is whole.
const TEMPORARY_PREFIX: &str = ".startup-snapshot-";

pub use crate::cache_folder::Location;

static LOCATION: ChosenLocation = ChosenLocation::new(|| {
    // Made and read only on the QuickJS backend, where it was measured and
    // tested; V8 builds start from source as before.
    if !cfg!(feature = "quickjs") {
        return Mutex::new(Location::Off);
    }
    Mutex::new(Location::from_environment(
        "PIHOST_STARTUP_SNAPSHOT",
        FOLDER_VARIABLE,
        crate::engine_cache::bytecode_cache_dir(),
    ))
});

const FOLDER_VARIABLE: &str = "PIHOST_STARTUP_SNAPSHOT_DIR";

/// Whether the embedder chose the location ([`set_location`]).
static CHOSEN_BY_EMBEDDER: AtomicBool = AtomicBool::new(false);

/// Sets where this process keeps its startup snapshot (it replaces the
/// environment's choice, and runtimes no longer look beside the binary).
/// Runtimes that already started keep theirs; a snapshot this process
/// already read is used until it ends.
pub fn set_location(location: Location) {
    CHOSEN_BY_EMBEDDER.store(true, Ordering::Relaxed);
    LOCATION.set(location);
}

fn folder() -> Option<PathBuf> {
    LOCATION.folder()
}

/// Whether the folder was chosen (by the environment or the embedder), in
/// which case only it is used.
fn folder_chosen() -> bool {
    CHOSEN_BY_EMBEDDER.load(Ordering::Relaxed) || std::env::var_os(FOLDER_VARIABLE).is_some_and(|dir| !dir.is_empty())
}

/// A snapshot file as this process found it: its body, or `None` when it
/// was missing or damaged. `path` is the file in the cache folder, which
/// names the search (a prepared snapshot beside the binary comes first).
struct ReadSnapshot {
    path: PathBuf,
    body: Option<&'static [u8]>,
}

/// The snapshot this process's runtimes start from, read (and checked) at
/// most once per process and folder.
static KEPT: Mutex<Option<ReadSnapshot>> = Mutex::new(None);

/// The snapshot for runtimes with `extensions`, if one is kept and sound.
/// `None` means: start from source (and call [`make_in_background`]).
pub(crate) fn kept(extensions: &[Extension]) -> Option<&'static [u8]> {
    let key = snapshot_key(extensions);
    let path = folder()?.join(cached_name(&key));
    let mut kept = KEPT.lock().ok()?;
    if let Some(read) = kept.as_ref()
        && read.path == path
    {
        return read.body;
    }
    let prepared = if folder_chosen() { None } else { prepared_path(&key) };
    let found = prepared
        .and_then(|prepared| Some((read(&prepared, false)?, prepared)))
        .or_else(|| Some((read(&path, true)?, path.clone())));
    let snapshot = match found {
        Some((body, from)) => {
            tracing::debug!("runtimes start from the startup snapshot {}", from.display());
            Some(&*Box::leak(body.into_boxed_slice()))
        }
        None => {
            tracing::debug!("no startup snapshot at {}: runtimes start from source", path.display());
            None
        }
    };
    *kept = Some(ReadSnapshot { path, body: snapshot });
    snapshot
}

/// How the process's latest runtime started: 0 none yet, 1 from source,
/// 2 from a snapshot.
static LATEST_RUNTIME: AtomicU8 = AtomicU8::new(0);

/// Notes how a runtime started.
pub(crate) fn note_runtime_start(from_snapshot: bool) {
    LATEST_RUNTIME.store(if from_snapshot { 2 } else { 1 }, Ordering::Relaxed);
}

/// Whether the runtime this process started last came from the startup
/// snapshot; `None` before any runtime started.
pub fn latest_runtime_from_snapshot() -> Option<bool> {
    match LATEST_RUNTIME.load(Ordering::Relaxed) {
        0 => None,
        started => Some(started == 2),
    }
}

/// What names the snapshot of this binary with `extensions`.
fn snapshot_key(extensions: &[Extension]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(FORMAT.to_le_bytes());
    hasher.update(env!("PIHOST_BUILD_FINGERPRINT").as_bytes());
    hasher.update(binary_identity().as_bytes());
    for extension in extensions {
        hasher.update(extension.name.as_bytes());
        hasher.update([0]);
        for op in extension.ops.iter() {
            hasher.update(op.name.as_bytes());
            hasher.update([1]);
        }
        let files = [
            &extension.js_files,
            &extension.esm_files,
            &extension.lazy_loaded_esm_files,
            &extension.lazy_loaded_js_files,
        ];
        for file in files.into_iter().flat_map(|files| files.iter()) {
            hasher.update(file.specifier.as_bytes());
            hasher.update([2]);
        }
        hasher.update(extension.external_references.len().to_le_bytes());
    }
    let key: [u8; 32] = hasher.finalize().into();
    key[..12].iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The snapshot's file name in a cache folder.
fn cached_name(key: &str) -> String {
    format!("startup-{key}.snapshot")
}

/// Where [`prepare`] keeps the snapshot: beside the binary.
fn prepared_path(key: &str) -> Option<PathBuf> {
    let (name, dir) = crate::engine_cache::binary_place()?;
    Some(dir.join(prepared_name(&name, key)))
}

const PREPARED_INFIX: &str = ".startup-";
const PREPARED_SUFFIX: &str = ".snapshot";

/// The prepared snapshot's name beside the binary named `binary`.
fn prepared_name(binary: &str, key: &str) -> String {
    format!("{binary}{PREPARED_INFIX}{key}{PREPARED_SUFFIX}")
}

/// What changes whenever the binary does: a snapshot holds the places of
/// its ops in this binary's table, which its build fingerprint (pihost's
/// JavaScript and dependencies) does not cover.
fn binary_identity() -> &'static str {
    static IDENTITY: OnceLock<String> = OnceLock::new();
    IDENTITY.get_or_init(|| {
        let exe = std::env::current_exe().unwrap_or_default();
        let metadata = std::fs::metadata(&exe).ok();
        let modified = metadata
            .as_ref()
            .and_then(|metadata| metadata.modified().ok())
            .and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |age| age.as_nanos());
        format!(
            "{} {} {modified}",
            exe.display(),
            metadata.map_or(0, |metadata| metadata.len())
        )
    })
}

/// The body of the snapshot file at `path`, if it is whole. A damaged file
/// is removed so that it is made again. A snapshot in a cache folder is
/// marked as used (`mark_used`), so that its pruning keeps it.
fn read(path: &Path, mark_used: bool) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    match decode(&bytes) {
        Some(body) => {
            if mark_used {
                touch(path);
            }
            Some(body)
        }
        None => {
            tracing::warn!(
                "pihost: the startup snapshot {} is damaged; it will be made again",
                path.display()
            );
            let _ = std::fs::remove_file(path);
            None
        }
    }
}

fn decode(bytes: &[u8]) -> Option<Vec<u8>> {
    crate::cache_folder::unseal(MAGIC, FORMAT, bytes).map(<[u8]>::to_vec)
}

fn encode(body: &[u8]) -> Vec<u8> {
    crate::cache_folder::seal(MAGIC, FORMAT, body)
}

/// The thread making this process's snapshot, if one was started.
static MAKING: Mutex<Option<JoinHandle<()>>> = Mutex::new(None);

/// Starts making the snapshot for runtimes built by `options` (which must
/// give the same extensions as the runtime that found none), once per
/// process, on a thread of its own.
pub(crate) fn make_in_background(options: fn() -> Option<RuntimeOptions>) {
    let Some(dir) = folder() else {
        return;
    };
    let Ok(mut making) = MAKING.lock() else {
        return;
    };
    if making.is_some() {
        return;
    }
    let thread = std::thread::Builder::new()
        .name("pihost-startup-snapshot".to_string())
        .spawn(move || {
            let made = make(options, |key| dir.join(cached_name(key))).map(|path| {
                remove_unused_snapshots(&dir, &path, SystemTime::now());
            });
            if let Err(error) = made {
                tracing::debug!("pihost: no startup snapshot made in {}: {error}", dir.display());
            }
        });
    match thread {
        Ok(thread) => *making = Some(thread),
        Err(error) => tracing::debug!("pihost: cannot start making the startup snapshot: {error}"),
    }
}

/// Waits until the snapshot this process started making is kept (the CLI
/// calls it before it exits; a process that ends earlier leaves only a
/// temporary file).
pub fn finish_making() {
    let thread = MAKING.lock().ok().and_then(|mut making| making.take());
    if let Some(thread) = thread {
        let _ = thread.join();
    }
}

/// Makes the snapshot of this binary ahead of time, as a build step, so
/// that no first start pays for making it (about a third of a first start's
/// time): beside the binary, or in `$PIHOST_STARTUP_SNAPSHOT_DIR` when that
/// is set. Snapshots older builds of the binary kept beside it are removed.
/// `options` builds the runtimes the snapshot is for
/// (`pihost::engine::prepare_startup_snapshot` passes pihost's).
pub(crate) fn prepare(options: fn() -> Option<RuntimeOptions>) -> std::io::Result<PathBuf> {
    if matches!(LOCATION.get(), Location::Off) {
        return Err(std::io::Error::other(
            "the startup snapshot is turned off (PIHOST_STARTUP_SNAPSHOT=off)",
        ));
    }
    if folder_chosen() {
        let dir = folder().ok_or_else(|| std::io::Error::other("no startup snapshot folder"))?;
        std::fs::create_dir_all(&dir)?;
        let path = make(options, |key| dir.join(cached_name(key)))?;
        remove_unused_snapshots(&dir, &path, SystemTime::now());
        return Ok(path);
    }
    let (name, dir) = crate::engine_cache::binary_place()
        .ok_or_else(|| std::io::Error::other("the binary's own path is not known"))?;
    let path = make(options, |key| dir.join(prepared_name(&name, key)))?;
    crate::engine_cache::remove_others_beside_binary(PREPARED_INFIX, PREPARED_SUFFIX, &path);
    Ok(path)
}

/// Makes and keeps the snapshot of runtimes built by `options` at the path
/// `path_for` gives for its key.
fn make(options: fn() -> Option<RuntimeOptions>, path_for: impl FnOnce(&str) -> PathBuf) -> std::io::Result<PathBuf> {
    let options = options().ok_or_else(|| std::io::Error::other("the runtime's options could not be made"))?;
    let path = path_for(&snapshot_key(&options.extensions));
    // The engine's flags are set once per process; a snapshot runtime
    // would set deno_core's snapshot flags (a fixed random seed among them)
    // if it came first.
    deno_core::JsRuntime::init_platform(None);
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let _entered = tokio.enter();
    let runtime = deno_core::JsRuntimeForSnapshot::try_new(options).map_err(std::io::Error::other)?;
    let body = runtime.snapshot();
    crate::cache_folder::write_atomically(&path, &encode(&body), TEMPORARY_PREFIX)
        .map_err(|error| std::io::Error::new(error.kind(), format!("cannot write {}: {error}", path.display())))?;
    tracing::debug!("kept the startup snapshot {}", path.display());
    // This process's later runtimes (sessions, workers, guests) start from
    // it too.
    if let Ok(mut kept) = KEPT.lock() {
        *kept = Some(ReadSnapshot {
            path: path.clone(),
            body: Some(&*Box::leak(body)),
        });
    }
    Ok(path)
}

/// Removes the snapshots (and left-over temporary files) of other binaries
/// that no process used for [`UNUSED_FOR`]: every rebuild of pihost makes a
/// snapshot of its own.
fn remove_unused_snapshots(dir: &Path, kept: &Path, now: SystemTime) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.starts_with(TEMPORARY_PREFIX) || (name.starts_with("startup-") && name.ends_with(".snapshot"));
        if !ours || path == kept {
            continue;
        }
        let unused = entry
            .metadata()
            .and_then(|metadata| metadata.modified())
            .is_ok_and(|last| now.duration_since(last).is_ok_and(|age| age > UNUSED_FOR));
        if unused {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Marks a snapshot as used, so that [`remove_unused_snapshots`] keeps it.
fn touch(path: &Path) {
    if let Err(error) = std::fs::File::options()
        .append(true)
        .open(path)
        .and_then(|file| file.set_modified(SystemTime::now()))
    {
        tracing::debug!("cannot mark {}: {error}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::{UNUSED_FOR, decode, encode, remove_unused_snapshots};
    use std::time::SystemTime;

    #[test]
    fn a_truncated_or_flipped_snapshot_is_refused() {
        let body = b"a snapshot's bytes".repeat(100);
        let bytes = encode(&body);
        assert_eq!(decode(&bytes).as_deref(), Some(&body[..]));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        for at in [0, 9, 15, 30, bytes.len() - 1] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            assert_eq!(decode(&flipped), None, "flipped at {at}");
        }
    }

    #[test]
    fn only_other_binaries_snapshots_unused_for_a_day_are_removed() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let now = SystemTime::now();
        let old = now - UNUSED_FOR - std::time::Duration::from_secs(60);
        let file = |name: &str, at: SystemTime| {
            let path = dir.path().join(name);
            std::fs::write(&path, b"x").expect("writes");
            std::fs::File::options()
                .append(true)
                .open(&path)
                .and_then(|file| file.set_modified(at))
                .expect("dates");
            path
        };
        let kept = file("startup-aa.snapshot", old);
        let stale = file("startup-bb.snapshot", old);
        let fresh = file("startup-cc.snapshot", now);
        let left_over = file(".startup-snapshot-1-0", old);
        let other = file("last-used", old);
        remove_unused_snapshots(dir.path(), &kept, now);
        assert!(kept.exists() && fresh.exists() && other.exists());
        assert!(!stale.exists() && !left_over.exists());
    }
}
