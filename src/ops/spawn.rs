//! Child processes with live streams, behind `child_process.spawn` (and so
//! `exec` and `execFile`): the JS side reads stdout/stderr chunk by chunk,
//! writes stdin, waits for the exit and sends signals. Children are killed
//! when the engine drops them, so a host that stops leaves no orphans.

use std::cell::RefCell;
use std::collections::HashMap;
use std::process::Stdio;
use std::rc::Rc;

use deno_core::{JsBuffer, OpState, op2};
use deno_error::JsErrorBox;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::Mutex;

/// How much one read hands to JS; Node's pipes deliver up to 64 KiB too.
const CHUNK: usize = 64 * 1024;

struct SpawnedProcess {
    pid: u32,
    child: Option<Child>,
    stdin: SharedPipe<ChildStdin>,
    stdout: SharedPipe<ChildStdout>,
    stderr: SharedPipe<ChildStderr>,
    exited: bool,
}

/// The processes `spawn` started, by pihost's id.
#[derive(Default)]
pub struct SpawnTable {
    next_id: u32,
    processes: HashMap<u32, SpawnedProcess>,
}

/// What `spawn` was asked for.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpawnOptions {
    #[serde(default)]
    cwd: Option<String>,
    /// The complete environment (Node replaces it, it does not extend it).
    #[serde(default)]
    env: Option<HashMap<String, String>>,
    /// Per stream (stdin, stdout, stderr): "pipe", "ignore" or "inherit".
    #[serde(default)]
    stdio: Option<[String; 3]>,
    /// Node's `detached`: the child leads a new process group, so the whole
    /// group can be signalled (`process.kill(-pid)`).
    #[serde(default)]
    detached: bool,
}

/// A started process.
#[derive(serde::Serialize)]
pub struct Spawned {
    id: u32,
    pid: u32,
}

/// How a process ended: an exit code, or the signal that ended it.
#[derive(serde::Serialize)]
pub struct ExitStatus {
    code: Option<i32>,
    signal: Option<i32>,
}

fn stdio(kind: Option<&str>) -> Stdio {
    match kind {
        Some("ignore") => Stdio::null(),
        Some("inherit") => Stdio::inherit(),
        _ => Stdio::piped(),
    }
}

/// Starts a process; a failure reads `CODE` (`ENOENT`, `EACCES`, …) for the
/// JS side to emit as Node's asynchronous `error` event.
#[op2]
#[serde]
pub fn op_pihost_spawn(
    state: &mut OpState,
    #[string] command: String,
    #[serde] args: Vec<String>,
    #[serde] options: SpawnOptions,
) -> Result<Spawned, JsErrorBox> {
    let mut builder = tokio::process::Command::new(&command);
    builder.args(&args).kill_on_drop(true);
    if let Some(cwd) = &options.cwd {
        builder.current_dir(cwd);
    }
    if let Some(env) = &options.env {
        builder.env_clear().envs(env);
    }
    if options.detached {
        builder.process_group(0);
    }
    let kinds = options.stdio.as_ref();
    builder
        .stdin(stdio(kinds.map(|k| k[0].as_str())))
        .stdout(stdio(kinds.map(|k| k[1].as_str())))
        .stderr(stdio(kinds.map(|k| k[2].as_str())));
    let mut child = builder.spawn().map_err(|error| {
        let (code, _) = super::fs::node_error_code_of(&error);
        JsErrorBox::generic(code)
    })?;
    let pid = child.id().unwrap_or(0);
    let process = SpawnedProcess {
        pid,
        stdin: Rc::new(Mutex::new(child.stdin.take())),
        stdout: Rc::new(Mutex::new(child.stdout.take())),
        stderr: Rc::new(Mutex::new(child.stderr.take())),
        child: Some(child),
        exited: false,
    };
    let table = state.borrow_mut::<SpawnTable>();
    table.next_id += 1;
    let id = table.next_id;
    table.processes.insert(id, process);
    Ok(Spawned { id, pid })
}

fn missing(id: u32) -> JsErrorBox {
    JsErrorBox::generic(format!("pihost: no spawned process {id}"))
}

/// One of a running process's pipes, shared so an await can hold it while
/// the op state stays free.
type SharedPipe<T> = Rc<Mutex<Option<T>>>;

fn pipe_of<T>(
    state: &Rc<RefCell<OpState>>,
    id: u32,
    pick: impl Fn(&SpawnedProcess) -> &SharedPipe<T>,
) -> Result<SharedPipe<T>, JsErrorBox> {
    let state = state.borrow();
    let process = state
        .borrow::<SpawnTable>()
        .processes
        .get(&id)
        .ok_or_else(|| missing(id))?;
    Ok(pick(process).clone())
}

