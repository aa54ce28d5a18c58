//! Codemode's script sandbox. pi runs each codemode script in a QuickJS VM
//! compiled to WebAssembly; this engine's WebAssembly gives an instance too
//! small a stack for that VM (docs/engine-notes.md, note 46). pihost gives
//! each script a runtime of its own instead, on a thread of its own, with
//! nothing in it but the language (the engine is QuickJS too), the prelude
//! of `js/pi/coding-agent/codemode/prelude.js`, and two ways out: messages
//! to the runtime that started it and that runtime's answers, all JSON text
//! (`js/pi/coding-agent/codemode/sandbox-driver.js`). No platform, no
//! permissions, no ops of pihost's: a script cannot reach files, processes,
//! the network or the host, only the tools the host side hands out.
//!
//! The starting runtime never blocks on a sandbox: it reads the script's
//! messages with an async op and ends a script (its timeout, an abort, the
//! end of the tool call) by terminating the sandbox's isolate, which a
//! script that computes forever cannot prevent (engine note 20). The
//! sandbox's heap is bounded: at its limit the script is stopped and fails
//! with QuickJS's own `InternalError: out of memory`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::poll_fn;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use deno_core::{JsRuntime, OpState, RuntimeOptions, op2, v8};
use deno_error::JsErrorBox;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// The driver, under `js/`.
const DRIVER_PATH: &str = "pi/coding-agent/codemode/sandbox-driver.js";
/// The name the driver's frames carry.
const DRIVER_NAME: &str = "pihost:codemode/sandbox-driver.js";
/// The stack of a sandbox's thread: deep recursion in a script ends in the
/// engine's RangeError well before it.
const THREAD_STACK_BYTES: usize = 8 * 1024 * 1024;

/// What one script runs: the prelude and the script as sources with the
/// file names their frames carry, and the scope the prelude builds its
/// globals from (JSON, passed through).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Job {
    prelude: String,
    prelude_file: String,
    script: String,
    script_file: String,
    scope: String,
}

/// The sandboxes a runtime has started and not closed.
#[derive(Default)]
pub struct CodemodeSandboxes {
    next_id: u32,
    open: HashMap<u32, Sandbox>,
}

impl Drop for CodemodeSandboxes {
    fn drop(&mut self) {
        for sandbox in self.open.values() {
            sandbox.stop.close();
        }
    }
}

struct Sandbox {
    answers: UnboundedSender<String>,
    messages: Rc<RefCell<UnboundedReceiver<String>>>,
    stop: Arc<Stop>,
}

/// How the starting runtime ends a sandbox, whenever it asks: before its
/// isolate exists, while it computes, or while it waits.
#[derive(Default)]
struct Stop {
    closed: AtomicBool,
    isolate: Mutex<Option<v8::IsolateHandle>>,
}

impl Stop {
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        if let Ok(isolate) = self.isolate.lock()
            && let Some(isolate) = isolate.as_ref()
        {
            isolate.terminate_execution();
        }
    }

    /// Whether the sandbox may run: false once it was closed.
    fn attach(&self, isolate: v8::IsolateHandle) -> bool {
        let Ok(mut slot) = self.isolate.lock() else {
            return false;
        };
        if self.closed.load(Ordering::SeqCst) {
            return false;
        }
        *slot = Some(isolate);
        true
    }

    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

/// Starts a sandbox for `job` (JSON: [`Job`]) whose heap holds at most
/// `memory_limit` bytes; its messages are read with
/// `op_pihost_codemode_next`.
#[op2(fast)]
#[smi]
pub fn op_pihost_codemode_open(
    state: &mut OpState,
    #[string] job: String,
    #[number] memory_limit: u64,
) -> Result<u32, JsErrorBox> {
    let job: Job = serde_json::from_str(&job)
        .map_err(|error| JsErrorBox::type_error(format!("pihost: a codemode job is malformed: {error}")))?;
    let (answers, answers_in_sandbox) = unbounded_channel();
    let (messages_from_sandbox, messages) = unbounded_channel();
    let stop = Arc::new(Stop::default());
    let sandbox_stop = stop.clone();
    let memory_limit = usize::try_from(memory_limit).unwrap_or(usize::MAX);
    std::thread::Builder::new()
        .name("pihost-codemode".to_string())
        .stack_size(THREAD_STACK_BYTES)
        .spawn(move || {
            run_thread(
                job,
                memory_limit,
                messages_from_sandbox,
                answers_in_sandbox,
                sandbox_stop,
            )
        })
        .map_err(|error| JsErrorBox::generic(format!("pihost: cannot start a codemode sandbox: {error}")))?;
    let sandboxes = state.borrow_mut::<CodemodeSandboxes>();
    sandboxes.next_id = sandboxes.next_id.wrapping_add(1);
    let id = sandboxes.next_id;
    sandboxes.open.insert(
        id,
        Sandbox {
            answers,
            messages: Rc::new(RefCell::new(messages)),
            stop,
        },
    );
    Ok(id)
}

