//! The file system of deno_fs and deno_node, with one check added: in a
//! sandbox, an operation that follows links is also checked against where
//! the links lead. deno_permissions checks the path as written, so without
//! this a link inside a granted folder would reach any file it points to.
//! Operations on a link itself (lstat, readlink, unlink, rename, lchmod…)
//! keep the check of the path as written.
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use deno_fs::{FileSystem, FsDirEntry, FsFileType, FsReadDirRc, OpenOptions, RealFs};
use deno_io::fs::{File, FsError, FsResult, FsStat, FsStatFs};
use deno_permissions::{CheckedPath, CheckedPathBuf, OpenAccessKind};

use crate::permissions::PermissionSlot;

#[derive(Debug, Default)]
pub(crate) struct LinkCheckingFs {
    real: RealFs,
    permissions: PermissionSlot,
}

impl LinkCheckingFs {
    pub(crate) fn new(permissions: PermissionSlot) -> Self {
        Self {
            real: RealFs,
            permissions,
        }
    }

    /// Checks where `path` leads when links are followed. A path that does
    /// not exist yet (a file about to be created) is checked through the
    /// real path of the folder it would be made in.
    fn check_target(&self, path: &Path, access: OpenAccessKind) -> FsResult<()> {
        let Some(restrictions) = self.permissions.get() else {
            return Ok(());
        };
        // deno_permissions may already hand over the real path (it resolves
        // links to spot special files), still checked only as written: the
        // real path is always checked here.
        let Some(target) = followed(path) else {
            return Ok(());
        };
        // An I/O error, because deno_fs words only those: a permission
        // error here would reach the extension as the bare operation name.
        restrictions
            .check_never_granted(&target)
            .map_err(|refused| FsError::Io(std::io::Error::new(std::io::ErrorKind::PermissionDenied, refused)))?;
        // The same path again is the same decision, already audited.
        let again = target == path;
        let check = || restrictions.container.check_open(Cow::Owned(target), access, None);
        let checked = if again {
            crate::permissions::audit::quietly(check)
        } else {
            check()
        };
        checked.map(|_| ()).map_err(|refused| {
            FsError::Io(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                refused.to_string(),
            ))
        })
    }
}

fn followed(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let parent = path.parent()?;
    let name = path.file_name()?;
    std::fs::canonicalize(parent).ok().map(|folder| folder.join(name))
}

fn access_of(options: &OpenOptions) -> OpenAccessKind {
    let writes = options.write || options.append || options.create || options.create_new || options.truncate;
    match (options.read, writes) {
        (true, true) => OpenAccessKind::ReadWrite,
        (false, true) => OpenAccessKind::Write,
        _ => OpenAccessKind::Read,
    }
}

const READ: OpenAccessKind = OpenAccessKind::Read;
const WRITE: OpenAccessKind = OpenAccessKind::Write;

#[async_trait::async_trait(?Send)]
impl FileSystem for LinkCheckingFs {
    fn cwd(&self) -> FsResult<PathBuf> {
        self.real.cwd()
    }
    fn tmp_dir(&self) -> FsResult<PathBuf> {
        self.real.tmp_dir()
    }
    fn chdir(&self, path: &CheckedPath) -> FsResult<()> {
        self.check_target(path, READ)?;
        self.real.chdir(path)
    }
    fn umask(&self, mask: Option<u32>) -> FsResult<u32> {
        self.real.umask(mask)
    }

