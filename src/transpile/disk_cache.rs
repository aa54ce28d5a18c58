//! Transpiled modules kept on disk between processes, as jiti keeps its
//! output, so a second start transpiles only the files that changed.
//!
//! An entry's name is a hash of everything its content depends on: pihost's
//! transpile code and dependencies (a changed pihost never reads an entry
//! an older one wrote), the file's URL and media type, and its source. Its
//! content carries a checksum, so a truncated or corrupted entry is
//! detected, deleted and rebuilt, never used. Entries are written to a
//! temporary name and renamed into place, so processes sharing the folder
//! never read a half-written one. The folder is kept under a size bound
//! by deleting its oldest entries.
//!
//! Where: `$PIHOST_TRANSPILE_CACHE_DIR`, else `pihost/transpile` in the
//! platform's cache folder (`$XDG_CACHE_HOME` or `~/.cache` on Linux).
//! `PIHOST_TRANSPILE_CACHE=off` (or [`set_location`]) turns it off.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::cache_folder::ChosenLocation;

use super::{EsModuleShape, MODULE_GLOBAL_NAMES, ModuleFormat, SourceMapping, TranspiledModule};

/// Bumped whenever the layout of an entry changes.
const FORMAT: u32 = 3;
const MAGIC: &[u8; 8] = b"PIHOSTTC";
/// The default bound of the folder's size.
const DEFAULT_MAX_BYTES: u64 = 512 * 1024 * 1024;

pub use crate::cache_folder::Location;

static LOCATION: ChosenLocation = ChosenLocation::new(|| {
    Mutex::new(Location::from_environment(
        "PIHOST_TRANSPILE_CACHE",
        "PIHOST_TRANSPILE_CACHE_DIR",
        dirs::cache_dir().map(|dir| dir.join("pihost").join("transpile")),
    ))
});

/// Sets where this process keeps transpiled modules (it replaces the
/// environment's choice).
pub fn set_location(location: Location) {
    LOCATION.set(location);
}

/// Where this process keeps transpiled modules.
pub fn location() -> Location {
    LOCATION.get()
}

fn folder() -> Option<PathBuf> {
    LOCATION.folder()
}

/// What changes the transpile's output besides the file: pihost's version,
/// its transpile code (where long lines break included), and the exact
/// versions of every dependency (deno_ast and swc among them).
static FINGERPRINT: LazyLock<[u8; 32]> = LazyLock::new(|| {
    let mut hasher = Sha256::new();
    hasher.update(FORMAT.to_le_bytes());
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.update(include_str!("mod.rs").as_bytes());
    hasher.update(include_str!("long_lines.rs").as_bytes());
    hasher.update(include_str!("disk_cache.rs").as_bytes());
    hasher.update(include_str!("../../Cargo.lock").as_bytes());
    hasher.finalize().into()
});

/// The name of the entry of a file's transpiled module.
pub(super) fn entry_key(specifier: &str, media_type: &str, source: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(*FINGERPRINT);
    hasher.update(specifier.as_bytes());
    hasher.update([0]);
    hasher.update(media_type.as_bytes());
    hasher.update([0]);
    hasher.update(source.as_bytes());
    hasher.finalize().into()
}

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static DAMAGED: AtomicU64 = AtomicU64::new(0);

/// How the process has used the on-disk transpile cache so far.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacheCounts {
    /// Modules read from the cache.
    pub hits: u64,
    /// Modules transpiled because the cache did not have them.
    pub misses: u64,
    /// Damaged entries (truncated, corrupted) found, deleted and rebuilt.
    pub damaged: u64,
}

/// The counts so far in this process; `None` when the cache is off.
pub fn counts() -> Option<CacheCounts> {
    folder()?;
    Some(CacheCounts {
        hits: HITS.load(Ordering::Relaxed),
        misses: MISSES.load(Ordering::Relaxed),
        damaged: DAMAGED.load(Ordering::Relaxed),
    })
}

/// What an entry holds: a [`TranspiledModule`] without the code when the
/// code is the source itself (plain JavaScript), which the reader has.
#[derive(Serialize, Deserialize)]
struct Entry {
    code: Option<String>,
    #[serde(with = "serde_bytes")]
    source_map: Option<Vec<u8>>,
    /// For a minified file whose lines were broken: the digest its source
    /// map is made again from (`SourceMapping::LongLines`).
    long_lines_digest: Option<[u8; 16]>,
    commonjs: bool,
    declared_module_globals: Vec<String>,
    commonjs_exports: Vec<String>,
    commonjs_reexports: Vec<String>,
    commonjs_requires: Vec<String>,
    strict: bool,
    es_module: Option<EsModuleShape>,
}

fn entry_path(dir: &Path, key: &[u8; 32]) -> PathBuf {
    let hex: String = key.iter().map(|byte| format!("{byte:02x}")).collect();
    dir.join(&hex[..2]).join(&hex[2..])
}

