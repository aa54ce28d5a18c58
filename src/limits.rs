//! Limits that keep a runaway extension from hanging, starving or killing
//! the host: how long one synchronous run of JavaScript may take, how much
//! heap a runtime may use, and how long one extension may take to load.
//!
//! The CPU limit is kept by a [`Watchdog`] thread per engine. The engine
//! thread marks every entry into the isolate (a call, a turn of the event
//! loop) with the CPU time its thread has used so far; the watchdog reads
//! that thread's CPU clock, sleeps for as long as the entry's CPU time could
//! at most reach the limit in, and, if the entry is still running past it,
//! stops it with the isolate's `terminate_execution`. CPU time, not time on
//! the clock: on a busy machine a healthy extension gets less of the CPU
//! per second and must not be stopped for that. A wall-clock net ten times
//! the limit catches code that waits in a loop without using the CPU.
//! (Where a thread's CPU clock cannot be read from another thread, which is
//! only Linux so far, the clock counts, as before.)

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deno_core::v8;

/// The default CPU limit: how much CPU time one synchronous run may use.
pub const DEFAULT_CPU_LIMIT: Duration = Duration::from_millis(10_000);
/// The default heap limit of one runtime, in MiB.
pub const DEFAULT_MAX_HEAP_MB: usize = 1_024;
/// The default time one extension's module and factory may take to load.
pub const DEFAULT_LOAD_TIMEOUT: Duration = Duration::from_millis(30_000);

/// How much one engine lets its extensions take. `None` turns a limit off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How much CPU time one synchronous run of extension code (a factory,
    /// a handler, a tool, a timer callback, a module's top level) may use
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

/// How much longer than the CPU limit a run may take by the clock before it
/// is stopped all the same: a safety net for code that waits without using
/// the CPU (a loop of short blocking waits), far enough above the limit that
/// a busy machine, which slows a healthy run's clock, never reaches it.
const WALL_CLOCK_FACTOR: u32 = 10;

/// The CPU time a thread has used, read from any thread of the process.
#[derive(Clone, Copy)]
struct ThreadClock {
    #[cfg(target_os = "linux")]
    id: libc::clockid_t,
}

