//! The bad-input battery: extensions that loop, allocate without end, wait
//! on promises nothing can settle, or are not valid UTF-8, each loaded next
//! to a healthy one, through the CLI, the `Pihost` handle and `pihost serve`.
//! The bad one fails with an error that names it; the healthy one still
//! registers and answers; nothing hangs. Limits are generous (a 700 ms CPU
//! limit) so the suite stays fast and no timing is asserted.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use pihost::host::{HostState, RecordingHost};
use pihost::{Limits, Pihost, PihostError};
use serde_json::{Value, json};
use support::*;

const CPU_LIMIT_MS: u64 = 700;

/// One battery at a time: the limits are wall-clock time, and six batteries
/// side by side on a small machine would make the allocations outlast them.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
const HEAP_MB: usize = 64;

const HEALTHY: &str = r#"
export default function (pi) {
  pi.registerCommand("hello", { handler: async () => {
    // Timers still fire after a stopped timer callback.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return "hello from healthy";
  } });
  pi.on("tool_call", async (event) => (event.toolName === "bash" ? { block: true, reason: "healthy says no" } : undefined));
  pi.on("agent_start", async () => { globalThis.healthySawAgentStart = true; });
  pi.registerCommand("saw-agent-start", { handler: async () => globalThis.healthySawAgentStart === true });
}
"#;

/// Bad factories and modules: each fails to load, the others load.
const BAD_AT_LOAD: &[(&str, &str, &str)] = &[
    (
        "factory-loop.ts",
        "export default function (pi) { for (;;) {} }\n",
        "did not return within 700 ms while loading (terminated)",
    ),
    (
        "top-level-loop.js",
        "for (;;) {}\nexport default function (pi) {}\n",
        "did not return within 700 ms while loading (terminated)",
    ),
    (
        "factory-alloc.ts",
        "export default function (pi) { const keep = []; for (;;) keep.push(new Array(1000).fill(Math.random())); }\n",
        "exceeded the heap limit of 64 MB while loading",
    ),
    (
        "factory-never-settles.ts",
        "export default async function (pi) { await new Promise(() => {}); }\n",
        "never settled while loading: nothing was left that could settle it",
    ),
    (
        "factory-slow.ts",
        "export default async function (pi) { await new Promise((resolve) => setTimeout(resolve, 600000)); }\n",
        "did not finish loading within 1000 ms",
    ),
];

/// Bad handlers, tools and commands: they load, and fail when called.
const BAD_AT_RUN: &str = r#"
export default function (pi) {
  pi.on("tool_call", (event) => { if (event.toolName === "spin") for (;;) {} });
  pi.on("agent_start", () => new Promise(() => {}));
  pi.on("turn_start", () => { setTimeout(() => { for (;;) {} }, 0); });
  pi.registerTool({ name: "spin-tool", parameters: { type: "object" }, execute: async () => { for (;;) {} } });
  pi.registerTool({ name: "hang-tool", parameters: { type: "object" }, execute: () => new Promise(() => {}) });
  pi.registerTool({ name: "sort-tool", parameters: { type: "object" }, execute: async () => {
    const items = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1000003); for (;;) items.slice().sort();
  } });
  pi.registerTool({ name: "alloc-tool", parameters: { type: "object" }, execute: async () => {
    const keep = []; for (;;) keep.push(new Array(1000).fill(Math.random()));
  } });
  pi.registerTool({ name: "hoard-tool", parameters: { type: "object" }, execute: async () => {
    globalThis.hoard = []; for (;;) globalThis.hoard.push(new Array(1000).fill(Math.random()));
  } });
  pi.registerCommand("spin-cmd", { handler: async () => { for (;;) {} } });
  pi.registerCommand("hang-cmd", { handler: () => new Promise(() => {}) });
}
"#;

/// A factory whose description holds an invalid UTF-8 byte after a BOM.
fn invalid_utf8_source() -> Vec<u8> {
    let mut bytes =
        b"\xef\xbb\xbfexport default function (pi) { pi.registerCommand(\"bytes\", { description: \"caf".to_vec();
    bytes.push(0xff);
    bytes.extend_from_slice(b"\", handler: async () => \"decoded\" }); }\n");
    bytes
}