    fn open_sync(&self, path: &CheckedPath, options: OpenOptions) -> FsResult<Rc<dyn File>> {
        self.check_target(path, access_of(&options))?;
        self.real.open_sync(path, options)
    }
    async fn open_async<'a>(&'a self, path: CheckedPathBuf, options: OpenOptions) -> FsResult<Rc<dyn File>> {
        self.check_target(&path, access_of(&options))?;
        self.real.open_async(path, options).await
    }

    fn mkdir_sync(&self, path: &CheckedPath, recursive: bool, mode: Option<u32>) -> FsResult<()> {
        self.check_target(path, WRITE)?;
        self.real.mkdir_sync(path, recursive, mode)
    }
    async fn mkdir_async(&self, path: CheckedPathBuf, recursive: bool, mode: Option<u32>) -> FsResult<()> {
        self.check_target(&path, WRITE)?;
        self.real.mkdir_async(path, recursive, mode).await
    }

    fn chmod_sync(&self, path: &CheckedPath, mode: u32) -> FsResult<()> {
        self.check_target(path, WRITE)?;
        self.real.chmod_sync(path, mode)
    }
    async fn chmod_async(&self, path: CheckedPathBuf, mode: u32) -> FsResult<()> {
        self.check_target(&path, WRITE)?;
        self.real.chmod_async(path, mode).await
    }

    fn chown_sync(&self, path: &CheckedPath, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.check_target(path, WRITE)?;
        self.real.chown_sync(path, uid, gid)
    }
    async fn chown_async(&self, path: CheckedPathBuf, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.check_target(&path, WRITE)?;
        self.real.chown_async(path, uid, gid).await
    }

    fn lchmod_sync(&self, path: &CheckedPath, mode: u32) -> FsResult<()> {
        self.real.lchmod_sync(path, mode)
    }
    async fn lchmod_async(&self, path: CheckedPathBuf, mode: u32) -> FsResult<()> {
        self.real.lchmod_async(path, mode).await
    }

    fn lchown_sync(&self, path: &CheckedPath, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.real.lchown_sync(path, uid, gid)
    }
    async fn lchown_async(&self, path: CheckedPathBuf, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        self.real.lchown_async(path, uid, gid).await
    }

    fn remove_sync(&self, path: &CheckedPath, recursive: bool) -> FsResult<()> {
        self.real.remove_sync(path, recursive)
    }
    async fn remove_async(&self, path: CheckedPathBuf, recursive: bool) -> FsResult<()> {
        self.real.remove_async(path, recursive).await
    }

    fn copy_file_sync(&self, oldpath: &CheckedPath, newpath: &CheckedPath) -> FsResult<()> {
        self.check_target(oldpath, READ)?;
        self.check_target(newpath, WRITE)?;
        self.real.copy_file_sync(oldpath, newpath)
    }
    async fn copy_file_async(&self, oldpath: CheckedPathBuf, newpath: CheckedPathBuf) -> FsResult<()> {
        self.check_target(&oldpath, READ)?;
        self.check_target(&newpath, WRITE)?;
        self.real.copy_file_async(oldpath, newpath).await
    }

    fn cp_sync(&self, path: &CheckedPath, new_path: &CheckedPath) -> FsResult<()> {
        self.check_target(path, READ)?;
        self.check_target(new_path, WRITE)?;
        self.real.cp_sync(path, new_path)
    }
    async fn cp_async(&self, path: CheckedPathBuf, new_path: CheckedPathBuf) -> FsResult<()> {
        self.check_target(&path, READ)?;
        self.check_target(&new_path, WRITE)?;
        self.real.cp_async(path, new_path).await
    }

    fn stat_sync(&self, path: &CheckedPath) -> FsResult<FsStat> {
        self.check_target(path, READ)?;
        self.real.stat_sync(path)
    }
    async fn stat_async(&self, path: CheckedPathBuf) -> FsResult<FsStat> {
        self.check_target(&path, READ)?;
        self.real.stat_async(path).await
    }

    fn lstat_sync(&self, path: &CheckedPath) -> FsResult<FsStat> {
        self.real.lstat_sync(path)
    }
    async fn lstat_async(&self, path: CheckedPathBuf) -> FsResult<FsStat> {
        self.real.lstat_async(path).await
    }

    fn statfs_sync(&self, path: &CheckedPath, bigint: bool) -> FsResult<FsStatFs> {
        self.check_target(path, READ)?;
        self.real.statfs_sync(path, bigint)
    }
    async fn statfs_async(&self, path: CheckedPathBuf, bigint: bool) -> FsResult<FsStatFs> {
        self.check_target(&path, READ)?;
        self.real.statfs_async(path, bigint).await
    }

    fn realpath_sync(&self, path: &CheckedPath) -> FsResult<PathBuf> {
        self.check_target(path, READ)?;
        self.real.realpath_sync(path)
    }
    async fn realpath_async(&self, path: CheckedPathBuf) -> FsResult<PathBuf> {
        self.check_target(&path, READ)?;
        self.real.realpath_async(path).await
    }

    fn read_dir_sync(&self, path: &CheckedPath) -> FsResult<Vec<FsDirEntry>> {
        self.check_target(path, READ)?;
        self.real.read_dir_sync(path)
    }
    async fn read_dir_async(&self, path: CheckedPathBuf) -> FsResult<FsReadDirRc> {
        self.check_target(&path, READ)?;
        self.real.read_dir_async(path).await
    }

    fn rename_sync(&self, oldpath: &CheckedPath, newpath: &CheckedPath) -> FsResult<()> {
        self.real.rename_sync(oldpath, newpath)
    }
    async fn rename_async(&self, oldpath: CheckedPathBuf, newpath: CheckedPathBuf) -> FsResult<()> {
        self.real.rename_async(oldpath, newpath).await
    }

    fn rmdir_sync(&self, path: &CheckedPath) -> FsResult<()> {
        self.real.rmdir_sync(path)
    }
    async fn rmdir_async(&self, path: CheckedPathBuf) -> FsResult<()> {
        self.real.rmdir_async(path).await
    }

    fn link_sync(&self, oldpath: &CheckedPath, newpath: &CheckedPath) -> FsResult<()> {
        // A hard link to a file reached through links is that file.
        self.check_target(oldpath, OpenAccessKind::ReadWrite)?;
        self.real.link_sync(oldpath, newpath)
    }
    async fn link_async(&self, oldpath: CheckedPathBuf, newpath: CheckedPathBuf) -> FsResult<()> {
        self.check_target(&oldpath, OpenAccessKind::ReadWrite)?;
        self.real.link_async(oldpath, newpath).await
    }

    fn symlink_sync(
        &self,
        oldpath: &CheckedPath,
        newpath: &CheckedPath,
        file_type: Option<FsFileType>,
    ) -> FsResult<()> {
        self.real.symlink_sync(oldpath, newpath, file_type)
    }
    async fn symlink_async(
        &self,
        oldpath: CheckedPathBuf,
        newpath: CheckedPathBuf,
        file_type: Option<FsFileType>,
    ) -> FsResult<()> {
        self.real.symlink_async(oldpath, newpath, file_type).await
    }

    fn read_link_sync(&self, path: &CheckedPath) -> FsResult<PathBuf> {
        self.real.read_link_sync(path)
    }
    async fn read_link_async(&self, path: CheckedPathBuf) -> FsResult<PathBuf> {
        self.real.read_link_async(path).await
    }

    fn truncate_sync(&self, path: &CheckedPath, len: u64) -> FsResult<()> {
        self.check_target(path, WRITE)?;
        self.real.truncate_sync(path, len)
    }
    async fn truncate_async(&self, path: CheckedPathBuf, len: u64) -> FsResult<()> {
        self.check_target(&path, WRITE)?;
        self.real.truncate_async(path, len).await
    }

    fn utime_sync(
        &self,
        path: &CheckedPath,
        atime_secs: i64,
        atime_nanos: u32,
        mtime_secs: i64,
        mtime_nanos: u32,
    ) -> FsResult<()> {
        self.check_target(path, WRITE)?;
        self.real
            .utime_sync(path, atime_secs, atime_nanos, mtime_secs, mtime_nanos)
    }
    async fn utime_async(
        &self,
        path: CheckedPathBuf,
        atime_secs: i64,
        atime_nanos: u32,
        mtime_secs: i64,
        mtime_nanos: u32,
    ) -> FsResult<()> {
        self.check_target(&path, WRITE)?;
        self.real
            .utime_async(path, atime_secs, atime_nanos, mtime_secs, mtime_nanos)
            .await
    }

    fn lutime_sync(
        &self,
        path: &CheckedPath,
        atime_secs: i64,
        atime_nanos: u32,
        mtime_secs: i64,
        mtime_nanos: u32,
    ) -> FsResult<()> {
        self.real
            .lutime_sync(path, atime_secs, atime_nanos, mtime_secs, mtime_nanos)
    }
    async fn lutime_async(
        &self,
        path: CheckedPathBuf,
        atime_secs: i64,
        atime_nanos: u32,
        mtime_secs: i64,
        mtime_nanos: u32,
    ) -> FsResult<()> {
        self.real
            .lutime_async(path, atime_secs, atime_nanos, mtime_secs, mtime_nanos)
            .await
    }

    fn write_file_sync(&self, path: &CheckedPath, options: OpenOptions, data: &[u8]) -> FsResult<()> {
        self.check_target(path, access_of(&options))?;
        self.real.write_file_sync(path, options, data)
    }
    async fn write_file_async<'a>(
        &'a self,
        path: CheckedPathBuf,
        options: OpenOptions,
        data: Box<[u8]>,
    ) -> FsResult<()> {
        self.check_target(&path, access_of(&options))?;
        self.real.write_file_async(path, options, data).await
    }

    fn read_file_sync(&self, path: &CheckedPath, options: OpenOptions) -> FsResult<Cow<'static, [u8]>> {
        self.check_target(path, READ)?;
        self.real.read_file_sync(path, options)
    }
    async fn read_file_async<'a>(&'a self, path: CheckedPathBuf, options: OpenOptions) -> FsResult<Cow<'static, [u8]>> {
        self.check_target(&path, READ)?;
        self.real.read_file_async(path, options).await
    }

    fn is_file_sync(&self, path: &CheckedPath) -> bool {
        self.check_target(path, READ).is_ok() && self.real.is_file_sync(path)
    }
    fn is_dir_sync(&self, path: &CheckedPath) -> bool {
        self.check_target(path, READ).is_ok() && self.real.is_dir_sync(path)
    }

    fn exists_sync(&self, path: &CheckedPath) -> bool {
        self.check_target(path, READ).is_ok() && self.real.exists_sync(path)
    }
    async fn exists_async(&self, path: CheckedPathBuf) -> FsResult<bool> {
        self.check_target(&path, READ)?;
        self.real.exists_async(path).await
    }

    fn read_text_file_lossy_sync(&self, path: &CheckedPath) -> FsResult<Cow<'static, str>> {
        self.check_target(path, READ)?;
        self.real.read_text_file_lossy_sync(path)
    }
    async fn read_text_file_lossy_async<'a>(&'a self, path: CheckedPathBuf) -> FsResult<Cow<'static, str>> {
        self.check_target(&path, READ)?;
        self.real.read_text_file_lossy_async(path).await
    }
}
