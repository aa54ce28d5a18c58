//! An extension's module graph read and transpiled on a second thread,
//! ahead of the engine's thread.
//!
//! The engine asks for one module at a time and compiles it before it asks
//! for the next. Meanwhile the files further down the graph can be read,
//! taken from the transpile cache (or transpiled, on a first start) on
//! another core: the engine's thread then finds them in
//! [`super::sources`], or waits for the one in flight, and never does the
//! work twice.
//!
//! Each ES module it reads for an extension's load also gets its
//! lenient-import rewrite made here (`super::lenient_imports`), kept under
//! that load's window (`super::load_window`) for the engine's thread to
//! take instead of making it; a module the engine's thread asks for first
//! is rewritten there, as without a prefetcher.
//!
//! A load of several extensions also names them all before the first one
//! is loaded (`ahead_of`): whenever no module the engine's thread loaded
//! is waiting to be followed, this thread reads and transpiles the next
//! extensions' graphs, one file at a time, in load order, down to the
//! files the transpile cache on disk has (a second start's loads read those
//! in their turn). On a first start that keeps the second core busy while
//! the engine's thread evaluates; the rewrites are still made when each
//! extension's turn comes.
//!
//! Followed: the static imports and re-exports of ES modules, and the
//! `require("literal")` calls of CommonJS files, found in their text. A
//! computed `require` or an `import()` is found only when it runs; a
//! literal that no code path requires only costs this thread a read. Loads
//! under a sandbox are not prefetched: every read they make goes through
//! the permission check on the engine's thread.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, LazyLock, Mutex};

use deno_ast::ModuleSpecifier;

use super::sources::{self, SourceFile};
use crate::transpile::TranspiledModule;

/// What the engine's threads tell this one.
enum Request {
    /// A module the engine's thread loaded, and the load window it did so in.
    Loaded(ModuleSpecifier, Option<u64>),
    /// The entry of an extension a load will come to.
    Ahead(ModuleSpecifier),
}

static QUEUE: LazyLock<Option<Mutex<Sender<Request>>>> = LazyLock::new(|| {
    let (sender, receiver) = channel();
    std::thread::Builder::new()
        .name("pihost-prefetch".into())
        .spawn(move || walk(receiver))
        .ok()?;
    Some(Mutex::new(sender))
});

/// Starts reading what the module at `url` (just loaded) imports, and what
/// those import, unless that is under way already.
pub(crate) fn imports_of(url: &ModuleSpecifier) {
    if url.scheme() != "file" || !enabled() {
        return;
    }
    send(Request::Loaded(url.clone(), super::load_window::window()));
}

/// Starts reading, when nothing more pressing is waiting, the module graphs
/// of the extensions whose entry files are `entries`, in that order.
pub(crate) fn ahead_of(entries: impl IntoIterator<Item = ModuleSpecifier>) {
    if !enabled() {
        return;
    }
    for url in entries.into_iter().filter(|url| url.scheme() == "file") {
        send(Request::Ahead(url));
    }
}

fn send(request: Request) {
    if let Some(Ok(sender)) = QUEUE.as_ref().map(Mutex::lock) {
        let _ = sender.send(request);
    }
}

/// What was made ahead for the open load windows.
#[derive(Default)]
struct MadeAhead {
    /// The windows open now, on any engine thread.
    open: HashSet<u64>,
    /// `(window, module URL)` to the transpiled module a rewrite was made
    /// from and the rewritten code, or `None` when it needs no rewrite.
    rewrites: HashMap<(u64, ModuleSpecifier), (Arc<TranspiledModule>, Option<String>)>,
}

static MADE_AHEAD: LazyLock<Mutex<MadeAhead>> = LazyLock::new(Default::default);

/// A load window opened: rewrites may be made ahead for it.
pub(crate) fn open_window(window: u64) {
    if let Ok(mut ahead) = MADE_AHEAD.lock() {
        ahead.open.insert(window);
    }
}

/// A load window closed: what was made ahead for it goes, and nothing more
/// is kept for it.
pub(crate) fn forget_window(window: u64) {
    if let Ok(mut ahead) = MADE_AHEAD.lock() {
        ahead.open.remove(&window);
        ahead.rewrites.retain(|(kept_for, _), _| *kept_for != window);
    }
}

/// The lenient-import rewrite of `url` made ahead in this thread's load
/// window from this very `module` (taken: asked once), or `None` when there
/// is none.
pub(crate) fn take_rewrite(url: &ModuleSpecifier, module: &Arc<TranspiledModule>) -> Option<Option<String>> {
    let window = super::load_window::window()?;
    let (made_from, rewritten) = MADE_AHEAD.lock().ok()?.rewrites.remove(&(window, url.clone()))?;
    Arc::ptr_eq(&made_from, module).then_some(rewritten)
}