impl ThreadClock {
    /// The clock of the calling thread, or `None` where the platform cannot
    /// read a thread's CPU time from another thread (the wall clock then
    /// stands in, as it did before).
    fn of_current_thread() -> Option<Self> {
        #[cfg(target_os = "linux")]
        {
            let mut id: libc::clockid_t = 0;
            // SAFETY: pthread_self is always valid for the calling thread,
            // and `id` is a valid place for the answer.
            let status = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
            (status == 0).then_some(Self { id })
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }

    /// The thread's CPU time so far, in nanoseconds.
    fn now(self) -> Option<u64> {
        #[cfg(target_os = "linux")]
        {
            let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            // SAFETY: `time` is a valid timespec; a clock of a thread that
            // has ended gives an error, not undefined behaviour.
            let status = unsafe { libc::clock_gettime(self.id, &mut time) };
            (status == 0).then(|| time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }
}

struct Shared {
    /// 0 while no JavaScript runs; else the CPU time of the runtime's thread
    /// when the entry started, in nanoseconds (never 0), with [`FIRED`] set
    /// once it was terminated.
    entry: AtomicU64,
    /// When the running entry started by the clock, in nanoseconds since
    /// `epoch`, less the time it spent waiting for the host.
    entry_wall: AtomicU64,
    epoch: Instant,
    limit: Duration,
    /// The CPU clock of the runtime's thread; `None`: the wall clock counts.
    clock: Option<ThreadClock>,
    isolate: v8::IsolateHandle,
    /// Held while the watchdog marks an entry fired and terminates it, so
    /// the engine never cancels a termination that has not been made yet.
    terminating: Mutex<()>,
    /// Set by the near-heap-limit callback, on the engine thread.
    heap_hit: AtomicBool,
    stop: AtomicBool,
    /// The isolate, for squeezing a run the termination does not reach.
    squeeze: Option<Squeeze>,
    /// Whether the running entry's heap is squeezed (until the engine or
    /// the landing termination gives the heap its limit back).
    squeezed: AtomicBool,
    /// The kernel's id of the runtime's thread, to lower its priority when
    /// a stopped run cannot be ended (Linux only).
    thread_id: Option<i32>,
    /// The extension whose module and factory load now, if one does.
    loading: Mutex<Option<String>>,
    /// Told, on the watchdog's thread, when a stopped run cannot be ended.
    on_stuck: Mutex<Option<StuckListener>>,
}

impl Shared {
    fn wall_now(&self) -> u64 {
        (self.epoch.elapsed().as_nanos() as u64).clamp(1, FIRED - 1)
    }

    /// What the entry word counts from: the runtime thread's CPU time, or
    /// the wall clock where that cannot be read. Called on that thread.
    fn entry_now(&self) -> u64 {
        self.clock
            .and_then(ThreadClock::now)
            .map_or_else(|| self.wall_now(), |nanos| nanos.clamp(1, FIRED - 1))
    }
}

/// Terminates a synchronous run of JavaScript that uses more CPU time than
/// the CPU limit, and carries the heap callback's verdict to the engine.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    /// A watchdog for `isolate`, made on the thread that runs its
    /// JavaScript (whose CPU time it counts); with no CPU limit it runs no
    /// thread and only carries heap-limit hits.
    pub(crate) fn new(isolate: v8::IsolateHandle, limit: Option<Duration>) -> Self {
        Self::with_squeeze(isolate, limit, None)
    }

    /// A watchdog that can also stop a run the termination does not reach
    /// (see [`Squeeze`]): `raw` is the isolate's pointer, `heap_limit` the
    /// heap limit in bytes the squeeze gives back (none: `usize::MAX`).
    ///
    /// # Safety
    /// `raw` must be the isolate of `isolate`, and outlive this watchdog.
    pub(crate) unsafe fn new_squeezing(
        isolate: v8::IsolateHandle,
        raw: v8::UnsafeRawIsolatePtr,
        limit: Option<Duration>,
        heap_limit: Option<usize>,
    ) -> Self {
        let squeeze = Squeeze {
            isolate: raw,
            heap_limit: heap_limit.unwrap_or(usize::MAX),
        };
        Self::with_squeeze(isolate, limit, Some(squeeze))
    }

    fn with_squeeze(isolate: v8::IsolateHandle, limit: Option<Duration>, squeeze: Option<Squeeze>) -> Self {
        let shared = Arc::new(Shared {
            entry: AtomicU64::new(0),
            entry_wall: AtomicU64::new(0),
            epoch: Instant::now(),
            limit: limit.unwrap_or(Duration::MAX),
            clock: ThreadClock::of_current_thread(),
            isolate,
            terminating: Mutex::new(()),
            heap_hit: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            squeeze,
            squeezed: AtomicBool::new(false),
            thread_id: current_thread_id(),
            loading: Mutex::new(None),
            on_stuck: Mutex::new(None),
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

    /// Whether the run that just ended was squeezed; the engine then gives
    /// its heap the limit back before anything else runs.
    pub(crate) fn take_squeezed(&self) -> bool {
        self.shared.squeezed.swap(false, Ordering::AcqRel)
    }

    /// Marks that JavaScript starts running now.
    #[inline]
    pub(crate) fn enter(&self) {
        if self.thread.is_some() {
            let shared = &self.shared;
            shared.entry_wall.store(shared.wall_now(), Ordering::Release);
            shared.entry.store(shared.entry_now(), Ordering::Release);
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

    /// A handle that keeps waits for the host out of the current run's time.
    pub(crate) fn clock(&self) -> WatchdogClock {
        WatchdogClock(self.shared.clone())
    }

    /// A handle the heap callback can keep (it outlives no engine).
    pub(crate) fn heap_signal(&self) -> HeapSignal {
        HeapSignal(self.shared.clone())
    }

    /// Who hears when a stopped run goes on past [`STUCK_AFTER`]: the
    /// runtime then cannot be used again, and only a new one goes on.
    pub(crate) fn on_stuck(&self, listener: StuckListener) {
        if let Ok(mut slot) = self.shared.on_stuck.lock() {
            *slot = Some(listener);
        }
    }

    /// A handle the loader reaches (through an op) to say which extension
    /// loads now, so that a stuck load names it.
    pub(crate) fn loading_mark(&self) -> LoadingMark {
        LoadingMark(self.shared.clone())
    }

    /// A handle pihost's entry code reaches (through an op) to tell that a
    /// squeezed run's refused allocation ended it.
    pub(crate) fn squeeze_signal(&self) -> SqueezeSignal {
        SqueezeSignal(self.shared.clone())
    }
}

/// What a run that waits for the host (a permission prompt) holds to keep
/// the wait out of its time.
#[derive(Clone)]
pub(crate) struct WatchdogClock(Arc<Shared>);

impl WatchdogClock {
    /// Runs `wait` with the current run's clock stopped: the run resumes
    /// with the time it had used before. (A wait uses no CPU time; this
    /// keeps it off the wall-clock safety net too.)
    pub(crate) fn paused<R>(&self, wait: impl FnOnce() -> R) -> R {
        let shared = &self.0;
        let started = shared.wall_now();
        let result = wait();
        let waited = shared.wall_now().saturating_sub(started);
        let _ = shared
            .entry_wall
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |wall| {
                (wall != 0).then(|| wall.saturating_add(waited).clamp(1, FIRED - 1))
            });
        result
    }
}

/// What a runtime whose stopped run cannot be ended tells its listener.
#[derive(Debug, Clone)]
pub(crate) struct Stuck {
    /// The extension that was loading (its module or factory), if one was.
    pub(crate) loading: Option<String>,
}

/// Called on the watchdog's thread when a stopped run cannot be ended.
pub(crate) type StuckListener = Box<dyn Fn(Stuck) + Send + Sync>;

/// What the loader's op holds to say which extension loads now.
pub(crate) struct LoadingMark(Arc<Shared>);

impl LoadingMark {
    /// `Some(path)` while that extension's module and factory load, `None` after.
    pub(crate) fn set(&self, path: Option<String>) {
        if let Ok(mut slot) = self.0.loading.lock() {
            *slot = path;
        }
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

/// What the engine's op state holds so that pihost's entry code can end a
/// squeezed run where its refused allocation landed ([`Squeeze`]).
pub(crate) struct SqueezeSignal(Arc<Shared>);

impl SqueezeSignal {
    /// The byte that says whether the running entry is squeezed (the
    /// `squeezed` flag itself), for JavaScript to read without an op call.
    /// It lives as long as this signal's watchdog state.
    pub(crate) fn flag_ptr(&self) -> *mut u8 {
        self.0.squeezed.as_ptr().cast::<u8>()
    }

    /// If the running entry is squeezed: gives the heap its limit back and
    /// withdraws the termination, which has no run left to stop (the
    /// refused allocation ended it), and says so. The entry stays marked
    /// stopped for its CPU limit, so the engine still blames it.
    pub(crate) fn landed(&self, isolate: &mut v8::Isolate) -> bool {
        let shared = &self.0;
        let Some(squeeze) = &shared.squeeze else {
            return false;
        };
        if !shared.squeezed.load(Ordering::Acquire) {
            return false;
        }
        isolate.remove_near_heap_limit_callback(no_more_heap, squeeze.heap_limit);
        isolate.cancel_terminate_execution();
        true
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

/// Keeps `runtime`'s heap under `mb` MiB with `watchdog`'s heap signal: a
/// run that reaches the limit is terminated, and gets room to unwind while
/// the termination lands, in steps up to a ceiling a quarter of the limit
/// (at least 32 MiB) above it. There allocations fail and throw in the code
/// that makes them: a loop of large native allocations (`new Array(1 <<
/// 20).fill()`) can outrun the termination, which lands only where the
/// engine polls for it, and raising the limit at every hit let such a loop
/// grow the heap geometrically past any bound.
pub(crate) fn watch_heap(runtime: &mut deno_core::JsRuntime, watchdog: &Watchdog, mb: usize) {
    let limit = mb.saturating_mul(1024 * 1024);
    let ceiling = heap_stop_ceiling(limit);
    let signal = watchdog.heap_signal();
    runtime.remove_near_heap_limit_callback(limit);
    runtime.add_near_heap_limit_callback(move |current, _initial| {
        signal.reached();
        raised_heap_limit(current, ceiling)
    });
}

/// Where a heap limit of `limit` bytes refuses allocations while its stop
/// lands: a quarter above it, at least 32 MiB (engine note 32).
pub(crate) fn heap_stop_ceiling(limit: usize) -> usize {
    limit.saturating_add((limit / 4).max(32 * 1024 * 1024))
}

/// The heap limit a near-limit callback gives back at `current`: room for
/// the stop to land, an eighth more (at least 16 MiB), never past `ceiling`.
pub(crate) fn raised_heap_limit(current: usize, ceiling: usize) -> usize {
    current
        .saturating_add((current / 8).max(16 * 1024 * 1024))
        .min(ceiling)
        .max(current)
}

/// Gives `runtime`'s heap its limit back after a squeezed run ([`Squeeze`]):
/// the heap callback at `mb` MiB again, or no limit.
pub(crate) fn unsqueeze(runtime: &mut deno_core::JsRuntime, watchdog: &Watchdog, mb: Option<usize>) {
    match mb {
        Some(mb) => watch_heap(runtime, watchdog, mb),
        None => runtime
            .v8_isolate()
            .remove_near_heap_limit_callback(no_more_heap, usize::MAX),
    }
}

/// After a run filled `runtime`'s heap with what stays live: room, in
/// steps, for pihost's own code to report the stop and for the other
/// extensions to go on until the runtime is replaced, up to half the limit
/// (at least 64 MiB) above it, where allocations fail again.
pub(crate) fn give_heap_room_until_replaced(runtime: &mut deno_core::JsRuntime, mb: usize) {
    let limit = mb.saturating_mul(1024 * 1024);
    let ceiling = limit.saturating_add((limit / 2).max(64 * 1024 * 1024));
    runtime.remove_near_heap_limit_callback(0);
    runtime.add_near_heap_limit_callback(move |current, _initial| raised_heap_limit(current, ceiling));
}

fn watch(shared: &Arc<Shared>) {
    // While nothing runs the watchdog naps a whole limit at a time: an entry
    // that starts meanwhile is still caught at its own deadline, because a
    // thread cannot use more CPU time than passes on the clock, so the nap
    // never outlasts it. Entering costs the engine no wake-up.
    let wall_limit = shared.limit.saturating_mul(WALL_CLOCK_FACTOR);
    // The fired entry not stopped yet, since when, and whether that was said.
    let mut stuck: Option<StillRunning> = None;
    while !shared.stop.load(Ordering::Acquire) {
        let entry = shared.entry.load(Ordering::Acquire);
        if entry & FIRED != 0 {
            let since = say_if_stuck(shared, &mut stuck, entry);
            if since >= SQUEEZE_AFTER {
                squeeze_if_still(shared, entry);
            }
            std::thread::park_timeout(SQUEEZE_AFTER);
            continue;
        }
        stuck = None;
        if entry == 0 {
            std::thread::park_timeout(shared.limit);
            continue;
        }
        let used = match shared.clock {
            Some(clock) => match clock.now() {
                Some(now) => Duration::from_nanos(now.saturating_sub(entry)),
                None => Duration::ZERO,
            },
            None => Duration::from_nanos(shared.wall_now().saturating_sub(entry)),
        };
        let wall_start = shared.entry_wall.load(Ordering::Acquire);
        let waited = Duration::from_nanos(shared.wall_now().saturating_sub(wall_start));
        if used < shared.limit && waited < wall_limit {
            let left = (shared.limit - used).min(wall_limit - waited);
            // Not less than a millisecond: the clock of a busy thread is
            // read again soon enough, without spinning on the last microseconds.
            std::thread::park_timeout(left.max(Duration::from_millis(1)));
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

/// How much CPU time a terminated run may go on using before it is given
/// up: the user is told, the runtime's thread is left to finish at the
/// lowest priority, and the listener ([`Watchdog::on_stuck`]) replaces the
/// runtime. CPU time, not the clock: on a busy machine a run that is being
/// stopped gets little of the CPU, and giving up its runtime then would
/// throw away a runtime that was about to stop as asked. Giving up loses
/// the extensions' state, so it waits for runs that do stop: a loop that
/// catches the squeeze's errors around a sort of 200,000 numbers took 4–5 s
/// of CPU after its stop in a release build and 8 s in a debug build.
const STUCK_AFTER: Duration = Duration::from_secs(15);

/// How long by the clock a terminated run may go on, whatever CPU time it
/// used, before it is given up all the same: a run blocked in a native call
/// uses none.
const STUCK_AFTER_BY_THE_CLOCK: Duration = Duration::from_secs(60);

/// How long a terminated run may go on before its heap is squeezed.
const SQUEEZE_AFTER: Duration = Duration::from_millis(25);

/// A terminated run that has not stopped yet.
struct StillRunning {
    /// Its entry word (with [`FIRED`]).
    entry: u64,
    /// When the watchdog first saw it terminated.
    since: Instant,
    /// The CPU time of the runtime's thread then, when its clock is known.
    cpu_since: Option<u64>,
    /// Whether it was given up.
    given_up: bool,
}

/// Gives up, once, the terminated run `entry` if it still goes on after
/// [`STUCK_AFTER`] of CPU time (or [`STUCK_AFTER_BY_THE_CLOCK`]): the
/// squeeze did not stop it either (a loop of native calls that neither poll
/// nor allocate, docs/engine-notes.md, note 34). How long by the clock the
/// run has gone on since it was terminated.
fn say_if_stuck(shared: &Shared, stuck: &mut Option<StillRunning>, entry: u64) -> Duration {
    match stuck {
        Some(run) if run.entry == entry => {
            let by_the_clock = run.since.elapsed();
            if !run.given_up {
                let cpu_used = match (shared.clock.and_then(|clock| clock.now()), run.cpu_since) {
                    (Some(now), Some(then)) => Duration::from_nanos(now.saturating_sub(then)),
                    _ => by_the_clock,
                };
                if cpu_used >= STUCK_AFTER || by_the_clock >= STUCK_AFTER_BY_THE_CLOCK {
                    run.given_up = true;
                    give_up(shared);
                }
            }
            by_the_clock
        }
        _ => {
            *stuck = Some(StillRunning {
                entry,
                since: Instant::now(),
                cpu_since: shared.clock.and_then(|clock| clock.now()),
                given_up: false,
            });
            Duration::ZERO
        }
    }
}

/// Leaves a run that cannot be stopped to itself: its thread runs on only
/// when nothing else wants the CPU (it ends at the engine's next poll,
/// which may be minutes away), and the listener starts a runtime in its
/// place.
fn give_up(shared: &Shared) {
    let loading = shared.loading.lock().ok().and_then(|slot| slot.clone());
    tracing::error!(
        "pihost: extension code{} stopped for its CPU limit is still running (another {} s of CPU time, or {} s by the clock): it is in a loop of native calls the engine cannot interrupt (docs/engine-notes.md, note 34); its runtime is given up",
        loading.as_deref().map(|path| format!(" of {path}")).unwrap_or_default(),
        STUCK_AFTER.as_secs(),
        STUCK_AFTER_BY_THE_CLOCK.as_secs()
    );
    if let Some(thread) = shared.thread_id {
        run_only_when_idle(thread);
    }
    let listener = shared.on_stuck.lock().ok().and_then(|mut slot| slot.take());
    if let Some(listener) = listener {
        listener(Stuck { loading });
    }
}

/// The kernel's id of the calling thread.
fn current_thread_id() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no preconditions.
        Some(unsafe { libc::gettid() })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Puts thread `thread` of this process in the idle scheduling class, where
/// it gets only the CPU nothing else wants (an unprivileged process may
/// lower its own threads so).
fn run_only_when_idle(thread: i32) {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` is a valid sched_param; a thread that has ended
        // gives an error, not undefined behaviour.
        if unsafe { libc::sched_setscheduler(thread, libc::SCHED_IDLE, &param) } != 0 {
            tracing::warn!(
                "cannot lower the priority of the stuck runtime's thread: {}",
                std::io::Error::last_os_error()
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = thread;
}

/// The way to stop a run the termination does not reach (QuickJS polls for
/// it only every ten thousand calls or loop turns, and a built-in such as a
/// sort, `JSON.parse` or `indexOf` of a large array never polls: a loop of
/// them goes on for hours, engine note 34). Almost everything such a loop
/// does allocates, so the watchdog lowers the heap limit under what the
/// runtime uses: the next allocation fails and throws in the built-in, the
/// loop turns quickly, and the engine's next poll lands the termination.
/// An interrupt queued with the squeeze gives the heap its limit back at
/// that poll, before the termination unwinds anything; the engine does it
/// too when the run ends without one.
struct Squeeze {
    isolate: v8::UnsafeRawIsolatePtr,
    heap_limit: usize,
}

// SAFETY: the pointer is used from the watchdog thread only while the
// engine thread is inside the entry it marked (checked under
// `Shared::terminating`, which the engine takes before it leaves), so the
// isolate is alive; what the squeeze touches there is the engine's atomics
// and its allocation limit.
unsafe impl Send for Squeeze {}
unsafe impl Sync for Squeeze {}

/// Squeezes the heap of the run `entry` if it is still the one running.
fn squeeze_if_still(shared: &Arc<Shared>, entry: u64) {
    let Some(squeeze) = &shared.squeeze else {
        return;
    };
    if shared.squeezed.load(Ordering::Acquire) {
        return;
    }
    let _marking = shared.terminating.lock();
    if shared.entry.load(Ordering::Acquire) != entry {
        return;
    }
    shared.squeezed.store(true, Ordering::Release);
    // The interrupt owns one count of the watchdog's state (it runs once,
    // or the isolate goes away with it pending and that count is lost).
    let data = Arc::into_raw(Arc::clone(shared)) as *mut std::ffi::c_void;
    if !shared.isolate.request_interrupt(give_heap_back, data) {
        // SAFETY: not queued, so still ours.
        drop(unsafe { Arc::from_raw(data as *const Shared) });
    }
    // SAFETY: see `Squeeze`: the engine thread is inside this entry.
    let mut isolate = unsafe { v8::Isolate::from_raw_isolate_ptr(squeeze.isolate) };
    // A limit of one byte and no callback: past its fixed headroom of 16 MB
    // the engine refuses every allocation, at no cost, and re-arms the
    // termination. (A callback that never raised the limit would leave only
    // 2 MB, but the engine measures the whole heap before each call of it,
    // and a squeezed loop that catches its errors then no longer stopped.)
    isolate.remove_near_heap_limit_callback(no_more_heap, 1);
}

/// Runs on the engine thread at the engine's next poll, which lands the
/// termination. The run may have ended before (the engine then gave the
/// heap back itself, and its heap callback is in place again): then nothing.
unsafe extern "C" fn give_heap_back(isolate: v8::UnsafeRawIsolatePtr, data: *mut std::ffi::c_void) {
    // SAFETY: `data` is the count `squeeze_if_still` gave this interrupt.
    let shared = unsafe { Arc::from_raw(data as *const Shared) };
    let (Some(squeeze), true) = (&shared.squeeze, shared.squeezed.load(Ordering::Acquire)) else {
        return;
    };
    // SAFETY: interrupts run on the isolate's own thread, inside it.
    let mut isolate = unsafe { v8::Isolate::from_raw_isolate_ptr(isolate) };
    isolate.remove_near_heap_limit_callback(no_more_heap, squeeze.heap_limit);
}

/// Never called: removing a callback names one, and the engine ignores it.
unsafe extern "C" fn no_more_heap(_data: *mut std::ffi::c_void, current: usize, _initial: usize) -> usize {
    current
}
