//! Child processes: `pi.exec` (A8) on tokio, and how every program an
//! extension starts is checked and, in a sandbox that confines programs,
//! started through the launcher (`node:child_process`'s spawns come here
//! from js/platform/node-fixes.js; Deno's own ops then start them).

use std::cell::RefCell;
use std::collections::HashMap;
use std::process::Stdio;
use std::rc::Rc;
use std::time::Duration;

use deno_core::{OpState, op2};
use deno_error::JsErrorBox;
use tokio::io::AsyncReadExt;
use tokio::sync::Notify;

/// How long a process may ignore SIGTERM before it gets SIGKILL, as in pi.
const FORCE_KILL_DELAY: Duration = Duration::from_secs(5);

struct RunningProcess {
    child: Option<tokio::process::Child>,
    kill: Rc<Notify>,
}

/// The processes `pi.exec` started and has not collected yet.
#[derive(Default)]
pub struct ExecTable {
    next_id: u32,
    running: HashMap<u32, RunningProcess>,
}

#[derive(serde::Serialize)]
pub struct ExecResult {
    stdout: String,
    stderr: String,
    code: i32,
    killed: bool,
    truncated: bool,
}

/// The executable file `program` names, as exec would find it (relative to
/// `cwd`, or on `path`), with links resolved.
fn resolve(program: &str, cwd: &std::path::Path, path: Option<&str>) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |candidate: std::path::PathBuf| {
        candidate
            .metadata()
            .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
            .then(|| std::fs::canonicalize(&candidate).unwrap_or(candidate))
    };
    if program.contains('/') {
        return executable(cwd.join(program));
    }
    path.unwrap_or("/usr/local/bin:/usr/bin:/bin")
        .split(':')
        .filter(|dir| !dir.is_empty())
        .find_map(|dir| executable(cwd.join(dir).join(program)))
}

/// How `program` starts in this runtime, once the runtime's permissions
/// allow it (checked here, and so audited, whatever starts it): through the
/// launcher, with the launcher's arguments, when the sandbox confines its
/// programs; `None` to start it as it is (not confined, or not there to
/// run: the spawn's own error then says so, and nothing ran).
pub(crate) fn confined_command(
    state: &OpState,
    program: &str,
    argv0: &str,
    args: &[String],
    cwd: &std::path::Path,
    path: Option<&str>,
) -> Result<Option<(String, Vec<String>)>, JsErrorBox> {
    use crate::permissions::Confinement;
    if state.borrow::<crate::permissions::PermissionSlot>().get().is_some() {
        crate::permissions::check_run(
            state.borrow::<deno_permissions::PermissionsContainer>(),
            program,
            cwd,
            "child_process",
        )?;
    }
    match state.borrow::<Confinement>() {
        Confinement::Unconfined | Confinement::Unavailable { require: false, .. } => Ok(None),
        Confinement::Unavailable { reason, .. } => Err(JsErrorBox::new(
            "NotCapable",
            format!(
                "pihost: {program} cannot run confined ({reason}), and --confine=require refuses to run it otherwise"
            ),
        )),
        Confinement::Confined {
            launcher,
            rules,
            launcher_granted,
        } => {
            let Some(resolved) = resolve(program, cwd, path) else {
                return Ok(None);
            };
            // The launcher is allowed only to start confined programs.
            if !launcher_granted && std::fs::canonicalize(launcher).is_ok_and(|launcher| launcher == resolved) {
                return Err(JsErrorBox::new(
                    "NotCapable",
                    format!("Requires run access to \"{program}\", run again with the --allow-run flag"),
                ));
            }
            Ok(Some((
                launcher.display().to_string(),
                crate::confine::launcher_args(rules, program, argv0, args),
            )))
        }
    }
}

/// [`confined_command`] for deno_node's spawns (js/platform/node-fixes.js).
#[op2]
#[serde]
pub fn op_pihost_confine_command(
    state: &mut OpState,
    #[string] program: String,
    #[string] argv0: String,
    #[serde] args: Vec<String>,
    #[string] cwd: String,
    #[string] path: String,
) -> Result<Option<(String, Vec<String>)>, JsErrorBox> {
    // An empty PATH is the default search path, as for exec; no cwd is the process's.
    let path = (!path.is_empty()).then_some(path.as_str());
    let cwd = if cwd.is_empty() {
        std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("/"))
    } else {
        std::path::PathBuf::from(cwd)
    };
    confined_command(state, &program, &argv0, &args, &cwd, path)
}