/// Makes `url`'s rewrite for `window`, while that window is open.
fn rewrite_ahead(url: &ModuleSpecifier, module: &Arc<TranspiledModule>, window: u64) {
    if !MADE_AHEAD.lock().is_ok_and(|ahead| ahead.open.contains(&window)) {
        return;
    }
    let rewritten = super::lenient_imports::rewrite(url, module);
    if let Ok(mut ahead) = MADE_AHEAD.lock()
        && ahead.open.contains(&window)
    {
        ahead
            .rewrites
            .entry((window, url.clone()))
            .or_insert_with(|| (module.clone(), rewritten));
    }
}

/// `PIHOST_PREFETCH=off` leaves all reading to the engine's thread (to
/// compare, or to profile that thread alone).
fn enabled() -> bool {
    static ENABLED: LazyLock<bool> =
        LazyLock::new(|| std::env::var("PIHOST_PREFETCH").map_or(true, |value| value != "off"));
    *ENABLED
}

fn walk(receiver: Receiver<Request>) {
    let mut seen: HashSet<ModuleSpecifier> = HashSet::new();
    let mut pending = Vec::new();
    let mut ahead = Ahead::default();
    loop {
        // Blocks only when there is nothing to read ahead either.
        let request = if ahead.is_done() {
            receiver.recv().ok()
        } else {
            match receiver.try_recv() {
                Ok(request) => Some(request),
                Err(TryRecvError::Empty) => {
                    ahead.step(&seen);
                    continue;
                }
                Err(TryRecvError::Disconnected) => None,
            }
        };
        let (root, window) = match request {
            Some(Request::Loaded(root, window)) => (root, window),
            Some(Request::Ahead(entry)) => {
                ahead.add(entry);
                continue;
            }
            None => return,
        };
        // The engine's thread has just loaded `root`: its links are looked
        // at even when it was seen before, since the walk may have passed
        // it by while it was in that thread's hands. It needs no rewrite.
        seen.insert(root.clone());
        pending.push((root, None));
        // Last link first, depth first: the engine's thread asks for a
        // module's links first to last (its imports' exports, then the
        // modules), so the two threads meet in the middle instead of
        // queueing for the same file. A file the engine's thread has in hand
        // is not waited for: its links are looked at once the rest is under
        // way, or when that thread hands it over.
        super::load_window::keeping_resolutions(|| {
            let mut deferred = Vec::new();
            while let Some((url, rewrite_for)) = pending.pop() {
                let Some(links) = links_of(&url, rewrite_for, |path| sources::source_shape(path).ok()) else {
                    deferred.push((url, rewrite_for));
                    continue;
                };
                for next in links {
                    if seen.insert(next.clone()) {
                        pending.push((next, window));
                    }
                }
                if pending.is_empty() {
                    pending.extend(deferred.drain(..).filter(|(url, _)| !url_in_flight(url)));
                }
            }
        });
    }
}

/// The graphs of the extensions a load will come to, read one file at a
/// time. Its own record of what it read: the files stay for the walk of
/// each extension's load to follow again, making that load's rewrites.
#[derive(Default)]
struct Ahead {
    entries: VecDeque<ModuleSpecifier>,
    pending: Vec<ModuleSpecifier>,
    read: HashSet<ModuleSpecifier>,
}

impl Ahead {
    fn add(&mut self, entry: ModuleSpecifier) {
        self.entries.push_back(entry);
    }

    fn is_done(&self) -> bool {
        self.entries.is_empty() && self.pending.is_empty()
    }

    /// Reads the next file, unless a load's walk (`seen`) or the engine's
    /// thread has it already: then that graph is theirs to follow.
    fn step(&mut self, seen: &HashSet<ModuleSpecifier>) {
        if self.pending.is_empty()
            && let Some(entry) = self.entries.pop_front()
        {
            self.pending.push(entry);
        }
        let Some(url) = self.pending.pop() else {
            return;
        };
        if seen.contains(&url) || !self.read.insert(url.clone()) {
            return;
        }
        for next in links_of(&url, None, sources::source_ahead).unwrap_or_default() {
            if !seen.contains(&next) && !self.read.contains(&next) {
                self.pending.push(next);
            }
        }
    }
}

fn url_in_flight(url: &ModuleSpecifier) -> bool {
    url.to_file_path().is_ok_and(|path| sources::in_flight(&path))
}

