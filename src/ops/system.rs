//! Writing what extensions print through pihost's console.

use deno_core::op2;

/// pihost's console (js/runtime/console.js): stderr, or stdout unless it
/// carries a protocol or a report (see [`crate::stdio`]).
#[op2(fast)]
pub fn op_pihost_write(#[string] text: &str, to_stderr: bool) {
    use std::io::Write;
    let result = if to_stderr || crate::stdio::stdout_goes_to_stderr() {
        let mut stderr = std::io::stderr().lock();
        stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush())
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush())
    };
    // A closed pipe must not take the extension down; Node would emit EPIPE later.
    let _ = result;
    crate::stdio::to_console_tap(text, to_stderr);
}
