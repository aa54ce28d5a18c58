//! Memory the allocator holds free, given back to the system as loads go.
//!
//! A load frees much of what it allocated (each module's text once the
//! engine has compiled it, transpile cache entries, the prefetch thread's
//! reads), and glibc keeps freed pages resident until the same arena
//! allocates again. The prefetch thread allocates from an arena of its
//! own, which the engine's thread never reuses, so what it read stayed
//! resident for the process's life. Measured on the real-packages set
//! (docs/benchmarks.md, twenty-fourth session): peak resident memory of a
//! cold load 389 → 320 MB, of a warm one 303 → 293 MB.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Loading time between two give-backs: each costs 0.05–3 ms (it walks
/// every arena's free chunks), so loads that take microseconds (a shared
/// session's cached factories) never pay for one, and a first start, whose
/// pages come back as it allocates again, pays ~3 % (more page faults).
/// It is also the least wall time between two: engines loading at once
/// (a `serve` process opening many isolated sessions) add their loading
/// times up, and would otherwise give back many times a second.
const LOADING_BETWEEN: Duration = Duration::from_millis(100);

/// Loading time since the last give-back, over every engine of the
/// process, and when that was.
static LOADING: Mutex<Loading> = Mutex::new(Loading::new());

struct Loading {
    since_last: Duration,
    last: Option<Instant>,
}

impl Loading {
    /// Nothing loaded yet, nothing given back.
    const fn new() -> Self {
        Loading {
            since_last: Duration::ZERO,
            last: None,
        }
    }

    /// Counts a load of `took` that ended at `now`; whether it is time to
    /// give memory back.
    fn add(&mut self, took: Duration, now: Instant) -> bool {
        self.since_last += took;
        let waited = self
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= LOADING_BETWEEN);
        if self.since_last < LOADING_BETWEEN || !waited {
            return false;
        }
        self.since_last = Duration::ZERO;
        self.last = Some(now);
        true
    }
}

/// Called when an extension's load ended after `took` (its import and
/// factory): gives the allocator's free pages back once loads have taken
/// long enough since the last time.
pub(crate) fn after_load(took: Duration) {
    let due = LOADING
        .lock()
        .is_ok_and(|mut loading| loading.add(took, Instant::now()));
    if due {
        give_back();
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back() {
    // SAFETY: malloc_trim only takes the arenas' locks and returns whole
    // free pages to the kernel; it touches no memory in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_given_back_once_per_tenth_of_a_second_of_loading() {
        let mut loading = Loading::new();
        let millis = Duration::from_millis;
        let start = Instant::now();
        // A shared session's cached factories: microseconds each, nothing given back.
        assert!((0..1_000).all(|_| !loading.add(Duration::from_micros(50), start)));
        assert!(!loading.add(millis(40), start + millis(40)));
        assert!(
            loading.add(millis(20), start + millis(60)),
            "50 + 40 + 20 ms of loading"
        );
        assert!(
            !loading.add(millis(99), start + millis(200)),
            "counted anew after a give-back"
        );
        assert!(loading.add(millis(250), start + millis(450)), "one long load");
    }

    #[test]
    fn engines_loading_at_once_give_back_at_most_once_per_tenth_of_a_second() {
        let mut loading = Loading::new();
        let millis = Duration::from_millis;
        let start = Instant::now();
        assert!(loading.add(millis(150), start));
        // Fifty engines, each ending a 150 ms load within the next 50 ms.
        assert!((1..=50).all(|at| !loading.add(millis(150), start + Duration::from_micros(at * 1_000))));
        assert!(loading.add(millis(1), start + millis(100)), "due again after 100 ms");
    }
}