/// Whether no entry of `key` is there, sound or not. A lacking entry is
/// counted as a miss, as [`read`] counts one: the module is transpiled now.
pub(super) fn lacks(key: &[u8; 32]) -> bool {
    let Some(dir) = folder() else {
        return true;
    };
    let lacking = !entry_path(&dir, key).is_file();
    if lacking {
        MISSES.fetch_add(1, Ordering::Relaxed);
    }
    lacking
}

/// The cached module of `key`, if a sound entry is there.
pub(super) fn read(key: &[u8; 32], source: &str) -> Option<TranspiledModule> {
    let dir = folder()?;
    let path = entry_path(&dir, key);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(_) => {
            MISSES.fetch_add(1, Ordering::Relaxed);
            return None;
        }
    };
    match decode(&bytes, source) {
        Some(module) => {
            HITS.fetch_add(1, Ordering::Relaxed);
            Some(module)
        }
        None => {
            tracing::warn!(
                "pihost: a damaged transpile cache entry was removed: {}",
                path.display()
            );
            DAMAGED.fetch_add(1, Ordering::Relaxed);
            MISSES.fetch_add(1, Ordering::Relaxed);
            let _ = std::fs::remove_file(&path);
            None
        }
    }
}

fn decode(bytes: &[u8], source: &str) -> Option<TranspiledModule> {
    let body = crate::cache_folder::unseal(MAGIC, FORMAT, bytes)?;
    let entry: Entry = postcard::from_bytes(body).ok()?;
    let declared_module_globals = entry
        .declared_module_globals
        .iter()
        .map(|name| MODULE_GLOBAL_NAMES.into_iter().find(|known| known == name))
        .collect::<Option<Vec<_>>>()?;
    Some(TranspiledModule {
        code: entry.code.unwrap_or_else(|| source.to_string()),
        source_map: match (entry.source_map, entry.long_lines_digest) {
            (Some(map), _) => Some(SourceMapping::Map(std::sync::Arc::from(map))),
            (None, Some(source_digest)) => Some(SourceMapping::LongLines { source_digest }),
            (None, None) => None,
        },
        format: if entry.commonjs {
            ModuleFormat::CommonJs
        } else {
            ModuleFormat::EcmaScript
        },
        declared_module_globals,
        commonjs_exports: entry.commonjs_exports,
        commonjs_reexports: entry.commonjs_reexports,
        commonjs_requires: entry.commonjs_requires,
        strict: entry.strict,
        es_module: entry.es_module,
    })
}

fn encode(module: &TranspiledModule, source: &str) -> Option<Vec<u8>> {
    let entry = Entry {
        code: (module.code != source).then(|| module.code.clone()),
        source_map: match &module.source_map {
            Some(SourceMapping::Map(map)) => Some(map.to_vec()),
            _ => None,
        },
        long_lines_digest: match &module.source_map {
            Some(SourceMapping::LongLines { source_digest }) => Some(*source_digest),
            _ => None,
        },
        commonjs: module.format == ModuleFormat::CommonJs,
        declared_module_globals: module
            .declared_module_globals
            .iter()
            .map(|name| name.to_string())
            .collect(),
        commonjs_exports: module.commonjs_exports.clone(),
        commonjs_reexports: module.commonjs_reexports.clone(),
        commonjs_requires: module.commonjs_requires.clone(),
        strict: module.strict,
        es_module: module.es_module.clone(),
    };
    let body = postcard::to_stdvec(&entry).ok()?;
    Some(crate::cache_folder::seal(MAGIC, FORMAT, &body))
}

static WROTE: AtomicBool = AtomicBool::new(false);

/// Keeps `module` for the next process. Failures only cost the next process
/// a transpile, so they are logged, not raised.
pub(super) fn write(key: &[u8; 32], module: &TranspiledModule, source: &str) {
    let Some(dir) = folder() else {
        return;
    };
    let Some(bytes) = encode(module, source) else {
        return;
    };
    let path = entry_path(&dir, key);
    if let Err(error) = crate::cache_folder::write_atomically(&path, &bytes, ".tmp-") {
        tracing::debug!("pihost: cannot keep a transpiled module in {}: {error}", dir.display());
        return;
    }
    if !WROTE.swap(true, Ordering::AcqRel) {
        // Once per process that added to the folder, off the loading thread.
        let _ = std::thread::Builder::new()
            .name("pihost-cache-trim".to_string())
            .spawn(move || trim(&dir, max_bytes()));
    }
}

fn max_bytes() -> u64 {
    std::env::var("PIHOST_TRANSPILE_CACHE_MAX_MB")
        .ok()
        .and_then(|mb| mb.parse::<u64>().ok())
        .map_or(DEFAULT_MAX_BYTES, |mb| mb.saturating_mul(1024 * 1024))
}

