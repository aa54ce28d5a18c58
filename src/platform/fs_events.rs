//! File-system watching for Node's `fs.watch` and `fs.promises.watch`:
//! deno_node builds both on `Deno.watchFs` (js/platform/fs-events.js), which
//! these ops serve with the notify crate.
//!
//! A watcher is a resource; polling it gives the next event, or nothing once
//! it is closed. Events are what libuv gives Node on Linux: creations,
//! removals and renames (`rename`), and content and attribute changes
//! (`change`); opens and closes of files, which inotify also reports, are
//! dropped.
//!
//! One notify watcher (one inotify instance and its thread) serves many
//! watches, as libuv shares one inotify instance per loop: a program like
//! chokidar watches every folder and file of a tree, and the system allows
//! a user only some 128 inotify instances. Two watches share a notify watcher
//! unless their events would be confused there (notify names an event by a
//! path, not by the watch it came from): a folder and its own entries, a
//! recursive watch and anything under it, or one path watched both ways.
//! Those go to different notify watchers, so every watch sees each event once.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use deno_core::parking_lot::Mutex;
use deno_core::{AsyncRefCell, CancelFuture, CancelHandle, OpState, RcRef, Resource, ResourceId, op2};
use deno_permissions::{OpenAccessKind, PermissionsContainer};
use notify::event::{EventKind, ModifyKind, RenameMode};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use serde::Serialize;
use tokio::sync::mpsc;

/// Events a watcher holds for JavaScript before it drops new ones (a
/// program that stops reading a watcher it keeps open must not grow the
/// host without bound).
const QUEUE: usize = 4096;

/// What the ops fail with; each variant names the error class JavaScript
/// sees (`Deno.errors.NotFound` for a missing path, which deno_node turns
/// into Node's ENOENT).
#[derive(Debug, thiserror::Error, deno_error::JsError)]
pub enum FsWatchError {
    #[class(inherit)]
    #[error(transparent)]
    Permission(#[from] deno_permissions::PermissionCheckError),
    #[class(inherit)]
    #[error(transparent)]
    Resource(#[from] deno_core::error::ResourceError),
    #[class(inherit)]
    #[error(transparent)]
    Io(#[from] std::io::Error),
    #[class(generic)]
    #[error("cannot watch files: {0}")]
    Backend(String),
}

impl FsWatchError {
    fn from_notify(error: notify::Error) -> Self {
        Failure::of(&error).into_error()
    }
}

/// A notify error as it travels from notify's thread to a watcher, which
/// turns it into an [`FsWatchError`] when JavaScript polls.
#[derive(Debug, Clone)]
enum Failure {
    Os(i32),
    Io(std::io::ErrorKind, String),
    Backend(String),
}

impl Failure {
    fn of(error: &notify::Error) -> Self {
        match &error.kind {
            notify::ErrorKind::Io(io) => match io.raw_os_error() {
                Some(code) => Self::Os(code),
                None => Self::Io(io.kind(), io.to_string()),
            },
            notify::ErrorKind::PathNotFound | notify::ErrorKind::WatchNotFound => Self::Os(libc::ENOENT),
            // inotify's limit on watches per user, which Node reports as ENOSPC.
            notify::ErrorKind::MaxFilesWatch => Self::Os(libc::ENOSPC),
            notify::ErrorKind::Generic(message) => Self::Backend(message.clone()),
            notify::ErrorKind::InvalidConfig(config) => Self::Backend(format!("invalid configuration {config:?}")),
        }
    }

    fn into_error(self) -> FsWatchError {
        match self {
            Self::Os(code) => FsWatchError::Io(std::io::Error::from_raw_os_error(code)),
            Self::Io(kind, message) => FsWatchError::Io(std::io::Error::new(kind, message)),
            Self::Backend(message) => FsWatchError::Backend(message),
        }
    }
}

/// One event as `Deno.watchFs` gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FsEvent {
    kind: &'static str,
    paths: Vec<String>,
    flag: Option<&'static str>,
}

/// The `kind` of a notify event, or `None` for those Node never reports:
/// opens and closes, and the second report of a rename (inotify's two halves
/// of it come on their own).
fn kind_of(kind: &EventKind) -> Option<&'static str> {
    match kind {
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => None,
        EventKind::Create(_) => Some("create"),
        EventKind::Remove(_) => Some("remove"),
        EventKind::Modify(ModifyKind::Name(_)) => Some("rename"),
        EventKind::Modify(_) => Some("modify"),
        EventKind::Any => Some("any"),
        EventKind::Other => Some("other"),
    }
}

/// How much of the file system under its path a watch sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// The path and, for a folder, its entries.
    Entries,
    /// The path and everything under it.
    Tree,
}