/// The files `url` links to statically, after reading it with `read` (and
/// making its rewrite for the load window `rewrite_for`); `None` when
/// another thread is reading it now.
fn links_of(
    url: &ModuleSpecifier,
    rewrite_for: Option<u64>,
    read: fn(&std::path::Path) -> Option<SourceFile>,
) -> Option<Vec<ModuleSpecifier>> {
    let Ok(path) = url.to_file_path() else {
        return Some(Vec::new());
    };
    if sources::in_flight(&path) {
        return None;
    }
    // Only regular files: a link to a pipe or a device is the engine
    // thread's to refuse.
    if !std::fs::metadata(&path).is_ok_and(|metadata| metadata.is_file()) {
        return Some(Vec::new());
    }
    // A module the engine's thread has loaded (the walk may reach it before
    // that thread's word that it did) has given it its code already
    // (`sources::release_code`): only its links are read then, and no
    // rewrite is made for it.
    let Some(SourceFile::Code(module)) = read(&path) else {
        return Some(Vec::new());
    };
    let Some(shape) = &module.es_module else {
        return Some(required_files(&module.commonjs_requires, &path));
    };
    if let Some(window) = rewrite_for
        && !module.code.is_empty()
    {
        rewrite_ahead(url, &module, window);
    }
    let links = shape
        .links
        .iter()
        .map(|link| link.specifier.as_str())
        .chain(shape.star_exports.iter().map(String::as_str))
        .filter_map(|specifier| super::resolve_specifier(specifier, url.as_str()).ok())
        .filter(|target| target.scheme() == "file")
        .collect();
    Some(links)
}

