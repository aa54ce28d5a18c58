//! Folders of files pihost keeps between processes (transpiled modules, the
//! startup snapshot): where each is, as the environment or the embedder
//! chooses, and how its files are written so that processes can share it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};

use sha2::{Digest, Sha256};

/// Where a cache lives, or that there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// Files are read from and written to this folder.
    Folder(PathBuf),
    /// No cache: every process does the work again.
    Off,
}

impl Location {
    /// `Off` when `switch` is `off` or `0`; else the folder `folder_variable`
    /// names; else `default`.
    pub(crate) fn from_environment(switch: &str, folder_variable: &str, default: Option<PathBuf>) -> Self {
        if std::env::var(switch).is_ok_and(|value| value == "off" || value == "0") {
            return Location::Off;
        }
        if let Some(dir) = std::env::var_os(folder_variable).filter(|dir| !dir.is_empty()) {
            return Location::Folder(PathBuf::from(dir));
        }
        default.map_or(Location::Off, Location::Folder)
    }
}

/// A cache's location for this process: the environment's choice until the
/// embedder sets another.
pub(crate) struct ChosenLocation(LazyLock<Mutex<Location>>);

impl ChosenLocation {
    pub(crate) const fn new(from_environment: fn() -> Mutex<Location>) -> Self {
        Self(LazyLock::new(from_environment))
    }

    pub(crate) fn set(&self, location: Location) {
        if let Ok(mut current) = self.0.lock() {
            *current = location;
        }
    }

    pub(crate) fn get(&self) -> Location {
        self.0.lock().map(|location| location.clone()).unwrap_or(Location::Off)
    }

    pub(crate) fn folder(&self) -> Option<PathBuf> {
        match self.get() {
            Location::Folder(dir) => Some(dir),
            Location::Off => None,
        }
    }
}

/// Writes `bytes` to `path` atomically. The temporary file is named
/// `<temporary_prefix><pid>-<n>` in the same folder (left behind only if the
/// process dies mid-write; the caches that use this remove old ones).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8], temporary_prefix: &str) -> std::io::Result<()> {
    static UNIQUE: AtomicU64 = AtomicU64::new(0);
    let parent = path.parent().ok_or_else(|| std::io::Error::other("no parent folder"))?;
    std::fs::create_dir_all(parent)?;
    let temporary = parent.join(format!(
        "{temporary_prefix}{}-{}",
        std::process::id(),
        UNIQUE.fetch_add(1, Ordering::Relaxed)
    ));
    let result = std::fs::File::create(&temporary)
        .and_then(|mut file| file.write_all(bytes))
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// A sealed file's header: magic, format, body length, the body's SHA-256.
pub(crate) const SEAL_LEN: usize = 8 + 4 + 8 + 32;

/// `body` behind a header that lets [`unseal`] detect a file of another
/// kind or layout, a truncated one and a corrupted one.
pub(crate) fn seal(magic: &[u8; 8], format: u32, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(SEAL_LEN + body.len());
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&format.to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&Sha256::digest(body));
    bytes.extend_from_slice(body);
    bytes
}

/// The body [`seal`] put in `bytes`, if they are whole and of this magic
/// and format.
pub(crate) fn unseal<'a>(magic: &[u8; 8], format: u32, bytes: &'a [u8]) -> Option<&'a [u8]> {
    let header = bytes.get(..SEAL_LEN)?;
    if &header[..8] != magic || header[8..12] != format.to_le_bytes() {
        return None;
    }
    let length = u64::from_le_bytes(header[12..20].try_into().ok()?);
    let body = bytes.get(SEAL_LEN..)?;
    if body.len() as u64 != length || Sha256::digest(body).as_slice() != &header[20..SEAL_LEN] {
        return None;
    }
    Some(body)
}