impl Scope {
    fn mode(self) -> RecursiveMode {
        match self {
            Self::Entries => RecursiveMode::NonRecursive,
            Self::Tree => RecursiveMode::Recursive,
        }
    }
}

/// What a watch is on: the path as asked (absolute), the real path notify
/// watches and names events by, and the file's identity.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    asked: PathBuf,
    real: PathBuf,
    scope: Scope,
    inode: (u64, u64),
}

impl Target {
    fn open(asked: PathBuf, scope: Scope) -> Result<Self, std::io::Error> {
        let real = std::fs::canonicalize(&asked)?;
        let metadata = std::fs::metadata(&real)?;
        Ok(Self {
            asked,
            real,
            scope,
            inode: (metadata.dev(), metadata.ino()),
        })
    }

    /// Whether an event on `path` (a real path) concerns this watch.
    fn covers(&self, path: &Path) -> bool {
        match self.scope {
            Scope::Entries => path == self.real || path.parent() == Some(self.real.as_path()),
            Scope::Tree => path.starts_with(&self.real),
        }
    }

    /// The path an event reports: under the path as asked for a watch of
    /// entries (`fs.watch` reports the watched file's own name, even through
    /// a link), the real path for a recursive one (deno_node makes its names
    /// relative to the real path).
    fn shown(&self, path: &Path) -> String {
        let shown = match (self.scope, path.strip_prefix(&self.real)) {
            (Scope::Entries, Ok(rest)) if rest.as_os_str().is_empty() => self.asked.clone(),
            (Scope::Entries, Ok(rest)) => self.asked.join(rest),
            _ => path.to_path_buf(),
        };
        shown.to_string_lossy().into_owned()
    }

    /// Whether notify would register `other` exactly as this (one
    /// registration serves both).
    fn same_registration(&self, other: &Target) -> bool {
        self.real == other.real && self.scope == other.scope
    }

    /// Whether an event could be reported for both watches from different
    /// registrations of one notify watcher, which names it by path alone:
    /// one path watched both ways, a folder and one of its entries, a
    /// recursive watch and anything under it, or two names of one file.
    fn confusable_with(&self, other: &Target) -> bool {
        if self.same_registration(other) {
            return false;
        }
        let under = |inner: &Target, outer: &Target| {
            inner.real.parent() == Some(outer.real.as_path())
                || (outer.scope == Scope::Tree && inner.real.starts_with(&outer.real))
        };
        self.real == other.real || self.inode == other.inode || under(self, other) || under(other, self)
    }
}

/// A watch as notify's thread sees it.
struct Subscription {
    id: u64,
    target: Target,
    events: mpsc::Sender<Result<FsEvent, Failure>>,
    overflowed: AtomicBool,
}

impl Subscription {
    fn deliver(&self, item: Result<FsEvent, Failure>) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.events.try_send(item)
            && !self.overflowed.swap(true, Ordering::Relaxed)
        {
            tracing::warn!(
                path = %self.target.asked.display(),
                "a file watcher is not being read; its new events are dropped"
            );
        }
    }
}

type Subscriptions = Arc<Mutex<Vec<Subscription>>>;

/// One notify watcher and the watches it serves.
struct Slot {
    watcher: RecommendedWatcher,
    subscriptions: Subscriptions,
}

