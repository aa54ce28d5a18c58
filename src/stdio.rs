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

/// The one writer of a protocol's lines on stdout (`pihost serve`, `pihost
/// mcp`): every task sends whole lines here, so lines never interleave.
pub(crate) struct ProtocolWriter {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

impl ProtocolWriter {
    /// Starts the writer; lines sent to the returned sender go out in order.
    pub(crate) fn start() -> (Self, tokio::sync::mpsc::UnboundedSender<String>) {
        use tokio::io::AsyncWriteExt;
        let (out, mut lines_out) = tokio::sync::mpsc::unbounded_channel::<String>();
        let (stop, mut finish_writing) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut stdout = tokio::io::stdout();
            async fn write_line(stdout: &mut tokio::io::Stdout, line: &str) -> bool {
                stdout.write_all(line.as_bytes()).await.is_ok()
                    && stdout.write_all(b"\n").await.is_ok()
                    && stdout.flush().await.is_ok()
            }
            loop {
                let line = tokio::select! {
                    biased;
                    line = lines_out.recv() => line,
                    // Senders still held elsewhere (by an engine thread given
                    // up, src/handle.rs) are not waited for.
                    _ = &mut finish_writing => None,
                };
                let Some(line) = line else { break };
                if !write_line(&mut stdout, &line).await {
                    return;
                }
            }
            while let Ok(line) = lines_out.try_recv() {
                if !write_line(&mut stdout, &line).await {
                    return;
                }
            }
        });
        (Self { stop, task }, out)
    }

    /// Writes what was sent so far and ends.
    pub(crate) async fn finish(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

/// Something that also sees what extensions print through the console: `pihost
/// mcp` sends it to the client as log messages. Arguments: the text, and
/// whether it went to stderr (`console.error`, `warn`, `trace`).
pub(crate) type ConsoleTap = Box<dyn Fn(&str, bool) + Send + Sync>;

static CONSOLE_TAP: std::sync::RwLock<Option<ConsoleTap>> = std::sync::RwLock::new(None);

/// Sets (or with `None` removes) the process's console tap.
pub(crate) fn tap_extension_console(tap: Option<ConsoleTap>) {
    if let Ok(mut slot) = CONSOLE_TAP.write() {
        *slot = tap;
    }
}

/// Hands console text to the tap, when there is one.
pub(crate) fn to_console_tap(text: &str, to_stderr: bool) {
    if let Ok(slot) = CONSOLE_TAP.read()
        && let Some(tap) = slot.as_ref()
    {
        tap(text, to_stderr);
    }
}

/// The outstanding requests a protocol server sent the other side, by id.
pub(crate) type PendingRequests = std::sync::Arc<
    std::sync::Mutex<
        std::collections::HashMap<u64, tokio::sync::oneshot::Sender<Result<serde_json::Value, crate::host::HostError>>>,
    >,
>;

/// A line of a protocol's stdin that is not JSON (JSON-RPC's parse error).
#[derive(Debug, thiserror::Error)]
#[error("parse error: {0}")]
pub(crate) struct NotJson(#[from] serde_json::Error);

/// The next JSON message on a protocol's stdin: `None` at its end;
/// blank lines are skipped.
pub(crate) async fn next_message(
    lines: &mut tokio::io::Lines<tokio::io::BufReader<tokio::io::Stdin>>,
) -> Option<Result<serde_json::Value, NotJson>> {
    loop {
        let line = lines.next_line().await.ok()??;
        if line.trim().is_empty() {
            continue;
        }
        return Some(serde_json::from_str(&line).map_err(NotJson));
    }
}

/// How many requests `serve` and `mcp` run at once. An agent may pipeline as
/// many as it likes: the rest wait, read and parsed, until one finishes, so a
/// flood neither piles up work in the engine nor memory in tasks (100,000
/// pipelined calls held about 1 GiB at once and could abort the engine).
pub(crate) const REQUESTS_IN_FLIGHT: usize = 256;

/// What comes next to a server whose requests past [`REQUESTS_IN_FLIGHT`]
/// wait: a message on stdin (`None` at its end), or room for a waiting
/// request.
pub(crate) enum Next {
    Message(Option<Result<serde_json::Value, NotJson>>),
    Room,
}

/// The next message on stdin or, while requests wait for room (`waiting`),
/// a finished request, whichever comes first.
pub(crate) async fn next_message_or_room(
    lines: &mut tokio::io::Lines<tokio::io::BufReader<tokio::io::Stdin>>,
    tasks: &mut tokio::task::JoinSet<()>,
    waiting: bool,
) -> Next {
    tokio::select! {
        biased;
        message = next_message(lines) => Next::Message(message),
        Some(finished) = tasks.join_next(), if waiting => {
            report_finished_request(finished);
            Next::Room
        }
    }
}

/// Forgets the requests whose tasks have finished. A `JoinSet` keeps every
/// finished task until it is joined, so a long session that never joined them
/// would hold every request it ever answered (about 8 KiB each). A task that
/// panicked is logged: its request was never answered.
pub(crate) fn forget_finished_requests(tasks: &mut tokio::task::JoinSet<()>) {
    while let Some(finished) = tasks.try_join_next() {
        report_finished_request(finished);
    }
}

/// Logs a request's task that panicked (its request was never answered).
pub(crate) fn report_finished_request(finished: Result<(), tokio::task::JoinError>) {
    if let Err(error) = finished
        && error.is_panic()
    {
        tracing::error!("a request's task panicked: {error}");
    }
}

/// Hands a response of the other side (`who`) to the request it answers.
pub(crate) fn answer_pending(pending: &PendingRequests, message: &serde_json::Value, who: &str) {
    use serde_json::Value;
    let Some(id) = message.get("id").and_then(Value::as_u64) else {
        return;
    };
    let Some(reply) = pending.lock().ok().and_then(|mut pending| pending.remove(&id)) else {
        return;
    };
    let answer = match message.get("error") {
        Some(error) => Err(crate::host::HostError(
            error
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| format!("the {who} answered with an error"), str::to_string),
        )),
        None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
    };
    let _ = reply.send(answer);
}