/// Hands the script the host's answer to one of its calls (JSON).
#[op2(fast)]
pub fn op_pihost_codemode_answer(state: &mut OpState, #[smi] id: u32, #[string] answer: String) {
    if let Some(sandbox) = state.borrow::<CodemodeSandboxes>().open.get(&id) {
        // A sandbox that ended has nobody to read it; its end is reported.
        let _ = sandbox.answers.send(answer);
    }
}

/// The script's next message, or null once its sandbox has ended.
#[op2]
#[string]
pub async fn op_pihost_codemode_next(state: Rc<RefCell<OpState>>, #[smi] id: u32) -> Option<String> {
    let messages = state
        .borrow()
        .borrow::<CodemodeSandboxes>()
        .open
        .get(&id)
        .map(|sandbox| sandbox.messages.clone())?;
    poll_fn(|cx| messages.borrow_mut().poll_recv(cx)).await
}

/// Ends the script wherever it is and forgets its sandbox.
#[op2(fast)]
pub fn op_pihost_codemode_close(state: &mut OpState, #[smi] id: u32) {
    if let Some(sandbox) = state.borrow_mut::<CodemodeSandboxes>().open.remove(&id) {
        sandbox.stop.close();
    }
}

/// What the sandbox's own ops reach.
struct SandboxSide {
    messages: UnboundedSender<String>,
    answers: Rc<RefCell<UnboundedReceiver<String>>>,
}

deno_core::extension!(
    pihost_codemode_sandbox,
    ops = [op_codemode_post, op_codemode_next_answer, op_codemode_turn],
    options = {
        messages: UnboundedSender<String>,
        answers: UnboundedReceiver<String>,
    },
    state = |state, options| {
        state.put(SandboxSide {
            messages: options.messages,
            answers: Rc::new(RefCell::new(options.answers)),
        });
    },
);

#[op2(fast)]
fn op_codemode_post(state: &mut OpState, #[string] message: String) {
    let _ = state.borrow::<SandboxSide>().messages.send(message);
}

#[op2]
#[string]
async fn op_codemode_next_answer(state: Rc<RefCell<OpState>>) -> Option<String> {
    let answers = state.borrow().borrow::<SandboxSide>().answers.clone();
    poll_fn(|cx| answers.borrow_mut().poll_recv(cx)).await
}

/// Completes on a later turn of the event loop, after the promise jobs
/// queued before it.
#[op2]
async fn op_codemode_turn() {
    tokio::task::yield_now().await;
}

fn run_thread(
    job: Job,
    memory_limit: usize,
    messages: UnboundedSender<String>,
    answers: UnboundedReceiver<String>,
    stop: Arc<Stop>,
) {
    let crash = |message: String| {
        let _ = messages.send(serde_json::json!({ "type": "crash", "message": message }).to_string());
    };
    let run =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(
            || match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime.block_on(run_script(job, memory_limit, messages.clone(), answers, &stop)),
                Err(error) => Err(format!("cannot start the sandbox's event loop: {error}")),
            },
        ));
    match run {
        Ok(Ok(())) => {}
        Ok(Err(_)) if stop.is_closed() => {}
        Ok(Err(message)) => crash(message),
        Err(_) => crash("the sandbox's runtime panicked".to_string()),
    }
    // glibc keeps a finished thread's freed heap in its arena otherwise.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Runs the script to its end; an error is a failure of the sandbox, not of