/// The next chunk a pipe gives; None at its end (or when it was not piped).
async fn read_chunk<R: tokio::io::AsyncRead + Unpin>(pipe: &SharedPipe<R>) -> Option<Vec<u8>> {
    let mut buffer = vec![0; CHUNK];
    let read = match pipe.lock().await.as_mut() {
        Some(pipe) => pipe.read(&mut buffer).await,
        None => Ok(0),
    };
    match read {
        Ok(0) | Err(_) => None,
        Ok(count) => {
            buffer.truncate(count);
            Some(buffer)
        }
    }
}

/// The next chunk of stdout (`fd` 1) or stderr (2); null at end of stream.
#[op2]
#[buffer]
pub async fn op_pihost_spawn_read(
    state: Rc<RefCell<OpState>>,
    #[smi] id: u32,
    #[smi] fd: u32,
) -> Result<Option<Vec<u8>>, JsErrorBox> {
    if fd == 1 {
        Ok(read_chunk(&pipe_of(&state, id, |process| &process.stdout)?).await)
    } else {
        Ok(read_chunk(&pipe_of(&state, id, |process| &process.stderr)?).await)
    }
}

/// Writes to the process's stdin; fails with `EPIPE` when it is closed.
#[op2]
pub async fn op_pihost_spawn_write(
    state: Rc<RefCell<OpState>>,
    #[smi] id: u32,
    #[buffer] data: JsBuffer,
) -> Result<(), JsErrorBox> {
    let stdin = pipe_of(&state, id, |process| &process.stdin)?;
    let mut stdin = stdin.lock().await;
    let pipe = stdin.as_mut().ok_or_else(|| JsErrorBox::generic("EPIPE"))?;
    pipe.write_all(&data).await.map_err(|_| JsErrorBox::generic("EPIPE"))?;
    pipe.flush().await.map_err(|_| JsErrorBox::generic("EPIPE"))
}

/// Closes stdin, so the process reads end of file.
#[op2]
pub async fn op_pihost_spawn_close_stdin(state: Rc<RefCell<OpState>>, #[smi] id: u32) -> Result<(), JsErrorBox> {
    pipe_of(&state, id, |process| &process.stdin)?.lock().await.take();
    Ok(())
}

/// Waits for the process to end.
#[op2]
#[serde]
pub async fn op_pihost_spawn_wait(state: Rc<RefCell<OpState>>, #[smi] id: u32) -> Result<ExitStatus, JsErrorBox> {
    let mut child = {
        let mut state = state.borrow_mut();
        let process = state
            .borrow_mut::<SpawnTable>()
            .processes
            .get_mut(&id)
            .ok_or_else(|| missing(id))?;
        process
            .child
            .take()
            .ok_or_else(|| JsErrorBox::generic(format!("pihost: process {id} is already awaited")))?
    };
    let status = child.wait().await;
    if let Some(process) = state.borrow_mut().borrow_mut::<SpawnTable>().processes.get_mut(&id) {
        process.exited = true;
    }
    match status {
        Ok(status) => {
            use std::os::unix::process::ExitStatusExt;
            Ok(ExitStatus {
                code: status.code(),
                signal: status.signal(),
            })
        }
        Err(error) => Err(JsErrorBox::generic(error.to_string())),
    }
}

/// Sends `signal` to a running process; false when it has already ended.
#[op2(fast)]
pub fn op_pihost_spawn_kill(state: &mut OpState, #[smi] id: u32, #[smi] signal: i32) -> bool {
    let Some(process) = state.borrow::<SpawnTable>().processes.get(&id) else {
        return false;
    };
    if process.exited || process.pid == 0 {
        return false;
    }
    // SAFETY: kill(2) on a child we spawned and have not reaped; no memory effects.
    unsafe { libc::kill(process.pid as libc::pid_t, signal) == 0 }
}

/// Forgets a process whose streams and exit JS has consumed.
#[op2(fast)]
pub fn op_pihost_spawn_release(state: &mut OpState, #[smi] id: u32) {
    state.borrow_mut::<SpawnTable>().processes.remove(&id);
}

/// `process.kill(pid, signal)`: kill(2) as Node calls it (a negative pid
/// signals a process group); false with the errno text when it fails.
#[op2(fast)]
pub fn op_pihost_process_kill(pid: i32, signal: i32) -> Result<(), JsErrorBox> {
    // SAFETY: kill(2) has no memory effects; its failure is reported.
    if unsafe { libc::kill(pid, signal) } == 0 {
        return Ok(());
    }
    let error = std::io::Error::last_os_error();
    let code = match error.raw_os_error() {
        Some(libc::ESRCH) => "ESRCH",
        Some(libc::EPERM) => "EPERM",
        _ => "EINVAL",
    };
    Err(JsErrorBox::generic(code))
}