impl Slot {
    fn new() -> Result<Self, FsWatchError> {
        let subscriptions: Subscriptions = Arc::default();
        let shared = subscriptions.clone();
        let config = notify::Config::default().with_follow_symlinks(false);
        let watcher = RecommendedWatcher::new(
            move |result: notify::Result<notify::Event>| dispatch(&shared, result),
            config,
        )
        .map_err(FsWatchError::from_notify)?;
        Ok(Self { watcher, subscriptions })
    }

    fn accepts(&self, target: &Target) -> bool {
        !self
            .subscriptions
            .lock()
            .iter()
            .any(|subscription| subscription.target.confusable_with(target))
    }

    fn has_registration(&self, target: &Target) -> bool {
        self.subscriptions
            .lock()
            .iter()
            .any(|subscription| subscription.target.same_registration(target))
    }
}

/// Runs on notify's thread: hands an event (or a failure) to every watch
/// it concerns. It never blocks: a full queue drops the event.
fn dispatch(subscriptions: &Subscriptions, result: notify::Result<notify::Event>) {
    match result {
        Ok(event) => {
            if event.need_rescan() {
                // The kernel's queue overflowed: events were lost, as libuv
                // loses them; nothing names what changed.
                tracing::warn!("inotify dropped events (its queue overflowed)");
                return;
            }
            let Some(kind) = kind_of(&event.kind) else {
                return;
            };
            for subscription in subscriptions.lock().iter() {
                if let Some(path) = event.paths.iter().find(|path| subscription.target.covers(path)) {
                    subscription.deliver(Ok(FsEvent {
                        kind,
                        paths: vec![subscription.target.shown(path)],
                        flag: None,
                    }));
                }
            }
        }
        Err(error) => {
            tracing::debug!(%error, "file watching failed");
            let failure = Failure::of(&error);
            for subscription in subscriptions.lock().iter() {
                if error.paths.is_empty() || error.paths.iter().any(|path| subscription.target.covers(path)) {
                    subscription.deliver(Err(failure.clone()));
                }
            }
        }
    }
}

/// The runtime's watches, in as few notify watchers as they allow.
#[derive(Default)]
struct Watches {
    slots: RefCell<Vec<Slot>>,
    next_id: Cell<u64>,
}

impl Watches {
    fn subscribe(&self, target: Target, events: mpsc::Sender<Result<FsEvent, Failure>>) -> Result<u64, FsWatchError> {
        let mut slots = self.slots.borrow_mut();
        let index = match slots.iter().position(|slot| slot.accepts(&target)) {
            Some(index) => index,
            None => {
                slots.push(Slot::new()?);
                tracing::debug!(watchers = slots.len(), "started a notify watcher");
                slots.len() - 1
            }
        };
        let slot = &mut slots[index];
        // notify's thread may be dispatching, and waits for this lock: it
        // must not be held while notify is asked to watch.
        if !slot.has_registration(&target) {
            let watched = slot.watcher.watch(&target.real, target.scope.mode());
            if let Err(error) = watched {
                if slot.subscriptions.lock().is_empty() {
                    slots.swap_remove(index);
                }
                return Err(FsWatchError::from_notify(error));
            }
        }
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        slot.subscriptions.lock().push(Subscription {
            id,
            target,
            events,
            overflowed: AtomicBool::new(false),
        });
        Ok(id)
    }

    fn unsubscribe(&self, id: u64) {
        let mut slots = self.slots.borrow_mut();
        let found = slots.iter().enumerate().find_map(|(index, slot)| {
            let mut subscriptions = slot.subscriptions.lock();
            let position = subscriptions.iter().position(|subscription| subscription.id == id)?;
            let removed = subscriptions.remove(position);
            let shared = subscriptions
                .iter()
                .any(|subscription| subscription.target.same_registration(&removed.target));
            Some((index, removed.target, shared, subscriptions.is_empty()))
        });
        let Some((index, target, shared, empty)) = found else {
            return;
        };
        if empty {
            // Dropping the notify watcher ends its thread.
            slots.swap_remove(index);
            tracing::debug!(watchers = slots.len(), "stopped a notify watcher");
        } else if !shared && let Err(error) = slots[index].watcher.unwatch(&target.real) {
            // The path is gone, and its watch with it.
            tracing::debug!(%error, path = %target.real.display(), "unwatching");
        }
    }
}