/// the script (the script's own errors are messages).
async fn run_script(
    job: Job,
    memory_limit: usize,
    messages: UnboundedSender<String>,
    answers: UnboundedReceiver<String>,
    stop: &Stop,
) -> Result<(), String> {
    let mut runtime = JsRuntime::try_new(RuntimeOptions {
        extensions: vec![pihost_codemode_sandbox::init(messages.clone(), answers)],
        create_params: Some(v8::Isolate::create_params().heap_limits(0, memory_limit)),
        ..Default::default()
    })
    .map_err(|error| format!("cannot start the sandbox's runtime: {error}"))?;
    if !stop.attach(runtime.v8_isolate().thread_safe_handle()) {
        return Ok(());
    }
    // As the engine's: no stack formatting while a stop lands (engine note 42).
    runtime
        .v8_isolate()
        .set_prepare_stack_trace_callback(crate::stack_traces::stack_trace_unless_terminating);
    let out_of_memory = Arc::new(AtomicBool::new(false));
    let heap_hit = out_of_memory.clone();
    let isolate = runtime.v8_isolate().thread_safe_handle();
    // Room for the stop to land, as the engine's own heap limit gives.
    let ceiling = crate::limits::heap_stop_ceiling(memory_limit);
    runtime.add_near_heap_limit_callback(move |current, _initial| {
        heap_hit.store(true, Ordering::SeqCst);
        isolate.terminate_execution();
        crate::limits::raised_heap_limit(current, ceiling)
    });
    let ran = drive(&mut runtime, job).await;
    if out_of_memory.load(Ordering::SeqCst) && !stop.is_closed() {
        let error = serde_json::json!({
            "name": "InternalError",
            "message": "out of memory",
            "stack": "InternalError: out of memory",
        });
        let _ =
            messages.send(serde_json::json!({ "type": "done", "ok": false, "error": error.to_string() }).to_string());
        return Ok(());
    }
    ran
}

async fn drive(runtime: &mut JsRuntime, job: Job) -> Result<(), String> {
    let driver_source =
        crate::embedded::file(DRIVER_PATH).ok_or_else(|| format!("pihost does not ship {DRIVER_PATH}"))?;
    let driver = runtime
        .execute_script(DRIVER_NAME, driver_source.to_string())
        .map_err(|error| format!("the sandbox's driver failed: {error}"))?;
    let prelude = runtime
        .execute_script(job.prelude_file, job.prelude)
        .map_err(|error| format!("the prelude failed: {error}"))?;
    // A script that does not compile fails as pi reports it: its error as
    // the prelude would describe a thrown one.
    let script = match runtime.execute_script(job.script_file, job.script) {
        Ok(function) => function,
        Err(error) => {
            let description = compile_error_json(&error);
            deno_core::scope!(scope, runtime);
            let text = v8::String::new(scope, &description).ok_or("a compile error too long to report")?;
            v8::Global::new(scope, v8::Local::<v8::Value>::from(text))
        }
    };
    let (driver, scope_json) = {
        deno_core::scope!(scope, runtime);
        let driver = v8::Local::new(scope, driver);
        let driver =
            v8::Local::<v8::Function>::try_from(driver).map_err(|_| "the sandbox's driver is not a function")?;
        let scope_json = v8::String::new(scope, &job.scope).ok_or("the script's scope is too long")?;
        (
            v8::Global::new(scope, driver),
            v8::Global::new(scope, v8::Local::<v8::Value>::from(scope_json)),
        )
    };
    let finished = Box::pin(runtime.call_with_args(&driver, &[prelude, script, scope_json]));
    runtime
        .with_event_loop_promise(finished, deno_core::PollEventLoopOptions::default())
        .await
        .map(|_| ())
        .map_err(|error| error.to_string())
}

/// `{ name, message, stack }` of a compile error, the stack QuickJS's way:
/// the head, then where the error is.
fn compile_error_json(error: &deno_core::error::JsError) -> String {
    let name = error.name.clone().unwrap_or_else(|| "SyntaxError".to_string());
    let message = error.message.clone().unwrap_or_default();
    let head = if message.is_empty() {
        name.clone()
    } else {
        format!("{name}: {message}")
    };
    let frames: Vec<String> = error
        .frames
        .iter()
        .filter_map(|frame| {
            let file = frame.file_name.as_deref()?;
            Some(format!(
                "    at {file}:{}:{}",
                frame.line_number.unwrap_or(0),
                frame.column_number.unwrap_or(0)
            ))
        })
        .collect();
    let stack = std::iter::once(head).chain(frames).collect::<Vec<_>>().join("\n");
    serde_json::json!({ "name": name, "message": message, "stack": stack }).to_string()
}
