//! Synchronous file-system ops behind `node:fs`. Errors read like Node's
//! (`ENOENT: no such file or directory, open '/x'`) so the JS side can give
//! them Node's `code` property.

use std::io;
use std::path::Path;

use deno_core::{JsBuffer, op2};
use deno_error::JsErrorBox;

/// Node's code and text for an I/O error.
pub fn node_error_code_of(error: &io::Error) -> (&'static str, &'static str) {
    match error.raw_os_error() {
        Some(1) => ("EPERM", "operation not permitted"),
        Some(2) => ("ENOENT", "no such file or directory"),
        Some(13) => ("EACCES", "permission denied"),
        Some(17) => ("EEXIST", "file already exists"),
        Some(20) => ("ENOTDIR", "not a directory"),
        Some(21) => ("EISDIR", "illegal operation on a directory"),
        Some(22) => ("EINVAL", "invalid argument"),
        Some(39) => ("ENOTEMPTY", "directory not empty"),
        Some(40) => ("ELOOP", "too many symbolic links encountered"),
        _ => match error.kind() {
            io::ErrorKind::NotFound => ("ENOENT", "no such file or directory"),
            io::ErrorKind::PermissionDenied => ("EACCES", "permission denied"),
            io::ErrorKind::AlreadyExists => ("EEXIST", "file already exists"),
            _ => ("EIO", "i/o error"),
        },
    }
}

/// A read that failed: Node opens first, so a missing file fails `open` with
/// the path, while a directory opens fine and fails the `read`, without one.
fn read_error(path: &str, error: &io::Error) -> JsErrorBox {
    if error.raw_os_error() == Some(21) {
        let (code, text) = node_error_code_of(error);
        return JsErrorBox::generic(format!("{code}: {text}, read"));
    }
    fs_error("open", path, error)
}

/// Node's text for a failed call on a path: `ENOENT: no such file or directory, open '/x'`.
pub fn fs_error(syscall: &str, path: &str, error: &io::Error) -> JsErrorBox {
    let (code, text) = node_error_code_of(error);
    JsErrorBox::generic(format!("{code}: {text}, {syscall} '{path}'"))
}

#[op2(fast)]
pub fn op_pihost_fs_exists(#[string] path: &str) -> bool {
    Path::new(path).exists()
}

#[op2]
#[string]
pub fn op_pihost_fs_read_text(#[string] path: &str) -> Result<String, JsErrorBox> {
    let bytes = std::fs::read(path).map_err(|error| read_error(path, &error))?;
    // Node decodes invalid UTF-8 with replacement characters rather than failing.
    Ok(String::from_utf8(bytes).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()))
}

#[op2]
#[buffer]
pub fn op_pihost_fs_read_bytes(#[string] path: &str) -> Result<Vec<u8>, JsErrorBox> {
    std::fs::read(path).map_err(|error| read_error(path, &error))
}

#[op2]
pub fn op_pihost_fs_write(#[string] path: &str, #[buffer] data: JsBuffer, append: bool) -> Result<(), JsErrorBox> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .map_err(|error| fs_error("open", path, &error))?;
    file.write_all(&data).map_err(|error| fs_error("write", path, &error))
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileStat {
    is_file: bool,
    is_directory: bool,
    is_symbolic_link: bool,
    size: u64,
    mode: u32,
    mtime_ms: f64,
    atime_ms: f64,
    ctime_ms: f64,
    birthtime_ms: f64,
    dev: u64,
    ino: u64,
    nlink: u64,
    uid: u32,
    gid: u32,
}

fn millis(time: io::Result<std::time::SystemTime>) -> f64 {
    time.ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|duration| duration.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

#[op2]
#[serde]
pub fn op_pihost_fs_stat(#[string] path: &str, follow_links: bool) -> Result<FileStat, JsErrorBox> {
    use std::os::unix::fs::MetadataExt;
    let (syscall, metadata) = if follow_links {
        ("stat", std::fs::metadata(path))
    } else {
        ("lstat", std::fs::symlink_metadata(path))
    };
    let metadata = metadata.map_err(|error| fs_error(syscall, path, &error))?;
    let file_type = metadata.file_type();
    Ok(FileStat {
        is_file: file_type.is_file(),
        is_directory: file_type.is_dir(),
        is_symbolic_link: file_type.is_symlink(),
        size: metadata.len(),
        mode: metadata.mode(),
        mtime_ms: millis(metadata.modified()),
        atime_ms: millis(metadata.accessed()),
        ctime_ms: metadata.ctime() as f64 * 1000.0 + metadata.ctime_nsec() as f64 / 1e6,
        birthtime_ms: millis(metadata.created()),
        dev: metadata.dev(),
        ino: metadata.ino(),
        nlink: metadata.nlink(),
        uid: metadata.uid(),
        gid: metadata.gid(),
    })
}

#[derive(serde::Serialize)]
pub struct DirEntry {
    name: String,
    /// "file", "directory", "symlink" or "other"; never follows links, as Node's withFileTypes.
    kind: &'static str,
}

#[op2]
#[serde]
pub fn op_pihost_fs_readdir(#[string] path: &str) -> Result<Vec<DirEntry>, JsErrorBox> {
    let entries = std::fs::read_dir(path).map_err(|error| fs_error("scandir", path, &error))?;
    let mut listed = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|error| fs_error("scandir", path, &error))?;
        let kind = match entry.file_type() {
            Ok(file_type) if file_type.is_symlink() => "symlink",
            Ok(file_type) if file_type.is_dir() => "directory",
            Ok(file_type) if file_type.is_file() => "file",
            _ => "other",
        };
        listed.push(DirEntry {
            name: entry.file_name().to_string_lossy().into_owned(),
            kind,
        });
    }
    // Node (libuv) returns names sorted by their bytes.
    listed.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    Ok(listed)
}