/// Deletes the oldest entries until the folder is under 80 % of `max`, when
/// it is over `max`. Temporary files older than an hour are left-overs of
/// processes that died mid-write.
pub(super) fn trim(dir: &Path, max: u64) {
    let mut entries = Vec::new();
    let mut total = 0u64;
    let now = std::time::SystemTime::now();
    for shard in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for file in std::fs::read_dir(shard.path()).into_iter().flatten().flatten() {
            let Ok(metadata) = file.metadata() else {
                continue;
            };
            let modified = metadata.modified().unwrap_or(now);
            if file.file_name().to_string_lossy().starts_with(".tmp-") {
                if now.duration_since(modified).is_ok_and(|age| age.as_secs() > 3600) {
                    let _ = std::fs::remove_file(file.path());
                }
                continue;
            }
            total += metadata.len();
            entries.push((modified, metadata.len(), file.path()));
        }
    }
    if total <= max {
        return;
    }
    entries.sort();
    let target = max / 10 * 8;
    for (_, length, path) in entries {
        if total <= target {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total = total.saturating_sub(length);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache_folder::SEAL_LEN as HEADER_LEN;

    fn module(code: &str) -> TranspiledModule {
        TranspiledModule {
            code: code.to_string(),
            source_map: Some(SourceMapping::Map(std::sync::Arc::from(&b"{\"version\":3}"[..]))),
            format: ModuleFormat::EcmaScript,
            declared_module_globals: vec!["require"],
            commonjs_exports: Vec::new(),
            commonjs_reexports: Vec::new(),
            commonjs_requires: Vec::new(),
            strict: false,
            es_module: Some(EsModuleShape::default()),
        }
    }

    #[test]
    fn a_commonjs_entry_keeps_its_exports_and_what_it_requires() {
        let source = "\"use strict\";\nexports.a = require(\"./a\");\nmodule.exports = require(\"b\");\n";
        let transpiled = TranspiledModule {
            code: source.to_string(),
            source_map: None,
            format: ModuleFormat::CommonJs,
            declared_module_globals: Vec::new(),
            commonjs_exports: vec!["a".to_string()],
            commonjs_reexports: vec!["b".to_string()],
            commonjs_requires: vec!["./a".to_string(), "b".to_string()],
            strict: true,
            es_module: None,
        };
        let back = decode(&encode(&transpiled, source).expect("encodes"), source).expect("decodes");
        assert_eq!(back.format, ModuleFormat::CommonJs);
        assert_eq!(back.commonjs_exports, transpiled.commonjs_exports);
        assert_eq!(back.commonjs_reexports, transpiled.commonjs_reexports);
        assert_eq!(back.commonjs_requires, transpiled.commonjs_requires);
        assert!(back.strict);
        assert_eq!(back.code, source);
    }

    #[test]
    fn an_entry_reads_back_as_written_and_plain_code_is_not_stored_twice() {
        let source = "export const a: number = 1;";
        let transpiled = module("export const a = 1;");
        let bytes = encode(&transpiled, source).expect("encodes");
        let back = decode(&bytes, source).expect("decodes");
        assert_eq!(back.code, transpiled.code);
        assert_eq!(back.source_map, transpiled.source_map);
        assert_eq!(back.declared_module_globals, vec!["require"]);
        assert_eq!(back.es_module, transpiled.es_module);

        let plain = module(source);
        let plain_bytes = encode(&plain, source).expect("encodes");
        assert!(plain_bytes.len() < bytes.len());
        assert_eq!(decode(&plain_bytes, source).expect("decodes").code, source);
    }

    #[test]
    fn a_truncated_or_flipped_entry_is_refused() {
        let source = "export const a: number = 1;";
        let bytes = encode(&module("export const a = 1;"), source).expect("encodes");
        for cut in [0, 10, HEADER_LEN, bytes.len() - 1] {
            assert!(decode(&bytes[..cut], source).is_none(), "cut at {cut}");
        }
        for at in [0, 9, 15, 30, HEADER_LEN + 3, bytes.len() - 2] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x20;
            assert!(decode(&flipped, source).is_none(), "flipped at {at}");
        }
    }

    #[test]
    fn trimming_removes_the_oldest_entries_until_well_under_the_bound() {
        let dir = tempfile::tempdir().expect("temp dir");
        let shard = dir.path().join("ab");
        std::fs::create_dir_all(&shard).expect("shard");
        for index in 0..10u64 {
            let path = shard.join(format!("entry{index}"));
            std::fs::write(&path, vec![0u8; 1000]).expect("write");
            let time = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + index);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|file| file.set_modified(time))
                .expect("set time");
        }
        trim(dir.path(), 5000);
        let mut left: Vec<String> = std::fs::read_dir(&shard)
            .expect("read")
            .flatten()
            .map(|file| file.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["entry6", "entry7", "entry8", "entry9"]);
    }
}
