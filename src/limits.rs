//! Limits that keep a runaway extension from hanging, starving or killing
//! the host: how long one synchronous run of JavaScript may take, how much
//! heap a runtime may use, and how long one extension may take to load.
//!
//! The CPU limit is kept by a [`Watchdog`] thread per engine. The engine
//! thread marks every entry into the isolate (a call, a turn of the event
//! loop) with two atomic stores; the watchdog sleeps until the deadline of
//! the entry it last saw and, if that entry is still running then, stops it
//! with the isolate's `terminate_execution`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deno_core::v8;

/// The default CPU limit: how long one synchronous run may take.
pub const DEFAULT_CPU_LIMIT: Duration = Duration::from_millis(10_000);
/// The default heap limit of one runtime, in MiB.
pub const DEFAULT_MAX_HEAP_MB: usize = 1_024;
/// The default time one extension's module and factory may take to load.
pub const DEFAULT_LOAD_TIMEOUT: Duration = Duration::from_millis(30_000);

/// How much one engine lets its extensions take. `None` turns a limit off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long one synchronous run of extension code (a factory, a
    /// handler, a tool, a timer callback, a module's top level) may take
    /// before it is terminated. Default [`DEFAULT_CPU_LIMIT`].
    pub cpu: Option<Duration>,
    /// The heap limit of the runtime in MiB; a run that reaches it is
    /// terminated. Default [`DEFAULT_MAX_HEAP_MB`].
    pub max_heap_mb: Option<usize>,
    /// How long one extension's module and factory may take to settle
    /// before that extension fails to load and the next one loads. Default
    /// [`DEFAULT_LOAD_TIMEOUT`].
    pub load_timeout: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            cpu: Some(DEFAULT_CPU_LIMIT),
            max_heap_mb: Some(DEFAULT_MAX_HEAP_MB),
            load_timeout: Some(DEFAULT_LOAD_TIMEOUT),
        }
    }
}

impl Limits {
    /// No limit at all, as pi itself runs extensions.
    pub fn none() -> Self {
        Self {
            cpu: None,
            max_heap_mb: None,
            load_timeout: None,
        }
    }

    /// A limit in milliseconds as the CLI and `serve` take it: 0 is none.
    pub fn millis(ms: u64) -> Option<Duration> {
        (ms > 0).then(|| Duration::from_millis(ms))
    }
}

/// Why the engine stopped a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// It ran longer than the CPU limit.
    Cpu,
    /// It reached the heap limit.
    Heap,
}

/// Set in the entry word while the watchdog is terminating that entry.
const FIRED: u64 = 1 << 63;

struct Shared {
    /// 0 while no JavaScript runs; else the entry's start, in nanoseconds
    /// since `epoch` (never 0), with [`FIRED`] set once it was terminated.
    entry: AtomicU64,
    epoch: Instant,
    limit: Duration,
    isolate: v8::IsolateHandle,
    /// Held while the watchdog marks an entry fired and terminates it, so
    /// the engine never cancels a termination that has not been made yet.
    terminating: Mutex<()>,
    /// Set by the near-heap-limit callback, on the engine thread.
    heap_hit: AtomicBool,
    stop: AtomicBool,
}

/// Terminates a synchronous run of JavaScript that outlasts the CPU limit,
/// and carries the heap callback's verdict to the engine.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// A watchdog for `isolate`; with no CPU limit it runs no thread and
    /// only carries heap-limit hits.
    pub(crate) fn new(isolate: v8::IsolateHandle, limit: Option<Duration>) -> Self {
        let shared = Arc::new(Shared {
            entry: AtomicU64::new(0),
            epoch: Instant::now(),
            limit: limit.unwrap_or(Duration::MAX),
            isolate,
            terminating: Mutex::new(()),
            heap_hit: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let thread = limit.and_then(|_| {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("pihost-watchdog".to_string())
                .spawn(move || watch(&shared))
                .map_err(|error| tracing::warn!("no CPU limit: cannot start the watchdog thread: {error}"))
                .ok()
        });
        Self { shared, thread }
    }

    /// Marks that JavaScript starts running now.
    #[inline]
    pub(crate) fn enter(&self) {
        if self.thread.is_some() {
            let nanos = (self.shared.epoch.elapsed().as_nanos() as u64).clamp(1, FIRED - 1);
            self.shared.entry.store(nanos, Ordering::Release);
        }
    }

    /// Marks that JavaScript stopped running, and says whether the run was
    /// stopped (the isolate's termination is cancelled by then, so the next
    /// run starts clean).
    #[inline]
    pub(crate) fn leave(&self) -> Option<Stop> {
        let entry = self.shared.entry.swap(0, Ordering::AcqRel);
        let heap = self.shared.heap_hit.swap(false, Ordering::AcqRel);
        if entry & FIRED == 0 && !heap {
            return None;
        }
        // The watchdog may be between marking the entry and terminating it.
        let _wait = self.shared.terminating.lock();
        self.shared.isolate.cancel_terminate_execution();
        Some(if heap { Stop::Heap } else { Stop::Cpu })
    }

    /// A handle that pauses the current run's clock.
    pub(crate) fn clock(&self) -> WatchdogClock {
        WatchdogClock(self.shared.clone())
    }

    /// A handle the heap callback can keep (it outlives no engine).
    pub(crate) fn heap_signal(&self) -> HeapSignal {
        HeapSignal(self.shared.clone())
    }
}

/// What a run that waits for the host (a permission prompt) holds to keep
/// the wait out of its CPU time.
#[derive(Clone)]
pub(crate) struct WatchdogClock(Arc<Shared>);

impl WatchdogClock {
    /// Runs `wait` with the current run's clock stopped: the run resumes
    /// with the CPU time it had used before.
    pub(crate) fn paused<R>(&self, wait: impl FnOnce() -> R) -> R {
        let shared = &self.0;
        let entry = shared.entry.load(Ordering::Acquire);
        let paused = entry != 0
            && entry & FIRED == 0
            && shared
                .entry
                .compare_exchange(entry, 0, Ordering::AcqRel, Ordering::Acquire)
                .is_ok();
        let used = shared.epoch.elapsed().saturating_sub(Duration::from_nanos(entry));
        let result = wait();
        if paused {
            let resumed = shared.epoch.elapsed().saturating_sub(used);
            let nanos = (resumed.as_nanos() as u64).clamp(1, FIRED - 1);
            shared.entry.store(nanos, Ordering::Release);
        }
        result
    }
}

/// What the near-heap-limit callback holds to stop the running code.
pub(crate) struct HeapSignal(Arc<Shared>);

impl HeapSignal {
    /// Marks the heap limit reached and terminates the running code.
    pub(crate) fn reached(&self) {
        self.0.heap_hit.store(true, Ordering::Release);
        self.0.isolate.terminate_execution();
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

fn watch(shared: &Shared) {
    // While nothing runs the watchdog naps a whole limit at a time: an entry
    // that starts meanwhile is still caught at its own deadline, because
    // the nap never outlasts it. Entering costs the engine no wake-up.
    while !shared.stop.load(Ordering::Acquire) {
        let entry = shared.entry.load(Ordering::Acquire);
        if entry == 0 || entry & FIRED != 0 {
            std::thread::park_timeout(shared.limit);
            continue;
        }
        let deadline = Duration::from_nanos(entry).saturating_add(shared.limit);
        let now = shared.epoch.elapsed();
        if now < deadline {
            std::thread::park_timeout(deadline - now);
            continue;
        }
        let _marking = shared.terminating.lock();
        if shared
            .entry
            .compare_exchange(entry, entry | FIRED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            shared.isolate.terminate_execution();
        }
    }
}