/// The runtime's [`Watches`], shared by its watcher resources.
struct RuntimeWatches(Rc<Watches>);

/// An open `Deno.watchFs` watcher.
struct FsWatcherResource {
    events: AsyncRefCell<mpsc::Receiver<Result<FsEvent, Failure>>>,
    cancel: CancelHandle,
    watches: Rc<Watches>,
    ids: Vec<u64>,
}

impl Resource for FsWatcherResource {
    fn name(&self) -> Cow<'_, str> {
        "fsWatcher".into()
    }

    fn close(self: Rc<Self>) {
        // A pending poll ends with "no more events", so nothing keeps the
        // event loop alive; the watches end when the last poll lets go.
        self.cancel.cancel();
    }
}

impl Drop for FsWatcherResource {
    fn drop(&mut self) {
        for id in &self.ids {
            self.watches.unsubscribe(*id);
        }
    }
}

/// Starts watching `paths` (recursively or not); the watcher's resource id.
/// Fails as the file system does for a path that cannot be watched (a
/// missing one is `NotFound`).
#[op2]
#[smi]
pub fn op_pihost_fs_watch_open(
    state: &mut OpState,
    #[serde] paths: Vec<String>,
    recursive: bool,
) -> Result<ResourceId, FsWatchError> {
    let scope = if recursive { Scope::Tree } else { Scope::Entries };
    let mut targets = Vec::with_capacity(paths.len());
    let permissions = state.borrow::<PermissionsContainer>();
    for path in paths {
        let checked = permissions
            .check_open(
                Cow::Owned(PathBuf::from(path)),
                OpenAccessKind::ReadNoFollow,
                Some("Deno.watchFs()"),
            )?
            .into_owned_path();
        // Relative paths resolve as the rest of deno_fs resolves them.
        let target = Target::open(std::path::absolute(checked)?, scope)?;
        // The watch follows a link it is given, so where the link leads is
        // checked too: a link in a granted folder must not watch the world.
        if target.real != target.asked {
            permissions.check_open(
                Cow::Borrowed(target.real.as_path()),
                OpenAccessKind::ReadNoFollow,
                Some("Deno.watchFs()"),
            )?;
        }
        targets.push(target);
    }
    let watches = match state.try_borrow::<RuntimeWatches>() {
        Some(watches) => watches.0.clone(),
        None => {
            let watches = Rc::new(Watches::default());
            state.put(RuntimeWatches(watches.clone()));
            watches
        }
    };
    let (sender, receiver) = mpsc::channel(QUEUE);
    let mut resource = FsWatcherResource {
        events: AsyncRefCell::new(receiver),
        cancel: CancelHandle::new(),
        watches: watches.clone(),
        ids: Vec::with_capacity(targets.len()),
    };
    for target in targets {
        // On failure, dropping the resource ends the watches already made.
        resource.ids.push(watches.subscribe(target, sender.clone())?);
    }
    Ok(state.resource_table.add(resource))
}

