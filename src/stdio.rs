//! Where what extensions print goes: the host's stdout, or its stderr where
//! stdout carries a protocol or a report (the CLI, `pihost serve`).

use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_TO_STDERR: AtomicBool = AtomicBool::new(false);

/// Sends what extensions write to stdout (`console.log`,
/// `process.stdout.write`) to stderr instead, for every runtime in the
/// process: `pihost serve` speaks its protocol on stdout.
pub fn route_extension_stdout_to_stderr(yes: bool) {
    STDOUT_TO_STDERR.store(yes, Ordering::Relaxed);
}

/// Whether extensions' standard output goes to stderr.
pub fn stdout_goes_to_stderr() -> bool {
    STDOUT_TO_STDERR.load(Ordering::Relaxed)
}