struct Battery {
    project: Project,
    load_paths: Vec<String>,
}

impl Battery {
    fn new() -> Self {
        let project = Project::new();
        let mut load_paths = Vec::new();
        for (name, source, _) in BAD_AT_LOAD {
            load_paths.push(project.write(name, source));
        }
        load_paths.push(project.write("bad-at-run.ts", BAD_AT_RUN));
        let utf8 = project.path("invalid-utf8.js");
        std::fs::write(&utf8, invalid_utf8_source()).expect("write");
        load_paths.push(utf8.display().to_string());
        load_paths.push(project.write("healthy.ts", HEALTHY));
        Self { project, load_paths }
    }

    fn limits() -> Limits {
        Limits {
            cpu: Some(Duration::from_millis(CPU_LIMIT_MS)),
            max_heap_mb: Some(HEAP_MB),
            load_timeout: Some(Duration::from_millis(1000)),
        }
    }

    fn limit_args() -> Vec<String> {
        [
            "--cpu-limit-ms",
            &CPU_LIMIT_MS.to_string(),
            "--max-heap-mb",
            &HEAP_MB.to_string(),
            "--load-timeout-ms",
            "1000",
        ]
        .iter()
        .map(|arg| arg.to_string())
        .collect()
    }

    fn cli(&self, verb_args: &[&str]) -> (Value, i32) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pihost"));
        command.args(verb_args).args(Self::limit_args());
        command.arg("--cwd").arg(self.project.root.path());
        command.arg("--agent-dir").arg(self.project.path("agent"));
        for path in &self.load_paths {
            command.arg("-e").arg(path);
        }
        let output = command.output().expect("pihost runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let value = serde_json::from_str(&stdout)
            .unwrap_or_else(|_| panic!("not JSON: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)));
        (value, output.status.code().unwrap_or(-1))
    }
}

fn assert_load_errors(errors: &Value, battery: &Battery) {
    let errors = errors.as_array().expect("errors");
    for (name, _, expected) in BAD_AT_LOAD {
        let path = battery.project.path(name).display().to_string();
        let error = errors
            .iter()
            .find(|error| error["path"] == json!(path))
            .unwrap_or_else(|| panic!("no load error for {name}: {errors:#?}"));
        let text = error["error"].as_str().unwrap_or_default();
        assert!(
            text.contains(&format!("Extension \"{path}\"")) && text.contains(expected),
            "{name}: {text}"
        );
    }
    assert_eq!(
        errors.len(),
        BAD_AT_LOAD.len(),
        "only the bad factories fail: {errors:#?}"
    );
}

#[test]
fn inspect_loads_every_healthy_extension_next_to_bad_factories() {
    let _serial = one_at_a_time();
    let battery = Battery::new();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pihost"));
    command.arg("inspect").arg("--json").args(Battery::limit_args());
    command.arg("--cwd").arg(battery.project.root.path());
    command.arg("--agent-dir").arg(battery.project.path("agent"));
    command.args(&battery.load_paths);
    let output = command.output().expect("pihost runs");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    assert_load_errors(&report["errors"], &battery);
    let commands: Vec<(String, Value)> = report["extensions"]
        .as_array()
        .expect("extensions")
        .iter()
        .flat_map(|extension| extension["commands"].as_array().cloned().unwrap_or_default())
        .map(|command| {
            (
                command["name"].as_str().unwrap_or_default().to_string(),
                command["description"].clone(),
            )
        })
        .collect();
    assert!(commands.iter().any(|(name, _)| name == "hello"), "{commands:?}");
    assert!(commands.iter().any(|(name, _)| name == "spin-cmd"), "{commands:?}");
    // Decoded as Node does: the BOM dropped, the invalid byte a U+FFFD.
    assert!(
        commands
            .iter()
            .any(|(name, description)| name == "bytes" && description == &json!("caf\u{fffd}")),
        "{commands:?}"
    );
}

#[test]
fn the_cli_verbs_fail_the_bad_call_with_its_extension_named_and_never_hang() {
    let _serial = one_at_a_time();
    let battery = Battery::new();
    let bad = battery.project.path("bad-at-run.ts").display().to_string();
    let expectations: &[(&[&str], &str)] = &[
        (
            &[
                "emit",
                "--event",
                r#"{"type":"tool_call","toolName":"spin","toolCallId":"1","input":{}}"#,
            ],
            "did not return within 700 ms in its \"tool_call\" handler (terminated)",
        ),
        (
            &["tool", "spin-tool"],
            "did not return within 700 ms in tool \"spin-tool\" (terminated)",
        ),
        (
            &["tool", "hang-tool"],
            "never settled in tool \"hang-tool\": nothing was left that could settle it",
        ),
        (
            &["tool", "alloc-tool"],
            "exceeded the heap limit of 64 MB in tool \"alloc-tool\"",
        ),
        (
            &["command", "spin-cmd"],
            "did not return within 700 ms in command \"/spin-cmd\" (terminated)",
        ),
        (
            &["command", "hang-cmd"],
            "never settled in command \"/hang-cmd\": nothing was left that could settle it",
        ),
    ];
    for (args, expected) in expectations {
        let (output, code) = battery.cli(args);
        let error = output["error"].as_str().unwrap_or_default();
        assert_eq!(code, 1, "{args:?}: {output:#}");
        assert!(
            error.contains(&format!("Extension \"{bad}\"")) && error.contains(expected),
            "{args:?}: {error}"
        );
        assert_load_errors(&output["loadErrors"], &battery);
    }
    // A handler that never settles is reported and swallowed (pi's rule for
    // agent_start); the dispatch itself answers.
    let (output, code) = battery.cli(&["emit", "--event", r#"{"type":"agent_start"}"#]);
    assert_eq!(code, 0, "{output:#}");
    let reported = output["errors"].to_string();
    assert!(
        reported.contains("never settled in its \\\"agent_start\\\" handler"),
        "{output:#}"
    );
    let (output, code) = battery.cli(&["command", "hello"]);
    assert_eq!(
        (code, &output["result"]),
        (0, &json!("hello from healthy")),
        "{output:#}"
    );
}

fn extension_message(result: Result<Option<Value>, PihostError>) -> String {
    match result {
        Err(PihostError::Extension { message, .. }) => message,
        other => panic!("expected the extension's error, got {other:?}"),
    }
}

async fn loaded(battery: &Battery) -> (Pihost, tokio::sync::broadcast::Receiver<pihost::host::ExtensionError>) {
    let mut options = battery.project.options();
    options.limits = Battery::limits();
    let pihost = Pihost::start(options).await.expect("start");
    let errors = pihost.errors();
    let report = pihost.load(&battery.load_paths).await.expect("load");
    let report = serde_json::to_value(&report).expect("report");
    assert_load_errors(&report["errors"], battery);
    pihost
        .bind(Arc::new(RecordingHost::new()), &HostState::default())
        .await
        .expect("bind");
    (pihost, errors)
}

async fn healthy_answers(pihost: &Pihost) {
    let hello = pihost.run_command("hello", "").await.expect("hello");
    assert_eq!(hello, Some(json!("hello from healthy")));
    let blocked = pihost
        .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "b", "input": {} }))
        .await
        .expect("emit");
    assert_eq!(blocked, Some(json!({ "block": true, "reason": "healthy says no" })));
}

async fn next_error(
    errors: &mut tokio::sync::broadcast::Receiver<pihost::host::ExtensionError>,
    event: &str,
) -> String {
    loop {
        let error = tokio::time::timeout(Duration::from_secs(20), errors.recv())
            .await
            .expect("an error arrives")
            .expect("stream open");
        if error.event == event {
            return error.error;
        }
    }
}

#[test]
fn the_handle_stops_each_bad_call_and_the_same_runtime_answers_the_next() {
    let _serial = one_at_a_time();
    let battery = Battery::new();
    let bad = battery.project.path("bad-at-run.ts").display().to_string();
    runtime().block_on(async {
        let (pihost, mut errors) = loaded(&battery).await;
        healthy_answers(&pihost).await;

        let spin = pihost
            .emit(&json!({ "type": "tool_call", "toolName": "spin", "toolCallId": "s", "input": {} }))
            .await;
        let message = extension_message(spin);
        assert!(
            message.contains(&format!(
                "Extension \"{bad}\" did not return within 700 ms in its \"tool_call\" handler"
            )),
            "{message}"
        );
        healthy_answers(&pihost).await;

        for (tool, expected) in [
            (
                "spin-tool",
                "did not return within 700 ms in tool \"spin-tool\" (terminated)",
            ),
            ("hang-tool", "never settled in tool \"hang-tool\""),
            // Stopped by squeezing its heap (a loop of built-in sorts);
            // the heap limit still holds for the next runaway.
            (
                "sort-tool",
                "did not return within 700 ms in tool \"sort-tool\" (terminated)",
            ),
            ("alloc-tool", "exceeded the heap limit of 64 MB in tool \"alloc-tool\""),
        ] {
            let message = extension_message(pihost.execute_tool(tool, "t", &json!({}), None).await);
            assert!(
                message.contains(&format!("Extension \"{bad}\" {expected}")),
                "{message}"
            );
            healthy_answers(&pihost).await;
        }
        for (command, expected) in [
            ("spin-cmd", "did not return within 700 ms in command \"/spin-cmd\""),
            ("hang-cmd", "never settled in command \"/hang-cmd\""),
        ] {
            let message = extension_message(pihost.run_command(command, "").await);
            assert!(
                message.contains(&format!("Extension \"{bad}\" {expected}")),
                "{message}"
            );
            healthy_answers(&pihost).await;
        }

        // Reported and swallowed: the healthy handler of the same event ran.
        pihost.emit(&json!({ "type": "agent_start" })).await.expect("emit");
        let reported = next_error(&mut errors, "agent_start").await;
        assert!(
            reported.contains(&format!("Extension \"{bad}\" never settled")),
            "{reported}"
        );
        assert_eq!(
            pihost.run_command("saw-agent-start", "").await.expect("cmd"),
            Some(json!(true))
        );

        // A timer callback that loops: reported with the extension that set it.
        pihost
            .emit(&json!({ "type": "turn_start", "turnIndex": 0 }))
            .await
            .expect("emit");
        let reported = next_error(&mut errors, "timer").await;
        assert!(
            reported.contains(&format!(
                "Extension \"{bad}\" did not return within 700 ms in a timer callback"
            )),
            "{reported}"
        );
        healthy_answers(&pihost).await;
    });
}

#[test]
fn a_heap_that_stays_full_restarts_the_engine_and_an_extension_filling_it_a_third_time_is_left_out() {
    let _serial = one_at_a_time();
    let battery = Battery::new();
    let bad = battery.project.path("bad-at-run.ts").display().to_string();
    runtime().block_on(async {
        let (pihost, mut errors) = loaded(&battery).await;
        pihost.set_flag("unused", &json!(true)).await.expect("flag");
        let hoard = pihost.execute_tool("hoard-tool", "h", &json!({}), None).await;
        assert!(hoard.is_err(), "{hoard:?}");
        let restarted = next_error(&mut errors, "engineRestarted").await;
        assert!(restarted.contains("restarted the engine"), "{restarted}");
        // The new runtime has the same extensions, bound to the same host.
        healthy_answers(&pihost).await;
        let has_hoard = || async {
            let registrations = pihost.registrations().await.expect("registrations");
            registrations.tools.iter().any(|tool| tool.name == "hoard-tool")
        };
        assert!(has_hoard().await);
        // Each runtime dropped full keeps much of its heap (engine note 50):
        // an extension that fills it a third time is left out, so a runaway
        // cannot grow the process until the machine kills it.
        pihost
            .execute_tool("hoard-tool", "h2", &json!({}), None)
            .await
            .expect_err("second fill");
        assert!(
            next_error(&mut errors, "engineRestarted")
                .await
                .contains("with the same extensions")
        );
        pihost
            .execute_tool("hoard-tool", "h3", &json!({}), None)
            .await
            .expect_err("third fill");
        let left_out = next_error(&mut errors, "engineRestarted").await;
        assert!(
            left_out.contains(&format!("\"{bad}\" filled the heap beyond recovery 3 times"))
                && left_out.contains("without it"),
            "{left_out}"
        );
        assert!(!has_hoard().await);
        healthy_answers(&pihost).await;
    });
}

#[test]
fn a_crashed_engine_fails_pending_calls_and_can_be_restarted() {
    let _serial = one_at_a_time();
    let battery = Battery::new();
    runtime().block_on(async {
        let (pihost, _errors) = loaded(&battery).await;
        let pending = tokio::spawn({
            let pihost = pihost.clone();
            async move { pihost.run_command("hang-cmd", "").await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        pihost.crash_engine_for_tests();
        let answer = tokio::time::timeout(Duration::from_secs(20), pending)
            .await
            .expect("the pending call is answered")
            .expect("join");
        assert!(
            matches!(
                answer,
                Err(PihostError::EngineCrashed { .. }) | Err(PihostError::Extension { .. })
            ),
            "{answer:?}"
        );
        let later = pihost.run_command("hello", "").await;
        assert!(matches!(later, Err(PihostError::EngineCrashed { .. })), "{later:?}");
        assert!(pihost.is_crashed());
        pihost.restart().await.expect("restart");
        healthy_answers(&pihost).await;
    });
}

/// `pihost serve` in a folder, spoken to one request at a time.
struct Serve {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<Value>,
    patience: Duration,
}

impl Serve {
    fn start(cwd: &std::path::Path, patience: Duration) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .arg("serve")
            .arg("--cwd")
            .arg(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pihost serve starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = std::sync::mpsc::channel::<Value>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(serde_json::from_str(&line).unwrap_or(Value::Null)).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
            patience,
        }
    }

    fn request(&mut self, id: u64, method: &str, params: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        let line = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
    }

    /// The answer to request `id`, skipping notifications and host requests.
    fn response(&self, id: u64) -> Value {
        loop {
            let message = self
                .lines
                .recv_timeout(self.patience)
                .unwrap_or_else(|_| panic!("pihost answered request {id} in time"));
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// Closes serve's input; the process, to wait for.
    fn finish(mut self) -> std::process::Child {
        self.stdin = None;
        self.child
    }
}

#[test]
fn serve_answers_every_request_next_to_bad_extensions() {
    let _serial = one_at_a_time();
    let battery = Battery::new();
    let mut serve = Serve::start(battery.project.root.path(), Duration::from_secs(30));
    serve.request(
        1,
        "initialize",
        json!({
            "paths": battery.load_paths,
            "agentDir": battery.project.path("agent"),
            "cpuLimitMs": CPU_LIMIT_MS,
            "maxHeapMb": HEAP_MB,
            "loadTimeoutMs": 1000,
        }),
    );
    assert_eq!(serve.response(1)["result"]["serverInfo"]["name"], "pihost");
    serve.request(2, "load", json!({}));
    assert_load_errors(&serve.response(2)["result"]["errors"], &battery);
    serve.request(3, "bind", json!({ "state": {} }));
    assert_eq!(serve.response(3)["result"], Value::Null);
    let requests: &[(&str, Value, &str)] = &[
        (
            "emit",
            json!({ "event": { "type": "tool_call", "toolName": "spin", "toolCallId": "1", "input": {} } }),
            "terminated",
        ),
        ("executeTool", json!({ "name": "spin-tool" }), "terminated"),
        ("executeTool", json!({ "name": "hang-tool" }), "never settled"),
        (
            "executeTool",
            json!({ "name": "alloc-tool" }),
            "exceeded the heap limit",
        ),
        ("runCommand", json!({ "name": "spin-cmd" }), "terminated"),
        ("runCommand", json!({ "name": "hang-cmd" }), "never settled"),
        ("executeTool", json!({ "name": "hoard-tool" }), ""),
    ];
    let mut id = 10;
    for (method, params, expected) in requests {
        serve.request(id, method, params.clone());
        let answer = serve.response(id);
        let message = answer["error"]["message"].as_str().unwrap_or_default().to_string();
        assert!(
            answer.get("error").is_some() && message.contains(expected),
            "{method} {params}: {answer}"
        );
        id += 1;
        serve.request(id, "runCommand", json!({ "name": "hello" }));
        assert_eq!(
            serve.response(id)["result"]["result"],
            "hello from healthy",
            "after {method} {params}"
        );
        id += 1;
    }
    // A request with its own timeout: the tool is aborted when it runs out.
    serve.request(id, "executeTool", json!({ "name": "hang-tool", "timeoutMs": 50 }));
    assert!(serve.response(id).get("error").is_some());
    serve.request(99, "shutdown", Value::Null);
    assert_eq!(serve.response(99)["result"], Value::Null);
    let status = serve.finish().wait().expect("serve exits");
    assert!(status.success());
}

/// What real runaways do, each at load, in a tool and in a `tool_call`
/// handler: (name, the runaway's statement, what the error says, or empty
/// where the engine's own error ends it first). A tool and a handler of the
/// same extension run it when called.
const RUNAWAYS: &[(&str, &str, &str)] = &[
    (
        "large-arrays",
        "const keep = []; for (;;) keep.push(new Array(1 << 20).fill(\"x\"));",
        "exceeded the heap limit of 64 MB",
    ),
    (
        "large-typed-arrays",
        "const keep = []; for (;;) keep.push(new Float64Array(1 << 22).fill(1));",
        "exceeded the heap limit of 64 MB",
    ),
    (
        "large-buffers",
        // Zero-filled: deno_node fills a Buffer with a number byte by byte
        // in JavaScript (80 ms a megabyte), slower than the CPU limit here.
        "const keep = []; for (;;) keep.push(Buffer.alloc(1 << 20));",
        "exceeded the heap limit of 64 MB",
    ),
    (
        "doubling-string",
        "let text = \"x\"; const keep = []; for (;;) { text = text + text; keep.push(text + \"!\"); }",
        // QuickJS joins strings lazily, so the doubling string reaches the
        // engine's longest string before it takes much memory: the engine
        // throws its RangeError (`string too long`) in the extension's code,
        // which fails the call as any error the extension throws does.
        "",
    ),
    (
        "catastrophic-regex",
        "for (;;) /^(a+)+$/.test(\"a\".repeat(40) + \"b\");",
        "did not return within 2000 ms",
    ),
    (
        "large-sort",
        "const items = Array.from({ length: 1 << 18 }, () => Math.random()); for (;;) items.sort((a, b) => a - b).reverse();",
        "did not return within 2000 ms",
    ),
    // Loops of long built-in calls that never poll for a termination (engine
    // note 34): stopped by squeezing the heap, their next allocation fails.
    // Sized to stay under the 64 MB heap limit, so the CPU limit is what
    // stops them; unsqueezed, each would run for minutes.
    (
        "builtin-sort",
        "const items = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1000003); for (;;) items.slice().sort();",
        "did not return within 2000 ms",
    ),
    (
        "json-round-trip",
        "const rows = Array.from({ length: 30_000 }, (_, i) => ({ i, name: `row ${i}` })); for (;;) JSON.parse(JSON.stringify(rows));",
        "did not return within 2000 ms",
    ),
    (
        "fill-and-search",
        "for (;;) new Array(1_000_000).fill(1).indexOf(2);",
        "did not return within 2000 ms",
    ),
    (
        "caught-builtin-sort",
        "const items = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1000003); for (;;) { try { items.slice().sort(); } catch {} }",
        "did not return within 2000 ms",
    ),
    (
        // Gives up when the squeeze's refused allocation throws: still the CPU limit's stop.
        "builtin-sort-gives-up",
        "const items = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1000003); for (;;) { try { items.slice().sort(); } catch { return; } }",
        "did not return within 2000 ms",
    ),
];

/// Room above the heap limit that a stopped run may take: the platform's
/// own memory (Deno's crates, pihost's runtime, an idle runtime is about
/// 60 MB), the room the engine gives the stopped code to unwind (a quarter
/// of the limit, at least 32 MB) and the allocator's slack. README's
/// "Limits" gives the same number.
const HEAP_MARGIN_MB: u64 = 200;

/// The peak resident memory of a running process since it started its
/// program, in MB (`VmHWM`). Not `wait4`'s `ru_maxrss`: Linux starts a
/// child's from the parent's at fork, and this test process has grown
/// with the engines the other tests ran in it.
fn peak_rss_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process's status");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .expect("VmHWM in /proc/PID/status");
    let kilobytes: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|number| number.parse().ok())
        .expect("VmHWM in kB");
    kilobytes / 1024
}

#[test]
fn large_allocations_and_long_native_work_are_stopped_and_the_process_stays_under_the_limit() {
    let _serial = one_at_a_time();
    for (name, runaway, expected) in RUNAWAYS {
        let project = Project::new();
        let at_load = project.write(
            &format!("{name}-at-load.ts"),
            &format!("export default function (pi) {{ {runaway} }}\n"),
        );
        let at_run = project.write(
            &format!("{name}-at-run.ts"),
            &format!(
                "export default function (pi) {{\n  pi.registerTool({{ name: \"runaway\", parameters: {{ type: \"object\" }}, execute: async () => {{ {runaway} }} }});\n  pi.on(\"tool_call\", () => {{ {runaway} }});\n}}\n"
            ),
        );
        let healthy = project.write("healthy.ts", HEALTHY);
        let mut serve = Serve::start(project.root.path(), Duration::from_secs(120));
        serve.request(
            1,
            "initialize",
            json!({
                "paths": [at_load, at_run, healthy],
                "agentDir": project.path("agent"),
                "cpuLimitMs": 2000,
                "maxHeapMb": HEAP_MB,
            }),
        );
        assert_eq!(serve.response(1)["result"]["serverInfo"]["name"], "pihost", "{name}");
        serve.request(2, "load", json!({}));
        let load = serve.response(2);
        let errors = load["result"]["errors"].as_array().cloned().unwrap_or_default();
        assert_eq!(errors.len(), 1, "{name}: only the factory fails: {load}");
        let text = errors[0]["error"].as_str().unwrap_or_default();
        let names_the_limit = text.contains(&format!("Extension \"{at_load}\""))
            && text.contains(expected)
            && text.contains("while loading");
        let the_engines_own = expected.is_empty() && errors[0]["path"] == json!(at_load) && !text.is_empty();
        assert!(names_the_limit || the_engines_own, "{name} at load: {load}");
        serve.request(3, "bind", json!({ "state": {} }));
        assert_eq!(serve.response(3)["result"], Value::Null, "{name}");
        let calls: &[(&str, Value, &str)] = &[
            ("executeTool", json!({ "name": "runaway" }), "in tool \"runaway\""),
            (
                "emit",
                json!({ "event": { "type": "tool_call", "toolName": "read", "toolCallId": "1", "input": {} } }),
                "\"tool_call\" handler",
            ),
        ];
        let mut id = 10;
        for (method, params, place) in calls {
            serve.request(id, method, params.clone());
            let answer = serve.response(id);
            let failure = answer.to_string();
            // Quotes are escaped in the JSON text searched.
            let escaped = |text: &str| text.replace('"', "\\\"");
            let names_the_limit =
                failure.contains(&escaped(&at_run)) && failure.contains(expected) && failure.contains(&escaped(place));
            // The engine's own error fails the call as the extension's would
            // (pi's tool errors carry only the message; a handler's names
            // its extension).
            let the_engines_own = expected.is_empty() && answer.get("error").is_some();
            assert!(names_the_limit || the_engines_own, "{name} {method}: {answer}");
            id += 1;
            serve.request(id, "runCommand", json!({ "name": "hello" }));
            assert_eq!(
                serve.response(id)["result"]["result"],
                "hello from healthy",
                "{name}: the healthy extension answers after {method}"
            );
            id += 1;
        }
        let peak_mb = peak_rss_mb(serve.child.id());
        serve.request(99, "shutdown", Value::Null);
        assert_eq!(serve.response(99)["result"], Value::Null, "{name}");
        let status = serve.finish().wait().expect("serve exits");
        assert!(status.success(), "{name}: {status}");
        assert!(
            peak_mb <= HEAP_MB as u64 + HEAP_MARGIN_MB,
            "{name}: the process peaked at {peak_mb} MB, over the {HEAP_MB} MB heap limit plus {HEAP_MARGIN_MB} MB"
        );
    }
}

/// A loop of built-in calls that neither poll for a termination nor
/// allocate (engine note 34) goes on for minutes after its stop: pihost
/// gives that runtime up and goes on in a new one. At load the stuck
/// extension fails, named, and the others load; in a tool or a handler the
/// call fails and the next call finds the same extensions in a new runtime.
#[test]
fn a_run_that_outlives_its_termination_gives_its_runtime_up_and_the_others_go_on() {
    let _serial = one_at_a_time();
    let project = Project::new();
    // Under the 64 MB heap limit, and indexOf allocates nothing: the squeeze
    // does not reach it. The engine polls for the termination only every
    // few thousand calls; one search of a 30 MB string takes 150 ms in a
    // debug build, so that poll comes minutes after the stop, far past the
    // watchdog's 15 s of CPU. (A search of a 2-million-element array, 7 ms,
    // reached it after 12-16 s: sometimes before the give-up.)
    let search = "const s = \"x\".repeat(30_000_000); for (;;) s.indexOf(\"y\");";
    let at_load = project.write(
        "stuck-at-load.ts",
        &format!("export default function () {{ {search} }}\n"),
    );
    let at_run = project.write(
        "stuck-at-run.ts",
        &format!(
            "export default function (pi) {{\n  pi.registerTool({{ name: \"search\", parameters: {{ type: \"object\" }}, execute: async () => {{ {search} }} }});\n  pi.on(\"tool_call\", async (event) => {{ if (event.toolName === \"search\") {{ {search} }} }});\n}}\n"
        ),
    );
    let healthy = project.write("healthy.ts", HEALTHY);
    let mut serve = Serve::start(project.root.path(), Duration::from_secs(120));
    serve.request(
        1,
        "initialize",
        json!({
            "paths": [at_load, at_run, healthy],
            "agentDir": project.path("agent"),
            "cpuLimitMs": 1000,
            "maxHeapMb": HEAP_MB,
        }),
    );
    assert_eq!(serve.response(1)["result"]["serverInfo"]["name"], "pihost");
    serve.request(2, "load", json!({}));
    let load = serve.response(2);
    let loaded: Vec<&str> = load["result"]["extensions"]
        .as_array()
        .map(|extensions| extensions.iter().filter_map(|each| each["path"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(loaded, [at_run.as_str(), healthy.as_str()], "the others load: {load}");
    let errors = load["result"]["errors"].as_array().cloned().unwrap_or_default();
    assert_eq!(errors.len(), 1, "{load}");
    let text = errors[0]["error"].as_str().unwrap_or_default();
    assert!(
        text.contains(&format!(
            "Extension \"{at_load}\" did not stop at its CPU limit of 1000 ms while loading"
        )) && text.contains("loaded the other extensions in a new one"),
        "{load}"
    );
    serve.request(3, "bind", json!({ "state": {} }));
    assert_eq!(serve.response(3)["result"], Value::Null);
    let calls: &[(&str, Value, &str)] = &[
        ("executeTool", json!({ "name": "search" }), "tool search was cut off"),
        (
            "emit",
            json!({ "event": { "type": "tool_call", "toolName": "search", "toolCallId": "1", "input": {} } }),
            "emit(tool_call) was cut off",
        ),
    ];
    let mut id = 10;
    for (method, params, cut_off) in calls {
        serve.request(id, method, params.clone());
        let answer = serve.response(id);
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(cut_off) && message.contains("did not stop at its CPU limit of 1000 ms"),
            "{method}: {answer}"
        );
        id += 1;
        serve.request(id, "runCommand", json!({ "name": "hello" }));
        assert_eq!(
            serve.response(id)["result"]["result"],
            "hello from healthy",
            "the healthy extension answers in the new runtime after {method}"
        );
        id += 1;
    }
    serve.request(99, "shutdown", Value::Null);
    assert_eq!(serve.response(99)["result"], Value::Null);
    let status = serve.finish().wait().expect("serve exits");
    assert!(status.success(), "{status}");
}
