//! Each file's text and transpiled module, read once per process.
//!
//! The loader, `require`, and the export look-ups of lenient imports and
//! CommonJS interop all ask for the same files: an ES module is read once
//! for its importers' look-ups and again when it loads. Here a file is read
//! and transpiled once; later requests only check with a `stat` that it did
//! not change (length, modification time, inode), so an edited file is read
//! again, as a reload must see it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
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

static FILES: LazyLock<Mutex<HashMap<PathBuf, (Version, SourceFile)>>> = LazyLock::new(Default::default);

/// The file at `path` (an absolute path), read and transpiled once per
/// version of it. Its source map names `path`'s `file:` URL.
pub(crate) fn source_file(path: &Path) -> Result<SourceFile, SourceError> {
    let version = std::fs::metadata(path).ok().map(|metadata| version_of(&metadata));
    if let Some(version) = version
        && let Some(file) = FILES.lock().ok().and_then(|files| {
            files
                .get(path)
                .filter(|(seen, _)| *seen == version)
                .map(|(_, file)| file.clone())
        })
    {
        return Ok(file);
    }
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
    if let (Some(version), Ok(mut files)) = (version, FILES.lock()) {
        files.insert(path.to_path_buf(), (version, file.clone()));
    }
    Ok(file)
}
