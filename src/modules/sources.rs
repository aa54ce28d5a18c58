//! Each file's text and transpiled module, read once per process.
//!
//! The loader, `require`, and the export look-ups of lenient imports and
//! CommonJS interop all ask for the same files: an ES module is read once
//! for its importers' look-ups and again when it loads. Here a file is read
//! and transpiled once; later requests only check with a `stat` that it did
//! not change (length, modification time, inode), so an edited file is read
//! again, as a reload must see it.
//!
//! The prefetcher (`super::prefetch`) asks for files from a second thread
//! while the engine's thread works; a file one thread is reading or
//! transpiling is waited for by the other, never done twice.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, LazyLock, Mutex};
use std::time::Instant;

use deno_ast::{MediaType, ModuleSpecifier};

use super::load_timing::{self, Stage};
use crate::transpile::{self, TranspileError, TranspiledModule};

/// A file as the loader uses it.
#[derive(Clone)]
pub(crate) enum SourceFile {
    /// A JSON file's text.
    Json(Arc<str>),
    /// A code file's transpiled module.
    Code(Arc<TranspiledModule>),
}

/// Why a file could not be had.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SourceError {
    /// It could not be read.
    #[error("Cannot read {path}: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// It could not be transpiled.
    #[error(transparent)]
    Transpile(#[from] TranspileError),
}

impl SourceError {
    /// The I/O error of a failed read.
    pub(crate) fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            SourceError::Read { error, .. } => Some(error),
            SourceError::Transpile(_) => None,
        }
    }
}

/// What identifies one version of a file without reading it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Version {
    length: u64,
    modified: Option<std::time::SystemTime>,
    inode: u64,
}

fn version_of(metadata: &std::fs::Metadata) -> Version {
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(metadata);
    #[cfg(not(unix))]
    let inode = 0;
    Version {
        length: metadata.len(),
        modified: metadata.modified().ok(),
        inode,
    }
}

/// A file read, in one version of it.
struct Known {
    version: Version,
    file: SourceFile,
    /// The engine has the module's code, which is dropped here
    /// ([`release_code`]): only its shape is kept.
    code_released: bool,
}

static FILES: LazyLock<Mutex<HashMap<PathBuf, Known>>> = LazyLock::new(Default::default);

/// The files some thread is reading and transpiling now.
static IN_FLIGHT: LazyLock<(Mutex<HashSet<PathBuf>>, Condvar)> = LazyLock::new(Default::default);

/// Marks a file in flight until dropped, whichever way its work ends.
struct InFlight<'p>(&'p Path);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        let (files, done) = &*IN_FLIGHT;
        if let Ok(mut files) = files.lock() {
            files.remove(self.0);
        }
        done.notify_all();
    }
}

/// Whether some thread is reading or transpiling `path` now.
pub(crate) fn in_flight(path: &Path) -> bool {
    IN_FLIGHT.0.lock().is_ok_and(|files| files.contains(path))
}

/// Claims `path` for this thread, or waits for the thread that has it and
/// gives `None` (look in [`FILES`] again).
fn claim(path: &Path) -> Option<InFlight<'_>> {
    let (files, done) = &*IN_FLIGHT;
    let Ok(mut in_flight) = files.lock() else {
        // A poisoned set only costs the coordination: do the work here.
        return Some(InFlight(path));
    };
    if in_flight.insert(path.to_path_buf()) {
        return Some(InFlight(path));
    }
    let started = Instant::now();
    while in_flight.contains(path) {
        in_flight = match done.wait(in_flight) {
            Ok(guard) => guard,
            Err(_) => return Some(InFlight(path)),
        };
    }
    // The wait was for the other thread's transpile.
    load_timing::record(Stage::Transpile, started.elapsed());
    None
}

/// What the code of a file needs: all of it, or only its shape.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    Code,
    Shape,
}

fn cached(path: &Path, version: Option<Version>, need: Need) -> Option<SourceFile> {
    let version = version?;
    FILES.lock().ok().and_then(|files| {
        files
            .get(path)
            .filter(|known| known.version == version && (need == Need::Shape || !known.code_released))
            .map(|known| known.file.clone())
    })
}

/// The file at `path` (an absolute path), read and transpiled once per
/// version of it. Its source map names `path`'s `file:` URL.
pub(crate) fn source_file(path: &Path) -> Result<SourceFile, SourceError> {
    file_for(path, Need::Code)
}

/// The file at `path` for a look at what it exports and imports: a module
/// whose code the engine has already may come without its code (an empty
/// `code`), with its shape, export names and format intact.
pub(crate) fn source_shape(path: &Path) -> Result<SourceFile, SourceError> {
    file_for(path, Need::Shape)
}

/// The module at `path` read ahead of the load that will need it, when it
/// has to be transpiled (a first start): `None` when the transpile cache on
/// disk has it, another thread has it in hand, or it is no module. A second
/// start's load reads those in its turn; reading them ahead too would only
/// read each entry twice.
pub(crate) fn source_ahead(path: &Path) -> Option<SourceFile> {
    let version = std::fs::metadata(path).ok().map(|metadata| version_of(&metadata));
    if let Some(file) = cached(path, version, Need::Shape) {
        return Some(file);
    }
    let media_type = MediaType::from_path(path);
    if !transpile::is_code(media_type) || in_flight(path) {
        return None;
    }
    let _claim = claim(path)?;
    let bytes = std::fs::read(path).ok()?;
    let source = super::decode_source(&bytes);
    let specifier = ModuleSpecifier::from_file_path(path).ok()?;
    let file = SourceFile::Code(transpile::transpile_unless_on_disk(&specifier, media_type, &source)?.ok()?);
    keep(path, version, &file);
    Some(file)
}

