//! Node's codes and texts for I/O errors, for the ops that report one to
//! extensions (`require` of a file that cannot be read, `pi.exec` of a
//! program that cannot start).

use std::io;

use deno_error::JsErrorBox;

/// Node's code and text for an I/O error (`ENOENT`, "no such file or directory").
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

/// Node's text for a failed call on a path: `ENOENT: no such file or directory, open '/x'`.
pub fn fs_error(syscall: &str, path: &str, error: &io::Error) -> JsErrorBox {
    let (code, text) = node_error_code_of(error);
    JsErrorBox::generic(format!("{code}: {text}, {syscall} '{path}'"))
}