#[op2]
#[smi]
pub fn op_pihost_exec_start(
    state: &mut OpState,
    #[string] command: String,
    #[serde] args: Vec<String>,
    #[string] cwd: String,
) -> Result<u32, JsErrorBox> {
    // The runtime's environment, as pi's exec gives its process's: what the
    // extensions set is there, and what a sandbox hides is not.
    let env = crate::platform::runtime_env(state);
    let (program, args) = confined_command(
        state,
        &command,
        &command,
        &args,
        std::path::Path::new(&cwd),
        env.get("PATH").map(String::as_str),
    )?
    .unwrap_or((command.clone(), args));
    let child = tokio::process::Command::new(&program)
        .args(&args)
        .env_clear()
        .envs(env)
        .current_dir(&cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| {
            let (code, _) = super::node_errors::node_error_code_of(&error);
            JsErrorBox::generic(format!("spawn {command} {code}"))
        })?;
    let table = state.borrow_mut::<ExecTable>();
    table.next_id += 1;
    let id = table.next_id;
    table.running.insert(
        id,
        RunningProcess {
            child: Some(child),
            kill: Rc::new(Notify::new()),
        },
    );
    Ok(id)
}

#[op2(fast)]
pub fn op_pihost_exec_kill(state: &mut OpState, #[smi] id: u32) {
    if let Some(process) = state.borrow::<ExecTable>().running.get(&id) {
        process.kill.notify_one();
    }
}

fn send_signal(child: &tokio::process::Child, signal: i32) {
    if let Some(pid) = child.id() {
        // SAFETY: kill(2) with a pid we spawned and still own; it has no memory effects.
        unsafe {
            libc::kill(pid as libc::pid_t, signal);
        }
    }
}

#[op2]
#[serde]
pub async fn op_pihost_exec_wait(
    state: Rc<RefCell<OpState>>,
    #[smi] id: u32,
    timeout_ms: f64,
) -> Result<ExecResult, JsErrorBox> {
    let (mut child, kill) = {
        let mut state = state.borrow_mut();
        let table = state.borrow_mut::<ExecTable>();
        let process = table
            .running
            .get_mut(&id)
            .ok_or_else(|| JsErrorBox::generic(format!("pihost: no running process {id}")))?;
        let child = process
            .child
            .take()
            .ok_or_else(|| JsErrorBox::generic(format!("pihost: process {id} is already awaited")))?;
        (child, process.kill.clone())
    };
    let mut stdout_pipe = child.stdout.take();
    let mut stderr_pipe = child.stderr.take();
    let read_stdout = async {
        let mut buffer = Vec::new();
        if let Some(pipe) = stdout_pipe.as_mut() {
            let _ = pipe.read_to_end(&mut buffer).await;
        }
        buffer
    };
    let read_stderr = async {
        let mut buffer = Vec::new();
        if let Some(pipe) = stderr_pipe.as_mut() {
            let _ = pipe.read_to_end(&mut buffer).await;
        }
        buffer
    };
    let mut killed = false;
    let wait_for_exit = async {
        let deadline = async {
            if timeout_ms > 0.0 {
                tokio::time::sleep(Duration::from_secs_f64(timeout_ms / 1000.0)).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            status = child.wait() => return status,
            _ = deadline => {},
            _ = kill.notified() => {},
        }
        killed = true;
        send_signal(&child, libc::SIGTERM);
        tokio::select! {
            status = child.wait() => status,
            _ = tokio::time::sleep(FORCE_KILL_DELAY) => {
                let _ = child.start_kill();
                child.wait().await
            }
        }
    };
    let (status, stdout, stderr) = tokio::join!(wait_for_exit, read_stdout, read_stderr);
    state.borrow_mut().borrow_mut::<ExecTable>().running.remove(&id);
    let (code, stderr) = match status {
        Ok(status) => {
            use std::os::unix::process::ExitStatusExt;
            // A signal-killed command has no exit code; the shell convention keeps
            // a timeout or abort from reading as success.
            let code = status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
            (code, String::from_utf8_lossy(&stderr).into_owned())
        }
        Err(error) => (1, error.to_string()),
    };
    Ok(ExecResult {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr,
        code,
        killed,
        truncated: false,
    })
}