/// The watcher's next event, or `null` once it is closed.
#[op2]
#[serde]
pub async fn op_pihost_fs_watch_poll(
    state: Rc<RefCell<OpState>>,
    #[smi] rid: ResourceId,
) -> Result<Option<FsEvent>, FsWatchError> {
    let resource = state.borrow().resource_table.get::<FsWatcherResource>(rid)?;
    let cancel = RcRef::map(&resource, |resource| &resource.cancel);
    let mut events = RcRef::map(&resource, |resource| &resource.events).borrow_mut().await;
    match events.recv().or_cancel(cancel).await {
        Ok(Some(Ok(event))) => Ok(Some(event)),
        Ok(Some(Err(failure))) => Err(failure.into_error()),
        // Closed, or (never while the resource lives) every sender gone.
        Ok(None) | Err(_) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(path: &str, scope: Scope, inode: u64) -> Target {
        Target {
            asked: PathBuf::from(path),
            real: PathBuf::from(path),
            scope,
            inode: (1, inode),
        }
    }

    #[test]
    fn events_node_never_reports_are_dropped() {
        use notify::event::{AccessKind, AccessMode, CreateKind, DataChange, MetadataKind, RemoveKind};
        assert_eq!(kind_of(&EventKind::Access(AccessKind::Open(AccessMode::Any))), None);
        assert_eq!(kind_of(&EventKind::Access(AccessKind::Close(AccessMode::Write))), None);
        assert_eq!(kind_of(&EventKind::Modify(ModifyKind::Name(RenameMode::Both))), None);
        assert_eq!(kind_of(&EventKind::Create(CreateKind::File)), Some("create"));
        assert_eq!(kind_of(&EventKind::Remove(RemoveKind::Folder)), Some("remove"));
        assert_eq!(
            kind_of(&EventKind::Modify(ModifyKind::Name(RenameMode::From))),
            Some("rename")
        );
        assert_eq!(
            kind_of(&EventKind::Modify(ModifyKind::Name(RenameMode::To))),
            Some("rename")
        );
        assert_eq!(
            kind_of(&EventKind::Modify(ModifyKind::Data(DataChange::Any))),
            Some("modify")
        );
        assert_eq!(
            kind_of(&EventKind::Modify(ModifyKind::Metadata(MetadataKind::Any))),
            Some("modify")
        );
    }

    #[test]
    fn a_watch_covers_its_path_its_entries_or_its_tree() {
        let folder = target("/w/d", Scope::Entries, 1);
        assert!(folder.covers(Path::new("/w/d")));
        assert!(folder.covers(Path::new("/w/d/a.txt")));
        assert!(!folder.covers(Path::new("/w/d/sub/a.txt")));
        assert!(!folder.covers(Path::new("/w/dd")));
        let tree = target("/w/d", Scope::Tree, 1);
        assert!(tree.covers(Path::new("/w/d/sub/a.txt")));
        assert!(!tree.covers(Path::new("/w/dd/a.txt")));
    }

    #[test]
    fn events_name_the_path_as_asked_except_in_a_tree() {
        let mut file = target("/w/link.txt", Scope::Entries, 1);
        file.real = PathBuf::from("/w/real.txt");
        assert_eq!(file.shown(Path::new("/w/real.txt")), "/w/link.txt");
        let mut folder = target("/w/link", Scope::Entries, 2);
        folder.real = PathBuf::from("/w/real");
        assert_eq!(folder.shown(Path::new("/w/real/a.txt")), "/w/link/a.txt");
        let mut tree = target("/w/link", Scope::Tree, 2);
        tree.real = PathBuf::from("/w/real");
        assert_eq!(tree.shown(Path::new("/w/real/sub/a.txt")), "/w/real/sub/a.txt");
    }

    #[test]
    fn watches_whose_events_notify_would_confuse_are_kept_apart() {
        let folder = target("/w/d", Scope::Entries, 1);
        let entry = target("/w/d/a.txt", Scope::Entries, 2);
        let grandchild = target("/w/d/sub/a.txt", Scope::Entries, 3);
        let sibling = target("/w/e", Scope::Entries, 4);
        let tree = target("/w/d", Scope::Tree, 1);
        let hard_link = target("/w/e/b.txt", Scope::Entries, 2);
        assert!(!folder.confusable_with(&folder.clone()), "one registration serves both");
        assert!(folder.confusable_with(&entry) && entry.confusable_with(&folder));
        assert!(!folder.confusable_with(&grandchild));
        assert!(!folder.confusable_with(&sibling));
        assert!(tree.confusable_with(&folder), "one path watched both ways");
        assert!(tree.confusable_with(&grandchild) && grandchild.confusable_with(&tree));
        assert!(!tree.confusable_with(&sibling));
        assert!(entry.confusable_with(&hard_link), "two names of one file");
    }
}

/// The ops and js/platform/fs-events.js in a runtime of their own: what a
/// watcher does to the event loop, and the events it gives.
#[cfg(test)]
mod runtime_tests {
    use std::task::Poll;
    use std::time::Duration;

    use deno_core::{JsRuntime, ModuleSpecifier, PollEventLoopOptions, RuntimeOptions, StaticModuleLoader};

    use super::*;

    deno_core::extension!(
        fs_events_test,
        ops = [op_pihost_fs_watch_open, op_pihost_fs_watch_poll],
        state = |state| {
            let parser = Arc::new(deno_permissions::RuntimePermissionDescriptorParser::new(
                sys_traits::impls::RealSys,
            ));
            state.put(PermissionsContainer::allow_all(parser));
        },
    );

    /// Bounds every wait: a test that would hang fails instead.
    const BOUND: Duration = Duration::from_secs(20);

    async fn runtime() -> JsRuntime {
        let main = ModuleSpecifier::parse("file:///main.js").expect("url");
        let fs_events = ModuleSpecifier::parse("pihost:platform/fs-events.js").expect("url");
        let source = crate::embedded::file("platform/fs-events.js").expect("fs-events.js is embedded");
        let loader = StaticModuleLoader::new([
            (
                main.clone(),
                r#"import { watchFs } from "pihost:platform/fs-events.js";
                   globalThis.watchFs = (paths, options) => watchFs(Deno.core, paths, options);"#
                    .to_string(),
            ),
            (fs_events, source.to_string()),
        ]);
        let mut runtime = JsRuntime::new(RuntimeOptions {
            extensions: vec![fs_events_test::init()],
            module_loader: Some(Rc::new(loader)),
            ..Default::default()
        });
        let id = runtime.load_main_es_module(&main).await.expect("main loads");
        let evaluated = runtime.mod_evaluate(id);
        runtime
            .run_event_loop(PollEventLoopOptions::default())
            .await
            .expect("event loop");
        evaluated.await.expect("main evaluates");
        runtime
    }

    fn run(runtime: &mut JsRuntime, code: &str) {
        runtime
            .execute_script("test.js", code.to_string())
            .expect("script runs");
    }

    /// Runs the event loop until nothing keeps it alive.
    async fn until_idle(runtime: &mut JsRuntime) {
        tokio::time::timeout(BOUND, runtime.run_event_loop(PollEventLoopOptions::default()))
            .await
            .expect("the event loop went idle")
            .expect("event loop");
    }

    async fn is_idle(runtime: &mut JsRuntime) -> bool {
        std::future::poll_fn(|cx| Poll::Ready(runtime.poll_event_loop(cx, PollEventLoopOptions::default()).is_ready()))
            .await
    }

    fn global(runtime: &mut JsRuntime, name: &str) -> serde_json::Value {
        let value = runtime
            .execute_script("read.js", format!("JSON.stringify(globalThis.{name})"))
            .expect("readable");
        deno_core::scope!(scope, runtime);
        let value = deno_core::v8::Local::new(scope, value);
        serde_json::from_str(&value.to_rust_string_lossy(scope)).expect("JSON")
    }

    fn js_string(path: &Path) -> String {
        serde_json::to_string(&path.display().to_string()).expect("string")
    }

    #[tokio::test]
    async fn a_waiting_watcher_keeps_the_loop_alive_until_it_is_closed() {
        let folder = tempfile::tempdir().expect("temp dir");
        let mut runtime = runtime().await;
        run(
            &mut runtime,
            &format!(
                "globalThis.watcher = watchFs({}, {{ recursive: false }});
                 watcher.next().then((step) => {{ globalThis.step = step; }});",
                js_string(folder.path())
            ),
        );
        assert!(
            !is_idle(&mut runtime).await,
            "an open watcher waiting for events keeps the loop alive"
        );
        run(&mut runtime, "watcher.close();");
        until_idle(&mut runtime).await;
        assert_eq!(global(&mut runtime, "step"), serde_json::json!({ "done": true }));
    }

    #[tokio::test]
    async fn an_unrefed_watcher_does_not_keep_the_loop_alive_but_still_reports() {
        let folder = tempfile::tempdir().expect("temp dir");
        let mut runtime = runtime().await;
        run(
            &mut runtime,
            &format!(
                "globalThis.watcher = watchFs({}, {{ recursive: false }});
                 watcher.unref();
                 globalThis.events = [];
                 (async () => {{ for await (const event of watcher) events.push(event); globalThis.ended = true; }})();",
                js_string(folder.path())
            ),
        );
        until_idle(&mut runtime).await;
        // Referenced again, it waits for (and hears) the next change.
        run(&mut runtime, "watcher.ref();");
        assert!(!is_idle(&mut runtime).await);
        std::fs::write(folder.path().join("a.txt"), "a").expect("write");
        tokio::time::timeout(BOUND, async {
            while global(&mut runtime, "events.length") == serde_json::json!(0) {
                let _ = tokio::time::timeout(
                    Duration::from_millis(50),
                    runtime.run_event_loop(PollEventLoopOptions::default()),
                )
                .await;
            }
        })
        .await
        .expect("the event arrived");
        let first = global(&mut runtime, "events[0]");
        assert_eq!(first["kind"], "create");
        assert_eq!(
            first["paths"],
            serde_json::json!([folder.path().join("a.txt").display().to_string()])
        );
        run(&mut runtime, "watcher.close();");
        until_idle(&mut runtime).await;
        assert_eq!(global(&mut runtime, "ended"), serde_json::json!(true));
    }

    /// Receives the next event of a watch, within [`BOUND`].
    async fn next(receiver: &mut mpsc::Receiver<Result<FsEvent, Failure>>) -> FsEvent {
        tokio::time::timeout(BOUND, receiver.recv())
            .await
            .expect("an event arrived")
            .expect("the watch is open")
            .expect("no failure")
    }

    fn event(kind: &'static str, path: &Path) -> FsEvent {
        FsEvent {
            kind,
            paths: vec![path.display().to_string()],
            flag: None,
        }
    }

    #[tokio::test]
    async fn a_folder_and_its_file_each_hear_a_change_once() {
        let folder = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(folder.path()).expect("real path");
        let file = root.join("a.txt");
        std::fs::write(&file, "a").expect("write");
        let watches = Watches::default();
        let (folder_events, mut folder_received) = mpsc::channel(QUEUE);
        let (file_events, mut file_received) = mpsc::channel(QUEUE);
        let folder_id = watches
            .subscribe(
                Target::open(root.clone(), Scope::Entries).expect("folder"),
                folder_events,
            )
            .expect("watch the folder");
        watches
            .subscribe(Target::open(file.clone(), Scope::Entries).expect("file"), file_events)
            .expect("watch the file");
        assert_eq!(
            watches.slots.borrow().len(),
            2,
            "their events would be confused in one notify watcher"
        );

        let mut appending = std::fs::OpenOptions::new().append(true).open(&file).expect("open");
        std::io::Write::write_all(&mut appending, b"b").expect("append");
        drop(appending);
        std::fs::write(root.join("b.txt"), "").expect("write");
        assert_eq!(next(&mut folder_received).await, event("modify", &file));
        assert_eq!(
            next(&mut folder_received).await,
            event("create", &root.join("b.txt")),
            "no second report of the change"
        );
        assert_eq!(next(&mut file_received).await, event("modify", &file));

        watches.unsubscribe(folder_id);
        assert_eq!(watches.slots.borrow().len(), 1, "an empty notify watcher stops");
        std::fs::rename(&file, root.join("c.txt")).expect("rename");
        assert_eq!(next(&mut file_received).await, event("rename", &file));
    }
}
