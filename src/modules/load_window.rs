//! One extension's load as a window in which work done once is kept.
//!
//! While one extension loads (between `op_pihost_load_timing_begin` and
//! `_end`) a window with a number of its own is open on the engine's thread.
//! Work kept for a window is used only inside it: outside a load nothing is
//! kept, so an import a running extension makes later sees the files as
//! they are then, and each load (a reload too) works everything out anew.
//!
//! Kept here: resolutions. The lenient-import rewrite resolves every import
//! of a module to look at its target's exports, and deno_core resolves the
//! same imports again right after, to link them; the second request takes
//! the first answer. Failures are never kept. The prefetcher keeps the
//! rewrites it made ahead under the window's number (`super::prefetch`),
//! and the rewrite what each target exports under [`kept_work`]'s number.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use deno_core::ModuleSpecifier;

thread_local! {
    static MEMO: RefCell<Option<HashMap<(String, String), ModuleSpecifier>>> = const { RefCell::new(None) };
    static WINDOW: Cell<Option<u64>> = const { Cell::new(None) };
    /// The number of the work kept on this thread now (a window's, or
    /// `keeping_resolutions`'), `None` when nothing is kept.
    static KEPT_WORK: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Numbers of kept work, unique in the process.
static KEPT_WORK_OPENED: AtomicU64 = AtomicU64::new(0);

fn keep_work() {
    KEPT_WORK.set(Some(KEPT_WORK_OPENED.fetch_add(1, Ordering::Relaxed) + 1));
}

/// The number under which work done now on this thread may be kept and
/// used again (it changes whenever a window opens or closes), or `None`
/// when nothing may be kept.
pub(crate) fn kept_work() -> Option<u64> {
    KEPT_WORK.get()
}

/// Window numbers, unique in the process (several engines load at once).
static WINDOWS_OPENED: AtomicU64 = AtomicU64::new(0);

/// An extension starts loading on this thread: a new window opens, with
/// nothing kept from before.
pub(crate) fn begin() {
    end();
    MEMO.set(Some(HashMap::new()));
    keep_work();
    let window = WINDOWS_OPENED.fetch_add(1, Ordering::Relaxed) + 1;
    super::prefetch::open_window(window);
    WINDOW.set(Some(window));
}

/// The extension's load ended: nothing is kept any more.
pub(crate) fn end() {
    MEMO.set(None);
    KEPT_WORK.set(None);
    if let Some(window) = WINDOW.take() {
        super::prefetch::forget_window(window);
    }
}

/// Runs `work` keeping resolutions as a load window does, on a thread that
/// has no window of its own (the prefetcher, for one module graph's walk,
/// which resolves each link for the walk and again for the rewrite).
pub(crate) fn keeping_resolutions<R>(work: impl FnOnce() -> R) -> R {
    let opened = MEMO.with_borrow_mut(|memo| {
        if memo.is_some() {
            return false;
        }
        *memo = Some(HashMap::new());
        true
    });
    if opened {
        keep_work();
    }
    let result = work();
    if opened {
        MEMO.set(None);
        KEPT_WORK.set(None);
    }
    result
}

/// The number of the window open on this thread, or `None` outside a load.
pub(crate) fn window() -> Option<u64> {
    WINDOW.get()
}

/// What `specifier` imported from `referrer` resolves to: kept from an
/// earlier request of this load, or `resolve`'s answer (kept if it found one).
pub(crate) fn remembered<E>(
    specifier: &str,
    referrer: &str,
    resolve: impl FnOnce() -> Result<ModuleSpecifier, E>,
) -> Result<ModuleSpecifier, E> {
    let key = (specifier.to_string(), referrer.to_string());
    let kept = MEMO.with_borrow(|memo| memo.as_ref().and_then(|memo| memo.get(&key).cloned()));
    if let Some(url) = kept {
        return Ok(url);
    }
    let resolved = resolve()?;
    MEMO.with_borrow_mut(|memo| {
        if let Some(memo) = memo {
            memo.insert(key, resolved.clone());
        }
    });
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(path: &str) -> ModuleSpecifier {
        ModuleSpecifier::parse(&format!("file://{path}")).expect("url")
    }

    #[test]
    fn a_load_resolves_each_import_once_and_the_next_load_anew() {
        let mut calls = 0;
        let mut resolve = |answer: &str| {
            calls += 1;
            Ok::<_, ()>(url(answer))
        };
        begin();
        assert_eq!(remembered("./a", "file:///x.ts", || resolve("/a.ts")), Ok(url("/a.ts")));
        assert_eq!(
            remembered("./a", "file:///x.ts", || resolve("/other.ts")),
            Ok(url("/a.ts"))
        );
        assert_eq!(remembered("./a", "file:///y.ts", || resolve("/b.ts")), Ok(url("/b.ts")));
        end();
        assert_eq!(remembered("./a", "file:///x.ts", || resolve("/c.ts")), Ok(url("/c.ts")));
        begin();
        assert_eq!(remembered("./a", "file:///x.ts", || resolve("/d.ts")), Ok(url("/d.ts")));
        end();
        assert_eq!(calls, 4);
    }

    #[test]
    fn each_load_has_a_window_of_its_own_and_outside_loads_there_is_none() {
        begin();
        let first = window();
        end();
        assert_eq!(window(), None);
        begin();
        let second = window();
        end();
        assert!(first.is_some() && second.is_some() && first != second);
    }

    #[test]
    fn a_thread_without_a_window_keeps_resolutions_only_for_the_work_given() {
        let mut calls = 0;
        keeping_resolutions(|| {
            let _ = remembered("./a", "file:///x.ts", || {
                calls += 1;
                Ok::<_, ()>(url("/a.ts"))
            });
            let _ = remembered("./a", "file:///x.ts", || {
                calls += 1;
                Ok::<_, ()>(url("/a.ts"))
            });
        });
        let _ = remembered("./a", "file:///x.ts", || {
            calls += 1;
            Ok::<_, ()>(url("/a.ts"))
        });
        assert_eq!(calls, 2);
    }

    #[test]
    fn a_failed_resolution_is_tried_again() {
        begin();
        assert_eq!(
            remembered("./gone", "file:///x.ts", || Err::<ModuleSpecifier, _>("missing")),
            Err("missing")
        );
        assert_eq!(
            remembered("./gone", "file:///x.ts", || Ok::<_, &str>(url("/gone.ts"))),
            Ok(url("/gone.ts"))
        );
        end();
    }
}