/// The files a CommonJS file's literal `require("…")` calls name
/// (`TranspiledModule::commonjs_requires`), resolved as `require` resolves
/// them from its folder (built-ins and native addons left out: those are
/// not source).
fn required_files(requires: &[String], path: &std::path::Path) -> Vec<ModuleSpecifier> {
    let Some(folder) = path.parent() else {
        return Vec::new();
    };
    requires
        .iter()
        .map(String::as_str)
        .filter(|specifier| !specifier.starts_with("node:") && !super::is_node_builtin(specifier))
        .filter_map(|specifier| super::resolve::resolve(specifier, folder, super::resolve::REQUIRE_CONDITIONS))
        .filter(|found| found.extension().is_none_or(|extension| extension != "node"))
        .filter_map(|found| ModuleSpecifier::from_file_path(found).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits up to 20 s for the prefetch thread to have `done` what the
    /// test expects, else fails saying what it did not do.
    fn wait_for(what_was_not_done: &str, done: impl Fn() -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "{what_was_not_done}");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    #[test]
    fn the_extensions_a_load_names_are_read_ahead_down_to_what_the_disk_cache_has() {
        let folder = tempfile::tempdir().expect("temp dir");
        // A first start's extension: its graph is read and transpiled ahead.
        let entry = folder.path().join("later-extension.mjs");
        let imported = folder.path().join("imported.mjs");
        let required = folder.path().join("required.cjs");
        let deeper = folder.path().join("deeper.cjs");
        std::fs::write(
            &entry,
            "import { x } from './imported.mjs';\nexport default function () { return x; }\n",
        )
        .expect("write");
        std::fs::write(&imported, "import r from './required.cjs';\nexport const x = r;\n").expect("write");
        std::fs::write(&required, "module.exports = require('./deeper.cjs');\n").expect("write");
        std::fs::write(&deeper, "module.exports = 1;\n").expect("write");
        // An extension a second start finds in the transpile cache on disk:
        // its load reads it in its turn, and nothing below it is read ahead.
        let cached = folder.path().join("cached-extension.mjs");
        let below = folder.path().join("below-cached.mjs");
        let cached_code = "import { y } from './below-cached.mjs';\nexport default function () { return y; }\n";
        std::fs::write(&cached, cached_code).expect("write");
        std::fs::write(&below, "export const y = 2;\n").expect("write");
        let cached_url = ModuleSpecifier::from_file_path(&cached).expect("url");
        crate::transpile::transpile(&cached_url, deno_ast::MediaType::Mjs, cached_code).expect("transpiles");
        let disk_cache_on = crate::transpile::disk_cache::location() != crate::transpile::disk_cache::Location::Off;
        ahead_of([cached_url, ModuleSpecifier::from_file_path(&entry).expect("url")]);
        wait_for("the graph of a named extension was not read ahead", || {
            [&entry, &imported, &required, &deeper]
                .into_iter()
                .all(|file| sources::tests::is_known(file))
        });
        // The entries are read in order: the cached one's turn has passed.
        for file in [&cached, &below] {
            assert_eq!(sources::tests::is_known(file), !disk_cache_on, "{}", file.display());
        }
    }

    #[test]
    fn what_a_commonjs_file_requires_is_read_ahead_of_the_engine() {
        let folder = tempfile::tempdir().expect("temp dir");
        let entry = folder.path().join("entry.cjs");
        let required = folder.path().join("required.js");
        let package = folder.path().join("node_modules").join("dep");
        std::fs::create_dir_all(&package).expect("mkdir");
        std::fs::write(
            &entry,
            "const r = require(\"./required.js\");\nconst d = require('dep');\nconst fs = require('fs');\n",
        )
        .expect("write");
        std::fs::write(&required, "module.exports = 1;\n").expect("write");
        std::fs::write(package.join("package.json"), r#"{"name":"dep","main":"main.js"}"#).expect("write");
        std::fs::write(package.join("main.js"), "exports.d = 2;\n").expect("write");
        let url = ModuleSpecifier::from_file_path(&entry).expect("url");
        imports_of(&url);
        wait_for("the required files were not read ahead", || {
            sources::tests::is_known(&required) && sources::tests::is_known(&package.join("main.js"))
        });
    }

    #[test]
    fn a_commonjs_file_whose_code_an_engine_took_is_still_followed() {
        let folder = tempfile::tempdir().expect("temp dir");
        let entry = folder.path().join("taken.cjs");
        let required = folder.path().join("still-read.js");
        std::fs::write(&entry, "module.exports = require('./still-read.js');\n").expect("write");
        std::fs::write(&required, "module.exports = 1;\n").expect("write");
        // As `require` does: the engine gets the code, the cache keeps the shape.
        assert!(sources::source_file(&entry).is_ok());
        sources::release_code(&entry);
        imports_of(&ModuleSpecifier::from_file_path(&entry).expect("url"));
        wait_for("what the released file requires was not read ahead", || {
            sources::tests::is_known(&required)
        });
    }

    #[test]
    fn an_imported_module_is_rewritten_ahead_for_its_load_window_only() {
        let folder = tempfile::tempdir().expect("temp dir");
        let entry = folder.path().join("entry.ts");
        let middle = folder.path().join("middle.ts");
        let leaf = folder.path().join("leaf.js");
        std::fs::write(&entry, "import { m } from \"./middle.ts\";\nexport default m;\n").expect("write");
        // `missing` is not exported by leaf.js: the rewrite makes it a local.
        std::fs::write(
            &middle,
            "import { l, missing } from './leaf.js';\nexport const m = [l, missing];\n",
        )
        .expect("write");
        std::fs::write(&leaf, "export const l = 2;\n").expect("write");
        let url = ModuleSpecifier::from_file_path(&entry).expect("url");
        let middle_url = ModuleSpecifier::from_file_path(&middle).expect("url");
        super::super::load_window::begin();
        imports_of(&url);
        let window = super::super::load_window::window().expect("a window is open");
        wait_for("middle.ts was not rewritten ahead", || {
            MADE_AHEAD
                .lock()
                .is_ok_and(|ahead| ahead.rewrites.contains_key(&(window, middle_url.clone())))
        });
        let Ok(SourceFile::Code(module)) = sources::source_file(&middle) else {
            panic!("middle.ts reads");
        };
        let made_here = super::super::lenient_imports::rewrite(&middle_url, &module);
        assert!(made_here.as_deref().is_some_and(|code| code.contains("missing")));
        assert_eq!(take_rewrite(&middle_url, &module), Some(made_here));
        assert_eq!(take_rewrite(&middle_url, &module), None, "taken once");
        super::super::load_window::end();
        assert!(MADE_AHEAD.lock().is_ok_and(
            |ahead| !ahead.open.contains(&window) && ahead.rewrites.keys().all(|(kept_for, _)| *kept_for != window)
        ));
    }

    #[test]
    fn the_files_a_loaded_module_imports_are_read_ahead_of_the_engine() {
        let folder = tempfile::tempdir().expect("temp dir");
        let entry = folder.path().join("entry.ts");
        let middle = folder.path().join("middle.ts");
        let leaf = folder.path().join("leaf.js");
        std::fs::write(&entry, "import { m } from \"./middle.ts\";\nexport default m;\n").expect("write");
        std::fs::write(&middle, "export * from './leaf.js';\nexport const m: number = 1;\n").expect("write");
        std::fs::write(&leaf, "export const l = 2;\n").expect("write");
        let url = ModuleSpecifier::from_file_path(&entry).expect("url");
        imports_of(&url);
        wait_for("the imports were not read ahead", || {
            sources::tests::is_known(&middle) && sources::tests::is_known(&leaf)
        });
    }
}