/// Drops the code of the module at `path`, which an engine has now, and
/// keeps its shape (a CommonJS file's exports and what it requires too): a
/// process held every module's code for its whole life, a copy of what the
/// engine keeps (about 21 MB of text for the real-packages set, 5.7 MB of
/// it CommonJS).
/// Another runtime that loads the file takes it from the disk cache again;
/// without a disk cache nothing is dropped, since it would be transpiled
/// again.
pub(crate) fn release_code(path: &Path) {
    if transpile::disk_cache::location() == transpile::disk_cache::Location::Off {
        return;
    }
    let Ok(mut files) = FILES.lock() else {
        return;
    };
    let Some(known) = files.get_mut(path) else {
        return;
    };
    let SourceFile::Code(module) = &known.file else {
        return;
    };
    if known.code_released {
        return;
    }
    known.file = SourceFile::Code(Arc::new(module.without_code()));
    known.code_released = true;
}

fn file_for(path: &Path, need: Need) -> Result<SourceFile, SourceError> {
    let version = std::fs::metadata(path).ok().map(|metadata| version_of(&metadata));
    // Another thread may have this file in flight: wait for it and look
    // again (if it failed, or read another version, this thread tries).
    let _claim = loop {
        if let Some(file) = cached(path, version, need) {
            return Ok(file);
        }
        if let Some(claim) = claim(path) {
            break claim;
        }
    };
    let started = Instant::now();
    let bytes = std::fs::read(path).map_err(|error| SourceError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    load_timing::record(Stage::Read, started.elapsed());
    let source = super::decode_source(&bytes);
    let media_type = MediaType::from_path(path);
    let file = if media_type == MediaType::Json {
        SourceFile::Json(Arc::from(source.as_ref()))
    } else {
        let started = Instant::now();
        let specifier = ModuleSpecifier::from_file_path(path)
            .map_err(|()| TranspileError::Parse(format!("pihost: not an absolute path: {}", path.display())))?;
        let transpiled = transpile::transpile(&specifier, media_type, &source);
        load_timing::record(Stage::Transpile, started.elapsed());
        SourceFile::Code(transpiled?)
    };
    keep(path, version, &file);
    Ok(file)
}

/// Keeps `file`, read from `path` in `version`, for the threads that ask next.
fn keep(path: &Path, version: Option<Version>, file: &SourceFile) {
    if let (Some(version), Ok(mut files)) = (version, FILES.lock()) {
        files.insert(
            path.to_path_buf(),
            Known {
                version,
                file: file.clone(),
                code_released: false,
            },
        );
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Whether `path` is read and transpiled already, in its current version.
    pub(crate) fn is_known(path: &Path) -> bool {
        let version = std::fs::metadata(path).ok().map(|metadata| version_of(&metadata));
        cached(path, version, Need::Code).is_some()
    }

    fn code_of(file: SourceFile) -> Arc<transpile::TranspiledModule> {
        match file {
            SourceFile::Code(module) => module,
            SourceFile::Json(_) => panic!("a JSON file where code was expected"),
        }
    }

    #[test]
    fn a_released_modules_shape_stays_and_its_code_is_read_again_when_asked_for() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("released.ts");
        std::fs::write(&path, "import { x } from './x.js';\nexport const y: number = x;\n").expect("write");
        let first = code_of(source_file(&path).expect("read"));
        assert!(first.code.contains("export const y = x"), "{}", first.code);
        release_code(&path);
        let shape = code_of(source_shape(&path).expect("shape"));
        assert_eq!(shape.es_module, first.es_module);
        if transpile::disk_cache::location() == transpile::disk_cache::Location::Off {
            // Without a disk cache the code stays.
            assert_eq!(shape.code, first.code);
        } else {
            assert!(shape.code.is_empty(), "released: {}", shape.code);
        }
        assert_eq!(code_of(source_file(&path).expect("again")).code, first.code);
    }

    #[test]
    fn a_released_commonjs_file_keeps_its_exports_and_requires() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("released.cjs");
        std::fs::write(&path, "const x = require('./x.js');\nexports.y = x;\n").expect("write");
        let first = code_of(source_file(&path).expect("read"));
        release_code(&path);
        let shape = code_of(source_shape(&path).expect("shape"));
        assert_eq!(shape.commonjs_exports, vec!["y"]);
        assert_eq!(shape.commonjs_requires, vec!["./x.js"]);
        if transpile::disk_cache::location() != transpile::disk_cache::Location::Off {
            assert!(shape.code.is_empty(), "released: {}", shape.code);
        }
        assert_eq!(code_of(source_file(&path).expect("again")).code, first.code);
    }

    #[test]
    fn a_file_another_thread_has_in_flight_is_waited_for_not_read_twice() {
        let folder = tempfile::tempdir().expect("temp dir");
        let path = folder.path().join("waited.ts");
        std::fs::write(&path, "export const x: number = 1;\n").expect("write");
        let held = claim(&path).expect("nobody has it yet");
        let (sender, receiver) = std::sync::mpsc::channel();
        let asked = path.clone();
        let asker = std::thread::spawn(move || {
            let file = source_file(&asked);
            let _ = sender.send(());
            file.map(|_| ())
        });
        assert!(
            receiver.recv_timeout(std::time::Duration::from_millis(300)).is_err(),
            "a second thread read the file while the first had it"
        );
        drop(held);
        receiver
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the waiting thread goes on once the first lets go");
        asker.join().expect("joins").expect("then reads it itself");
        assert!(is_known(&path));
    }
}