#[op2(fast)]
pub fn op_pihost_fs_mkdir(#[string] path: &str, recursive: bool) -> Result<(), JsErrorBox> {
    let result = if recursive {
        std::fs::create_dir_all(path)
    } else {
        std::fs::create_dir(path)
    };
    result.map_err(|error| fs_error("mkdir", path, &error))
}

#[op2]
#[string]
pub fn op_pihost_fs_realpath(#[string] path: &str) -> Result<String, JsErrorBox> {
    std::fs::canonicalize(path)
        .map(|real| real.display().to_string())
        .map_err(|error| fs_error("realpath", path, &error))
}

#[op2(fast)]
pub fn op_pihost_fs_rm(#[string] path: &str, recursive: bool, force: bool) -> Result<(), JsErrorBox> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if force && error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(fs_error("rm", path, &error)),
    };
    let result = if metadata.is_dir() {
        if recursive {
            std::fs::remove_dir_all(path)
        } else {
            std::fs::remove_dir(path)
        }
    } else {
        std::fs::remove_file(path)
    };
    result.map_err(|error| fs_error("rm", path, &error))
}

#[op2(fast)]
pub fn op_pihost_fs_rename(#[string] from: &str, #[string] to: &str) -> Result<(), JsErrorBox> {
    std::fs::rename(from, to).map_err(|error| fs_error("rename", from, &error))
}

/// Creates a symbolic link at `path` pointing to `target` (as written).
#[op2(fast)]
pub fn op_pihost_fs_symlink(#[string] target: &str, #[string] path: &str) -> Result<(), JsErrorBox> {
    std::os::unix::fs::symlink(target, path).map_err(|error| fs_error_pair("symlink", target, path, &error))
}

/// What a symbolic link points to, as stored.
#[op2]
#[string]
pub fn op_pihost_fs_readlink(#[string] path: &str) -> Result<String, JsErrorBox> {
    std::fs::read_link(path)
        .map(|target| target.display().to_string())
        .map_err(|error| fs_error("readlink", path, &error))
}

/// Sets the permission bits.
#[op2(fast)]
pub fn op_pihost_fs_chmod(#[string] path: &str, mode: u32) -> Result<(), JsErrorBox> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|error| fs_error("chmod", path, &error))
}

/// access(2): whether the process may read/write/execute `path` (`mode` as
/// Node's R_OK | W_OK | X_OK, 0 for existence).
#[op2(fast)]
pub fn op_pihost_fs_access(#[string] path: &str, mode: i32) -> Result<(), JsErrorBox> {
    let Ok(c_path) = std::ffi::CString::new(path) else {
        return Err(fs_error("access", path, &io::Error::from(io::ErrorKind::InvalidInput)));
    };
    // SAFETY: a NUL-terminated path that outlives the call; access(2) only reads it.
    let result = unsafe { libc::access(c_path.as_ptr(), mode) };
    if result == 0 {
        Ok(())
    } else {
        Err(fs_error("access", path, &io::Error::last_os_error()))
    }
}

/// Removes an empty directory (`rmdir`) or a file (`unlink`), failing as
/// those system calls do.
#[op2(fast)]
pub fn op_pihost_fs_remove(#[string] path: &str, directory: bool) -> Result<(), JsErrorBox> {
    if directory {
        std::fs::remove_dir(path).map_err(|error| fs_error("rmdir", path, &error))
    } else {
        std::fs::remove_file(path).map_err(|error| fs_error("unlink", path, &error))
    }
}

/// Copies a file with its permissions; `exclusive` fails when `to` exists
/// (COPYFILE_EXCL).
#[op2(fast)]
pub fn op_pihost_fs_copy(#[string] from: &str, #[string] to: &str, exclusive: bool) -> Result<(), JsErrorBox> {
    if exclusive && std::fs::symlink_metadata(to).is_ok() {
        return Err(fs_error_pair(
            "copyfile",
            from,
            to,
            &io::Error::from(io::ErrorKind::AlreadyExists),
        ));
    }
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|error| fs_error_pair("copyfile", from, to, &error))
}

/// Cuts or extends a file to `length` bytes.
#[op2(fast)]
pub fn op_pihost_fs_truncate(#[string] path: &str, #[number] length: u64) -> Result<(), JsErrorBox> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|file| file.set_len(length))
        .map_err(|error| fs_error("open", path, &error))
}

/// Node's text for a call on two paths: `EEXIST: file already exists, symlink 'a' -> 'b'`.
fn fs_error_pair(syscall: &str, from: &str, to: &str, error: &io::Error) -> JsErrorBox {
    let (code, text) = node_error_code_of(error);
    JsErrorBox::generic(format!("{code}: {text}, {syscall} '{from}' -> '{to}'"))
}
