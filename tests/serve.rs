//! `pihost serve` spoken to as an agent would: raw JSON lines on the binary's
//! stdin/stdout.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use support::*;

const EXTENSION: &str = r#"
export default function (pi) {
  pi.on("tool_call", async (event) => (event.input.command === "rm -rf /" ? { block: true, reason: "refused" } : undefined));
  pi.on("session_shutdown", async (event) => pi.sendMessage({ customType: "bye", content: event.reason }));
  pi.registerCommand("ask", { handler: async (args, ctx) => ctx.ui.confirm("Proceed?", args) });
  pi.registerTool({ name: "count", parameters: { type: "object" }, execute: async (id, args, signal, onUpdate) => {
    onUpdate?.({ content: [{ type: "text", text: "half way" }] });
    return { content: [{ type: "text", text: "counted" }], details: {} };
  } });
  pi.registerTool({ name: "wait", parameters: { type: "object" }, execute: (id, args, signal) => new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "aborted" }], details: {} }));
  }) });
  globalThis.loads = (globalThis.loads ?? 0) + 1;
  console.log("loaded", { loads: globalThis.loads });
  process.stdout.write("a raw write\n");
  pi.registerFlag("verbose", { type: "boolean", default: false, description: "talk more" });
  pi.registerShortcut("ctrl+k", { description: "kill line", handler: async () => {} });
  pi.registerCommand("facts", { handler: async (args, ctx) => ({ model: ctx.model?.id ?? null, verbose: pi.getFlag("verbose"), loads: globalThis.loads }) });
  pi.registerCommand("keep", { handler: async (args, ctx) => { console.log("keeping", ctx.cwd); globalThis.kept = ctx; } });
  pi.registerCommand("reuse", { handler: async () => globalThis.kept.cwd });
}
"#;

struct Agent {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Value>,
}

impl Agent {
    fn start(project: &Project) -> Self {
        project.write("ext.ts", EXTENSION);
        Self::spawn(project)
    }

    /// `pihost serve` in `project`, with no extension written for it.
    fn spawn(project: &Project) -> Self {
        Self::spawn_with(project, &[])
    }

    /// The same, with more arguments for `serve`.
    fn spawn_with(project: &Project, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .arg("serve")
            .arg("--cwd")
            .arg(project.root.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("pihost serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let value = serde_json::from_str(&line).unwrap_or_else(|_| json!({ "unparsable": line }));
                if sender.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
    }

    fn request(&mut self, id: u64, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string());
    }

    /// The next message that matches `wanted`, skipping others.
    fn wait_for(&self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .expect("pihost answered in time");
            assert!(
                message.get("unparsable").is_none(),
                "stdout carried a line that is not the protocol: {message}"
            );
            if wanted(&message) {
                return message;
            }
        }
    }

    fn response(&self, id: u64) -> Value {
        self.wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
    }

    fn ready(&mut self, capabilities: Value) {
        self.request(
            1,
            "initialize",
            json!({ "paths": ["ext.ts"], "capabilities": capabilities }),
        );
        assert_eq!(self.response(1)["result"]["serverInfo"]["name"], "pihost");
        self.request(2, "load", json!({}));
        assert_eq!(self.response(2)["result"]["errors"], json!([]));
        self.request(3, "bind", json!({ "state": { "hasUI": true } }));
        assert_eq!(self.response(3)["result"], Value::Null);
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

#[test]
fn a_session_dispatches_answers_ui_requests_late_and_shuts_down() {
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.send("this is not json");
    assert_eq!(agent.wait_for(|m| m["id"].is_null())["error"]["code"], -32700);
    agent.ready(json!({ "requests": ["ui.confirm"], "notifications": true }));

    agent.request(4, "emit", json!({ "event": { "type": "tool_call", "toolName": "bash", "toolCallId": "t", "input": { "command": "rm -rf /" } } }));
    assert_eq!(
        agent.response(4)["result"],
        json!({ "result": { "block": true, "reason": "refused" } })
    );

    agent.request(5, "nope", json!({}));
    assert_eq!(agent.response(5)["error"]["code"], -32601);

    agent.request(6, "runCommand", json!({ "name": "ask", "args": "really?" }));
    let question = agent.wait_for(|m| m["method"] == "host/ui.confirm");
    assert_eq!(question["params"]["title"], "Proceed?");
    std::thread::sleep(Duration::from_millis(300));
    agent.send(&json!({ "jsonrpc": "2.0", "id": question["id"], "result": true }).to_string());
    assert_eq!(agent.response(6)["result"], json!({ "result": true }));

    agent.request(
        7,
        "executeTool",
        json!({ "name": "count", "toolCallId": "c1", "args": {} }),
    );
    let update = agent.wait_for(|m| m["method"] == "toolUpdate");
    assert_eq!(update["params"]["toolCallId"], "c1");
    assert_eq!(agent.response(7)["result"]["result"]["content"][0]["text"], "counted");

    agent.request(8, "listCommands", json!({}));
    assert_eq!(agent.response(8)["result"][0]["invocationName"], "ask");

    agent.request(9, "shutdown", json!({}));
    let goodbye = agent.wait_for(|m| m["method"] == "host/sendMessage");
    assert_eq!(
        goodbye["params"]["message"]["content"], "quit",
        "session_shutdown reached the extension"
    );
    assert_eq!(agent.response(9)["result"], Value::Null);
    let status = agent.child.wait().expect("exits");
    assert!(status.success());
}

#[test]
fn an_agent_that_never_answers_times_the_request_out() {
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({ "requests": ["ui.confirm"], "requestTimeoutMs": 300 }));
    agent.request(4, "runCommand", json!({ "name": "ask" }));
    agent.wait_for(|m| m["method"] == "host/ui.confirm");
    let response = agent.response(4);
    assert_eq!(response["error"]["code"], -32000);
    assert_eq!(
        response["error"]["message"],
        "the agent did not answer host/ui.confirm within 300 ms"
    );
}

/// Many `executeTool` requests written at once, without waiting for answers:
/// every one is answered exactly once with its own result, and each call's
/// update arrives before its answer. `tests/mcp.rs` has the MCP twin.
#[test]
fn pipelined_tool_calls_are_each_answered_once_and_no_update_is_lost() {
    const CALLS: u64 = 300;
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({}));
    let burst: String = (0..CALLS)
        .map(|n| {
            let id = 100 + n;
            format!(
                "{}\n",
                json!({ "jsonrpc": "2.0", "id": id, "method": "executeTool",
                        "params": { "name": "count", "toolCallId": format!("call-{id}"), "args": {} } })
            )
        })
        .collect();
    agent.send(burst.trim_end());
    let mut answers: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut updates: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut answered_before_update = Vec::new();
    while answers.len() < CALLS as usize {
        let message = agent.wait_for(|_| true);
        if message["method"] == "toolUpdate" {
            let call = message["params"]["toolCallId"].as_str().unwrap_or_default().to_string();
            *updates.entry(call).or_default() += 1;
            continue;
        }
        let Some(id) = message["id"].as_u64().filter(|id| *id >= 100) else {
            continue;
        };
        assert_eq!(
            message["result"]["result"]["content"][0]["text"], "counted",
            "call {id}: {message}"
        );
        if !updates.contains_key(&format!("call-{id}")) {
            answered_before_update.push(id);
        }
        *answers.entry(id).or_default() += 1;
    }
    let twice: Vec<_> = answers.iter().filter(|(_, count)| **count > 1).collect();
    assert!(twice.is_empty(), "answered more than once: {twice:?}");
    let lost: Vec<_> = (100..100 + CALLS)
        .filter(|id| updates.get(&format!("call-{id}")) != Some(&1))
        .collect();
    assert!(lost.is_empty(), "calls whose update was lost or repeated: {lost:?}");
    assert!(
        answered_before_update.is_empty(),
        "answered before their update: {answered_before_update:?}"
    );
}

/// The resident memory of a process, in MiB (`VmRSS` of /proc).
fn resident_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

/// A long session answers request after request without keeping them: after
/// a warm-up burst, two more bursts of pipelined requests leave the process's
/// memory where the first left it (each answered request used to stay behind,
/// about 8 KiB: 40 MiB for one burst). `benches/serve_flood.py` floods with
/// 100,000 a round.
#[test]
fn answered_requests_are_not_kept_so_memory_stays_flat() {
    const BURST: u64 = 5_000;
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({}));
    let pid = agent.child.id();
    let mut next_id = 100;
    let mut burst = |agent: &mut Agent| {
        let lines: String = (next_id..next_id + BURST)
            .map(|id| {
                format!(
                    "{}\n",
                    json!({ "jsonrpc": "2.0", "id": id, "method": "emit",
                            "params": { "event": { "type": "tool_call", "toolName": "bash", "toolCallId": "t", "input": { "command": "ls" } } } })
                )
            })
            .collect();
        agent.send(lines.trim_end());
        let mut answered = std::collections::HashSet::new();
        while answered.len() < BURST as usize {
            let message = agent.wait_for(|message| message.get("method").is_none());
            let id = message["id"].as_u64().unwrap_or_default();
            assert!(message.get("error").is_none(), "{message}");
            assert!(answered.insert(id), "answered twice: {id}");
        }
        next_id += BURST;
    };
    burst(&mut agent);
    let after_first = resident_mib(pid);
    burst(&mut agent);
    burst(&mut agent);
    let after_third = resident_mib(pid);
    assert!(
        after_third - after_first < 20.0,
        "memory grew from {after_first:.1} MiB to {after_third:.1} MiB over {} answered requests",
        2 * BURST
    );
}

#[test]
fn cancelling_a_tool_call_aborts_its_signal() {
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({}));
    agent.request(4, "executeTool", json!({ "name": "wait", "args": {} }));
    std::thread::sleep(Duration::from_millis(200));
    agent.send(&json!({ "jsonrpc": "2.0", "method": "$/cancelRequest", "params": { "id": 4 } }).to_string());
    assert_eq!(agent.response(4)["result"]["result"]["content"][0]["text"], "aborted");
}

#[test]
fn eof_mid_call_answers_it_and_exits_cleanly() {
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({ "requests": ["ui.confirm"], "notifications": true }));
    agent.request(4, "runCommand", json!({ "name": "ask" }));
    agent.wait_for(|m| m["method"] == "host/ui.confirm");
    agent.stdin = None;
    let response = agent.response(4);
    assert_eq!(
        response["error"]["message"],
        "the agent closed stdin before answering host/ui.confirm"
    );
    let goodbye = agent.wait_for(|m| m["method"] == "host/sendMessage");
    assert_eq!(goodbye["params"]["message"]["content"], "quit");
    assert!(agent.child.wait().expect("exits").success());
}

#[test]
fn every_method_answers_with_its_documented_result() {
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({}));

    agent.request(4, "listTools", Value::Null);
    let tools = agent.response(4)["result"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["count", "wait"]);

    agent.request(5, "listFlags", json!({}));
    let flags = agent.response(5)["result"].clone();
    assert_eq!(flags["flags"][0]["name"], "verbose");
    assert_eq!(flags["values"], json!({ "verbose": false }));

    agent.request(6, "setFlag", json!({ "name": "verbose", "value": true }));
    assert_eq!(agent.response(6)["result"], Value::Null);
    agent.request(
        7,
        "setHostState",
        json!({ "state": { "model": { "id": "m-1", "provider": "p" } } }),
    );
    assert_eq!(agent.response(7)["result"], Value::Null);
    agent.request(8, "runCommand", json!({ "name": "facts" }));
    assert_eq!(
        agent.response(8)["result"],
        json!({ "result": { "model": "m-1", "verbose": true, "loads": 1 } }),
        "setFlag and setHostState reach the extension"
    );

    agent.request(9, "shortcuts", json!({ "keybindings": { "app.interrupt": "escape" } }));
    let shortcuts = agent.response(9)["result"].clone();
    assert_eq!(shortcuts["shortcuts"][0]["key"], "ctrl+k", "{shortcuts}");
    assert_eq!(shortcuts["shortcuts"][0]["description"], "kill line");

    agent.request(10, "runCommand", json!({ "name": "keep" }));
    assert_eq!(agent.response(10)["result"], json!({}));
    agent.request(11, "invalidate", json!({ "message": "this session is gone" }));
    assert_eq!(agent.response(11)["result"], Value::Null);
    agent.request(12, "runCommand", json!({ "name": "reuse" }));
    let stale = agent.response(12);
    assert_eq!(stale["error"]["code"], -32000);
    assert!(
        stale["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("this session is gone")),
        "a context from before invalidate is stale: {stale}"
    );

    agent.request(13, "reload", json!({}));
    // The extension printed during load and in a command: none of it may
    // reach stdout, which is the protocol.
    let report = agent.response(13)["result"].clone();
    assert_eq!(report["errors"], json!([]));
    assert_eq!(report["extensions"][0]["tools"].as_array().map(Vec::len), Some(2));
    agent.request(14, "runCommand", json!({ "name": "facts" }));
    assert_eq!(
        agent.response(14)["result"]["result"],
        json!({ "model": "m-1", "verbose": true, "loads": 2 }),
        "reload evaluated the extension again and kept the flag value and the host state"
    );
    agent.request(15, "shutdown", json!({}));
    agent.response(15);
    let stray: Vec<Value> = agent
        .lines
        .try_iter()
        .filter(|line| line.get("unparsable").is_some())
        .collect();
    assert!(stray.is_empty(), "extension output reached stdout: {stray:?}");
}

#[test]
fn params_of_the_wrong_shape_are_invalid_params() {
    let project = Project::new();
    let mut agent = Agent::start(&project);
    agent.ready(json!({}));
    agent.request(4, "executeTool", json!({ "name": 5 }));
    let response = agent.response(4);
    assert_eq!(response["error"]["code"], -32602);
    assert!(
        response["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("invalid params: invalid type")),
        "{response}"
    );
    agent.request(5, "emit", json!({ "event": { "toolName": "bash" } }));
    assert_eq!(agent.response(5)["error"]["code"], -32602, "an event needs a type");
    agent.request(6, "initialize", json!({}));
    assert_eq!(agent.response(6)["error"]["code"], -32600, "initialize twice");
    agent.request(7, "listTools", json!({}));
    assert!(agent.response(7)["result"].is_array(), "the session goes on");
}

#[test]
fn initialize_takes_a_sandbox_and_its_grants() {
    let project = Project::new();
    project.write(
        "reads.ts",
        "import fs from 'node:fs';\nexport default function (pi) {\n  pi.registerCommand('peek', { handler: async (args) => { fs.readFileSync(args); } });\n}\n",
    );
    let granted = project.write("granted/note.txt", "note");
    let outside = project.write("outside.txt", "secret");
    let mut agent = Agent::start(&project);
    agent.request(
        1,
        "initialize",
        json!({ "paths": ["reads.ts"], "permissions": { "sandbox": true, "allowRead": ["granted"] } }),
    );
    assert_eq!(agent.response(1)["result"]["serverInfo"]["name"], "pihost");
    agent.request(2, "load", json!({}));
    assert_eq!(agent.response(2)["result"]["errors"], json!([]));
    agent.request(3, "bind", json!({}));
    agent.response(3);
    agent.request(4, "runCommand", json!({ "name": "peek", "args": granted }));
    assert_eq!(agent.response(4)["error"], Value::Null);
    agent.request(5, "runCommand", json!({ "name": "peek", "args": outside }));
    let refused = agent.response(5);
    assert_eq!(
        refused["error"]["message"],
        format!("Requires read access to \"{outside}\", run again with the --allow-read flag"),
        "{refused:#}"
    );
}

#[test]
fn initialize_takes_per_extension_grants() {
    let project = Project::new();
    let reader = |command: &str| {
        format!(
            "import fs from 'node:fs';\nexport default function (pi) {{\n  pi.registerCommand('{command}', {{ handler: async (args) => fs.readFileSync(args, 'utf8') }});\n}}\n"
        )
    };
    project.write("granted.ts", &reader("granted_peek"));
    project.write("other.ts", &reader("other_peek"));
    let note = project.write("note.txt", "note");
    let mut agent = Agent::start(&project);
    agent.request(
        1,
        "initialize",
        json!({
            "paths": ["granted.ts", "other.ts"],
            "permissions": { "sandbox": true, "extensions": { "./granted.ts": { "allowRead": ["note.txt"] } } },
        }),
    );
    agent.response(1);
    agent.request(2, "load", json!({}));
    assert_eq!(agent.response(2)["result"]["errors"], json!([]));
    agent.request(3, "bind", json!({}));
    agent.response(3);
    agent.request(4, "runCommand", json!({ "name": "granted_peek", "args": note }));
    assert_eq!(
        agent.response(4)["result"]["result"],
        json!("note"),
        "the granted extension reads its file"
    );
    agent.request(5, "runCommand", json!({ "name": "other_peek", "args": note }));
    let refused = agent.response(5);
    assert_eq!(
        refused["error"]["message"],
        format!("Requires read access to \"{note}\", run again with the --allow-read flag"),
        "another extension has only the session's permissions: {refused:#}"
    );
}

const PEEKS: &str = "import fs from 'node:fs';\nexport default function (pi) {\n  pi.registerCommand('peek', { handler: async (args) => fs.readFileSync(args, 'utf8') });\n}\n";

/// An agent whose session is a sandbox that prompts, with `peeks.ts` loaded and bound.
fn prompting_agent(project: &Project, permissions: Value, cpu_limit_ms: u64) -> Agent {
    project.write("peeks.ts", PEEKS);
    let mut agent = Agent::start(project);
    agent.request(
        1,
        "initialize",
        json!({
            "paths": ["peeks.ts"],
            "permissions": permissions,
            "cpuLimitMs": cpu_limit_ms,
            "capabilities": { "requests": ["permission.request"], "notifications": true },
        }),
    );
    agent.response(1);
    agent.request(2, "load", json!({}));
    assert_eq!(agent.response(2)["result"]["errors"], json!([]));
    agent.request(3, "bind", json!({}));
    agent.response(3);
    agent
}

impl Agent {
    /// Every message up to the response to `id`, which comes last.
    fn messages_until_response(&self, id: u64) -> Vec<Value> {
        let mut messages = Vec::new();
        loop {
            let message = self.wait_for(|_| true);
            let done = message["id"] == json!(id) && message.get("method").is_none();
            messages.push(message);
            if done {
                return messages;
            }
        }
    }
}

#[test]
fn a_sandbox_that_prompts_asks_the_agent_and_reports_each_decision() {
    let project = Project::new();
    let note = project.write("note.txt", "note");
    let other = project.write("other.txt", "other");
    let mut agent = prompting_agent(&project, json!({ "sandbox": true, "prompt": true }), 10_000);
    let answer = |agent: &mut Agent, answer: &str| {
        let asked = agent.wait_for(|m| m["method"] == "host/permission.request");
        agent.send(&json!({ "jsonrpc": "2.0", "id": asked["id"], "result": answer }).to_string());
        asked["params"].clone()
    };

    agent.request(4, "runCommand", json!({ "name": "peek", "args": note }));
    let asked = answer(&mut agent, "allowOnce");
    assert_eq!(asked["permission"], "read");
    assert_eq!(asked["target"], note);
    assert_eq!(asked["message"], format!("read access to \"{note}\""));
    assert!(
        asked["extension"]
            .as_str()
            .is_some_and(|path| path.ends_with("peeks.ts")),
        "the prompt names the extension: {asked:#}"
    );
    let decision = agent.wait_for(|m| m["method"] == "host/permission.decision");
    assert_eq!(
        decision["params"],
        json!({ "extension": asked["extension"], "permission": "read", "target": note, "outcome": "allowedOnce", "decidedBy": "host" })
    );
    assert_eq!(agent.response(4)["result"], json!({ "result": "note" }));

    // Allowed once: the next read asks again; allowed always: never again.
    agent.request(5, "runCommand", json!({ "name": "peek", "args": note }));
    answer(&mut agent, "allowAlways");
    assert_eq!(agent.response(5)["result"], json!({ "result": "note" }));
    agent.request(6, "runCommand", json!({ "name": "peek", "args": note }));
    let messages = agent.messages_until_response(6);
    assert!(
        messages.iter().all(|m| m["method"] != "host/permission.request"),
        "allowed always is not asked again: {messages:#?}"
    );
    assert_eq!(
        messages.last().map(|m| m["result"].clone()),
        Some(json!({ "result": "note" }))
    );

    agent.request(7, "runCommand", json!({ "name": "peek", "args": other }));
    answer(&mut agent, "deny");
    let decision = agent.wait_for(|m| m["method"] == "host/permission.decision");
    assert_eq!(decision["params"]["outcome"], "denied");
    assert_eq!(decision["params"]["decidedBy"], "host");
    assert_eq!(
        agent.response(7)["error"]["message"],
        format!("Requires read access to \"{other}\", run again with the --allow-read flag")
    );
}

#[test]
fn a_prompt_the_agent_never_answers_is_a_denial_after_its_timeout() {
    let project = Project::new();
    let note = project.write("note.txt", "note");
    // The wait is not the extension's CPU time: a CPU limit shorter than
    // the wait does not stop it (and is long enough to load in a debug build).
    let mut agent = prompting_agent(
        &project,
        json!({ "sandbox": true, "prompt": true, "promptTimeoutMs": 2500 }),
        1500,
    );
    agent.request(4, "runCommand", json!({ "name": "peek", "args": note }));
    agent.wait_for(|m| m["method"] == "host/permission.request");
    let decision = agent.wait_for(|m| m["method"] == "host/permission.decision");
    assert_eq!(decision["params"]["outcome"], "denied");
    assert_eq!(decision["params"]["decidedBy"], "timeout");
    assert_eq!(
        agent.response(4)["error"]["message"],
        format!("Requires read access to \"{note}\", run again with the --allow-read flag")
    );
}

#[test]
fn a_sandbox_that_does_not_prompt_still_reports_each_denial() {
    let project = Project::new();
    let note = project.write("note.txt", "note");
    let mut agent = prompting_agent(&project, json!({ "sandbox": true }), 10_000);
    agent.request(4, "runCommand", json!({ "name": "peek", "args": note }));
    let messages = agent.messages_until_response(4);
    assert!(
        messages.iter().all(|m| m["method"] != "host/permission.request"),
        "{messages:#?}"
    );
    let decision = messages
        .iter()
        .find(|m| m["method"] == "host/permission.decision")
        .unwrap_or_else(|| panic!("a decision was reported: {messages:#?}"));
    assert_eq!(decision["params"]["outcome"], "denied");
    assert_eq!(decision["params"]["decidedBy"], "noPrompt");
    assert_eq!(decision["params"]["target"], note);
}

/// Components for the screen tests: one that waits for the agent, one that
/// cannot draw.
const SCREEN_EXTENSION: &str = r#"
import { CustomEditor } from "@earendil-works/pi-coding-agent";

export default function (pi) {
  pi.registerCommand("editor", {
    handler: async (_args, ctx) => {
      ctx.ui.setEditorComponent((tui, theme, keybindings) => new CustomEditor(tui, theme, keybindings));
    },
  });
  pi.registerCommand("hold", {
    handler: async (_args, ctx) => {
      let disposed = false;
      try {
        return await ctx.ui.custom(() => ({
          render: (width) => [`holding at ${width}`],
          invalidate() {},
          handleInput() {},
          dispose() { disposed = true; },
        }));
      } catch (error) {
        return { rejected: error.message, disposed };
      }
    },
  });
  pi.registerCommand("widget", {
    handler: async (_args, ctx) => {
      ctx.ui.setWidget("clock", ["twelve o'clock"], { placement: "belowEditor" });
    },
  });
  pi.registerCommand("broken", {
    handler: async (_args, ctx) => {
      await ctx.ui.custom(() => ({
        render() { throw new Error("cannot draw"); },
        invalidate() {},
      }));
      return "resolved anyway";
    },
  });
}
"#;

/// An agent that declares a screen of `columns` × 12 (or none), with pi's
/// question example (when the reference is installed) and the screen
/// components loaded and bound.
fn screen_agent(project: &Project, columns: Option<u16>) -> Agent {
    let mut paths = vec![project.write("screen.ts", SCREEN_EXTENSION)];
    paths.extend(pi_example("question.ts"));
    let mut agent = Agent::spawn(project);
    let params = json!({
        "paths": paths,
        "agentDir": project.path("agent"),
        "capabilities": match columns {
            Some(columns) => json!({ "ui": { "columns": columns, "rows": 12 } }),
            None => json!({}),
        },
    });
    agent.request(1, "initialize", params);
    assert!(agent.response(1)["result"].is_object());
    agent.request(2, "load", json!({}));
    assert_eq!(agent.response(2)["result"]["errors"], json!([]));
    agent.request(3, "bind", json!({}));
    assert_eq!(agent.response(3)["result"], Value::Null);
    agent
}

fn is_frame(message: &Value) -> bool {
    message["method"] == "host/ui.frame"
}

/// A frame's lines as a terminal shows them.
fn visible_lines(frame: &Value) -> Vec<String> {
    frame["params"]["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("a frame without lines: {frame}"))
        .iter()
        .map(|line| visible(line.as_str().unwrap_or_default()))
        .collect()
}

/// Every message up to and including the response to `id`.
fn until_response(agent: &Agent, id: u64) -> Vec<Value> {
    until_responses(agent, &[id])
}

/// Every message up to and including the last of the responses to `ids`,
/// which may come in any order.
fn until_responses(agent: &Agent, ids: &[u64]) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut waiting: Vec<u64> = ids.to_vec();
    while !waiting.is_empty() {
        let message = agent.wait_for(|_| true);
        if message.get("method").is_none() {
            waiting.retain(|id| message["id"] != json!(id));
        }
        seen.push(message);
    }
    seen
}

/// The response to `id` among `seen`.
fn response_in(seen: &[Value], id: u64) -> &Value {
    seen.iter()
        .find(|message| message["id"] == json!(id) && message.get("method").is_none())
        .unwrap_or_else(|| panic!("no response to {id} in {seen:#?}"))
}

const QUESTION: &str = "Pick a colour";

fn question_args() -> Value {
    json!({ "question": QUESTION, "options": [{ "label": "Alpha" }, { "label": "Beta" }] })
}

#[test]
fn a_declared_screen_gets_the_question_frames_and_sends_keys_and_sizes_back() {
    if pi_example("question.ts").is_none() {
        return;
    }
    let project = Project::new();
    let mut agent = screen_agent(&project, Some(40));
    agent.request(4, "executeTool", json!({ "name": "question", "args": question_args() }));
    let first = agent.wait_for(is_frame);
    assert_eq!(first["params"]["kind"], "custom");
    assert_eq!(first["params"]["extension"], json!(pi_example("question.ts")));
    let id = first["params"]["component"].as_u64().expect("a component id");
    let lines = visible_lines(&first);
    assert!(lines.iter().any(|line| line.contains(QUESTION)), "{lines:#?}");
    assert!(lines.iter().any(|line| line == "> 1. Alpha"), "{lines:#?}");

    agent.request(5, "ui/input", json!({ "id": id, "data": "\u{1b}[B" }));
    let seen = until_response(&agent, 5);
    assert_eq!(seen.last().expect("the answer")["result"], json!({ "delivered": true }));
    let moved = seen
        .iter()
        .find(|message| is_frame(message))
        .expect("a frame before the answer");
    assert!(
        visible_lines(moved).iter().any(|line| line == "> 2. Beta"),
        "down moved the selection: {moved}"
    );

    agent.request(6, "ui/resize", json!({ "columns": 24, "rows": 12 }));
    let seen = until_response(&agent, 6);
    assert_eq!(seen.last().expect("the answer")["result"], Value::Null);
    let resized = seen
        .iter()
        .find(|message| is_frame(message))
        .expect("a frame before the answer");
    let lines = visible_lines(resized);
    assert!(
        lines.iter().any(|line| line == &"─".repeat(24)),
        "the border spans 24: {lines:#?}"
    );
    for line in &lines {
        assert!(line.chars().count() <= 24, "a line wider than 24 columns: {line:?}");
    }
    assert!(
        lines.iter().any(|line| line == "> 2. Beta"),
        "the selection stays: {lines:#?}"
    );

    agent.request(7, "ui/input", json!({ "id": id + 100, "data": "\r" }));
    let refused = agent.response(7);
    assert_eq!(refused["error"]["code"], -32602);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("id {}", id + 100)),
        "{refused}"
    );

    agent.request(8, "ui/input", json!({ "id": id, "data": "\r" }));
    let seen = until_responses(&agent, &[4, 8]);
    let position = |wanted: &dyn Fn(&Value) -> bool| seen.iter().position(wanted);
    let closed = position(&|message| is_frame(message) && message["params"]["closed"] == true);
    let answered = position(&|message| message["id"] == 4);
    assert!(
        closed.is_some() && closed < answered,
        "a closed frame before the tool's answer: {seen:#?}"
    );
    assert_eq!(
        response_in(&seen, 4)["result"]["result"]["content"][0]["text"],
        "User selected: 2. Beta"
    );
    assert_eq!(response_in(&seen, 8)["result"], json!({ "delivered": true }));
}

#[test]
fn closing_a_component_rejects_the_extensions_promise() {
    let project = Project::new();
    let mut agent = screen_agent(&project, Some(30));
    agent.request(4, "runCommand", json!({ "name": "hold" }));
    let first = agent.wait_for(is_frame);
    assert_eq!(visible_lines(&first), vec!["holding at 30".to_string()]);
    let id = first["params"]["component"].as_u64().expect("a component id");

    agent.request(5, "ui/close", json!({ "id": id }));
    let seen = until_responses(&agent, &[4, 5]);
    assert!(
        seen.iter()
            .any(|message| is_frame(message) && message["params"]["closed"] == true),
        "a closed frame: {seen:#?}"
    );
    assert_eq!(
        response_in(&seen, 4)["result"]["result"],
        json!({
            "rejected": "pihost: the agent closed this component (ui/close) before it called done",
            "disposed": true,
        })
    );
    assert_eq!(response_in(&seen, 5)["result"], Value::Null);

    agent.request(6, "ui/close", json!({ "id": id }));
    let again = agent.response(6);
    assert_eq!(again["error"]["code"], -32602);
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("id {id}")),
        "{again}"
    );
}

#[test]
fn a_component_whose_render_throws_is_reported_closed_and_rejects_its_promise() {
    let project = Project::new();
    let mut agent = screen_agent(&project, Some(30));
    agent.request(4, "runCommand", json!({ "name": "broken" }));
    let seen = until_response(&agent, 4);
    let reported = seen
        .iter()
        .find(|message| message["method"] == "extensionError")
        .unwrap_or_else(|| panic!("an extensionError: {seen:#?}"));
    assert_eq!(reported["params"]["event"], "ui.custom");
    assert_eq!(reported["params"]["error"], "cannot draw");
    let answer = seen.last().expect("the command's answer");
    assert_eq!(answer["error"]["code"], -32000, "the promise rejected: {answer}");
    assert_eq!(answer["error"]["message"], "cannot draw");
    assert!(!seen.iter().any(is_frame), "it never drew: {seen:#?}");
    // The first component of the session was it; it is gone.
    agent.request(5, "ui/close", json!({ "id": 1 }));
    assert_eq!(agent.response(5)["error"]["code"], -32602);
}

#[test]
fn a_screen_nobody_types_on_keeps_the_call_pending_until_its_timeout() {
    if pi_example("question.ts").is_none() {
        return;
    }
    let project = Project::new();
    let mut agent = screen_agent(&project, Some(40));
    agent.request(
        4,
        "executeTool",
        json!({ "name": "question", "args": question_args(), "timeoutMs": 1500 }),
    );
    let id = agent.wait_for(is_frame)["params"]["component"]
        .as_u64()
        .expect("a component id");
    agent.request(5, "listTools", json!({}));
    let seen = until_response(&agent, 5);
    assert!(
        seen.last().expect("the answer")["result"].is_array(),
        "another request answers: {seen:#?}"
    );
    assert!(
        !seen.iter().any(|message| message["id"] == 4),
        "the tool waits for keys: {seen:#?}"
    );
    let timed_out = agent.response(4);
    assert_eq!(timed_out["error"]["code"], -32001, "{timed_out}");
    // pi has no timeout on a component: it stays open until the agent closes it.
    agent.request(6, "ui/close", json!({ "id": id }));
    assert_eq!(agent.response(6)["result"], Value::Null);
}

#[test]
fn without_a_screen_ui_custom_stays_headless_and_the_screen_methods_are_refused() {
    let project = Project::new();
    let mut agent = screen_agent(&project, None);
    agent.request(4, "runCommand", json!({ "name": "hold" }));
    let seen = until_response(&agent, 4);
    assert_eq!(
        seen.last().expect("the answer")["result"],
        json!({}),
        "headless pi's undefined"
    );
    assert!(!seen.iter().any(is_frame), "{seen:#?}");
    agent.request(5, "ui/input", json!({ "id": 1, "data": "\r" }));
    let refused = agent.response(5);
    assert_eq!(refused["error"]["code"], -32002);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("capabilities.ui"),
        "{refused}"
    );
}

#[test]
fn a_widget_is_drawn_for_the_agent_and_takes_no_keys() {
    let project = Project::new();
    let mut agent = screen_agent(&project, Some(30));
    agent.request(4, "runCommand", json!({ "name": "widget" }));
    let frame = agent.wait_for(is_frame);
    assert_eq!(frame["params"]["kind"], "widget");
    assert_eq!(frame["params"]["widget"], "clock");
    assert_eq!(frame["params"]["placement"], "belowEditor");
    assert_eq!(
        visible_lines(&frame),
        vec![format!("{:<30}", " twelve o'clock")],
        "padded to the screen's width as pi's Text pads it"
    );
    let id = frame["params"]["component"].clone();
    agent.request(5, "ui/input", json!({ "id": id, "data": "a" }));
    assert_eq!(
        agent.response(5)["result"],
        json!({ "delivered": false }),
        "only a focused component takes keys"
    );
}

#[test]
fn an_editor_component_is_drawn_for_the_agent_and_its_enter_comes_back_as_editor_submit() {
    let project = Project::new();
    let mut agent = screen_agent(&project, Some(30));
    agent.request(4, "runCommand", json!({ "name": "editor" }));
    let frame = agent.wait_for(is_frame);
    assert_eq!(frame["params"]["kind"], "editor");
    let lines = visible_lines(&frame);
    assert_eq!(lines.len(), 3, "a rule, an empty line, a rule: {lines:#?}");
    assert_eq!(lines[0], "─".repeat(30));
    let id = frame["params"]["component"].clone();
    let mut seen = Vec::new();
    for (request, key) in [(5, "o"), (6, "k"), (7, "\r")] {
        agent.request(request, "ui/input", json!({ "id": id, "data": key }));
        let answered = until_response(&agent, request);
        assert_eq!(
            response_in(&answered, request)["result"],
            json!({ "delivered": true }),
            "the editor has focus"
        );
        seen.extend(answered);
    }
    let submitted: Vec<&Value> = seen
        .iter()
        .filter(|message| message["method"] == "host/ui.editorSubmit")
        .collect();
    assert_eq!(submitted.len(), 1, "{seen:#?}");
    assert_eq!(submitted[0]["params"], json!({ "text": "ok" }));
    let enter = seen
        .iter()
        .position(|message| message["method"] == "host/ui.editorSubmit");
    let answer = seen.iter().position(|message| message["id"] == json!(7));
    assert!(enter < answer, "the submitted text comes before the answer to the key");
}

const SESSION_EXTENSION: &str = r#"
export default function (pi) {
  let toolCalls = 0;
  pi.on("tool_call", async () => { toolCalls += 1; });
  pi.on("turn_start", async () => { throw new Error("turn_start broke"); });
  pi.on("session_shutdown", async (event) => pi.sendMessage({ customType: "bye", content: event.reason }));
  pi.registerCommand("ask", { handler: async (args, ctx) => ctx.ui.confirm("Proceed?", args) });
  pi.registerCommand("calls", { handler: async () => toolCalls });
  pi.registerCommand("mark", { handler: async (args) => { globalThis.mark = args; } });
  pi.registerCommand("read-mark", { handler: async () => globalThis.mark ?? null });
  pi.registerCommand("spin", { handler: () => { for (;;) {} } });
  pi.registerTool({ name: "count", parameters: { type: "object" }, execute: async (id, args, signal, onUpdate) => {
    onUpdate?.({ content: [{ type: "text", text: "half way" }] });
    return { content: [{ type: "text", text: "counted" }], details: {} };
  } });
  pi.registerTool({ name: "wait", parameters: { type: "object" }, execute: (id, args, signal) => new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "aborted" }], details: {} }));
  }) });
}
"#;

impl Agent {
    /// A request to one session of the process.
    fn request_to(&mut self, session: &str, id: u64, method: &str, mut params: Value) {
        params["session"] = json!(session);
        self.request(id, method, params);
    }

    /// Initializes, loads and binds session `session` (ids `first..first + 3`).
    fn open_session(&mut self, session: &str, first: u64, initialize: Value) {
        let mut params = json!({ "paths": ["ext.ts"] });
        if let (Some(params), Some(extra)) = (params.as_object_mut(), initialize.as_object()) {
            params.extend(extra.clone());
        }
        self.request_to(session, first, "initialize", params);
        let initialized = self.response(first);
        assert_eq!(initialized["result"]["serverInfo"]["name"], "pihost", "{initialized}");
        self.request_to(session, first + 1, "load", json!({}));
        assert_eq!(self.response(first + 1)["result"]["errors"], json!([]));
        self.request_to(session, first + 2, "bind", json!({ "state": { "hasUI": true } }));
        assert_eq!(self.response(first + 2)["result"], Value::Null);
    }

    fn command_result(&mut self, session: &str, id: u64, name: &str, args: &str) -> Value {
        self.request_to(session, id, "runCommand", json!({ "name": name, "args": args }));
        let answer = self.response(id);
        assert!(answer.get("error").is_none(), "{answer}");
        answer["result"]["result"].clone()
    }
}

/// One `serve` process holds several sessions, each addressed by
/// `params.session`: each has its own runtime (its extensions' globals), its
/// own agent host (its requests and notifications name it), and its failures
/// and its shutdown leave the others running.
#[test]
fn sessions_addressed_by_id_are_isolated_from_one_another() {
    let project = Project::new();
    project.write("ext.ts", SESSION_EXTENSION);
    let mut agent = Agent::spawn(&project);
    let capabilities = json!({ "capabilities": { "requests": ["ui.confirm"], "notifications": true } });
    agent.open_session(
        "a",
        10,
        json!({ "cpuLimitMs": 300, "capabilities": capabilities["capabilities"] }),
    );
    agent.open_session("b", 20, capabilities.clone());

    // Each session's extensions run in a runtime of their own.
    assert_eq!(agent.command_result("a", 30, "mark", "from a"), Value::Null);
    assert_eq!(agent.command_result("b", 31, "read-mark", ""), Value::Null);
    assert_eq!(agent.command_result("a", 32, "read-mark", ""), "from a");

    // The default session was never initialized: it is not one of them.
    agent.request(33, "listTools", json!({}));
    assert_eq!(
        agent.response(33)["error"]["message"],
        "not initialized: send initialize first"
    );

    // What pihost sends for a session names it: host requests, tool updates,
    // extension errors.
    agent.request_to("b", 34, "runCommand", json!({ "name": "ask", "args": "really?" }));
    let question = agent.wait_for(|m| m["method"] == "host/ui.confirm");
    assert_eq!(question["params"]["session"], "b");
    agent.send(&json!({ "jsonrpc": "2.0", "id": question["id"], "result": true }).to_string());
    assert_eq!(agent.response(34)["result"], json!({ "result": true }));
    agent.request_to("a", 35, "executeTool", json!({ "name": "count", "toolCallId": "c1" }));
    let update = agent.wait_for(|m| m["method"] == "toolUpdate");
    assert_eq!(
        (&update["params"]["toolCallId"], &update["params"]["session"]),
        (&json!("c1"), &json!("a"))
    );
    assert_eq!(agent.response(35)["result"]["result"]["content"][0]["text"], "counted");
    agent.request_to(
        "a",
        36,
        "emit",
        json!({ "event": { "type": "turn_start", "turnIndex": 0, "timestamp": 0 } }),
    );
    let seen = until_response(&agent, 36);
    let reported = seen
        .iter()
        .find(|message| message["method"] == "extensionError")
        .unwrap_or_else(|| panic!("an extensionError: {seen:#?}"));
    assert_eq!(
        (&reported["params"]["error"], &reported["params"]["session"]),
        (&json!("turn_start broke"), &json!("a"))
    );

    // A cancellation names the session of the request it cancels.
    agent.request_to("b", 42, "executeTool", json!({ "name": "wait" }));
    std::thread::sleep(Duration::from_millis(200));
    let cancel = |session: &str| json!({ "jsonrpc": "2.0", "method": "$/cancelRequest", "params": { "id": 42, "session": session } });
    agent.send(&cancel("a").to_string());
    let early = agent.lines.recv_timeout(Duration::from_millis(300));
    assert!(early.is_err(), "session a's cancellation reached session b: {early:?}");
    agent.send(&cancel("b").to_string());
    assert_eq!(agent.response(42)["result"]["result"]["content"][0]["text"], "aborted");

    // A session stopped by its CPU limit does not hold the others up.
    agent.request_to("a", 37, "runCommand", json!({ "name": "spin" }));
    assert_eq!(agent.command_result("b", 38, "read-mark", ""), Value::Null);
    let stopped = agent.response(37);
    let stopped_by = stopped["error"]["message"].as_str().unwrap_or_default();
    assert!(stopped_by.contains("did not return within 300 ms"), "{stopped}");

    // A session's own shutdown ends it alone.
    agent.request_to("a", 39, "shutdown", json!({}));
    let goodbye = agent.wait_for(|m| m["method"] == "host/sendMessage");
    assert_eq!(
        (&goodbye["params"]["message"]["content"], &goodbye["params"]["session"]),
        (&json!("quit"), &json!("a"))
    );
    assert_eq!(agent.response(39)["result"], Value::Null);
    agent.request_to("a", 40, "listTools", json!({}));
    let gone = agent.response(40);
    assert!(
        gone["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("no session \"a\""),
        "{gone}"
    );
    assert_eq!(agent.command_result("b", 41, "calls", ""), 0);

    // Its id can be used again, for a new session with fresh extensions.
    agent.open_session("a", 50, capabilities);
    assert_eq!(agent.command_result("a", 53, "read-mark", ""), Value::Null);

    agent.request(54, "listTools", json!({ "session": "" }));
    assert_eq!(agent.response(54)["error"]["code"], -32602);
    agent.request(55, "initialize", json!({ "session": "b" }));
    assert_eq!(
        agent.response(55)["error"]["message"],
        "session \"b\" is already initialized"
    );

    // A shutdown that names no session ends them all, then the process.
    agent.request(56, "shutdown", json!({}));
    let mut goodbyes = std::collections::HashSet::new();
    for message in until_response(&agent, 56) {
        if message["method"] == "host/sendMessage" {
            goodbyes.insert(message["params"]["session"].as_str().unwrap_or_default().to_string());
        }
    }
    assert_eq!(goodbyes, ["a".to_string(), "b".to_string()].into());
    assert!(agent.child.wait().expect("exits").success());
}

/// What a process looked like after each round of [`flood_rounds`].
struct AfterRound {
    descriptors: usize,
    engine_threads: usize,
    resident_mib: f64,
}

/// Three rounds of: six sessions opened, 6,000 pipelined requests spread
/// over them (each answered once, by its own session: the extensions count
/// what they got), the sessions shut down. `serve` runs with `args`.
fn flood_rounds(args: &[&str]) -> Vec<AfterRound> {
    const SESSIONS: u64 = 6;
    const PER_SESSION: u64 = 1_000;
    let project = Project::new();
    project.write("ext.ts", SESSION_EXTENSION);
    let mut agent = Agent::spawn_with(&project, args);
    let pid = agent.child.id();
    let names: Vec<String> = (0..SESSIONS).map(|n| format!("s{n}")).collect();
    let mut after = Vec::new();
    for first_id in [100, 100_000, 200_000] {
        for (n, name) in names.iter().enumerate() {
            agent.open_session(name, first_id + 3 * n as u64, json!({}));
        }
        let mut lines = String::new();
        let mut id = first_id + 1_000;
        for call in 0..PER_SESSION * SESSIONS {
            let session = &names[(call % SESSIONS) as usize];
            lines.push_str(&format!(
                "{}\n",
                json!({ "jsonrpc": "2.0", "id": id, "method": "emit",
                        "params": { "session": session, "event": { "type": "tool_call", "toolName": "bash", "toolCallId": "t", "input": { "command": "ls" } } } })
            ));
            id += 1;
        }
        agent.send(lines.trim_end());
        let mut answered = std::collections::HashSet::new();
        while answered.len() < (PER_SESSION * SESSIONS) as usize {
            let message = agent.wait_for(|message| message.get("method").is_none());
            assert!(message.get("error").is_none(), "{message}");
            assert!(
                answered.insert(message["id"].as_u64().unwrap_or_default()),
                "answered twice: {message}"
            );
        }
        for (n, name) in names.iter().enumerate() {
            assert_eq!(
                agent.command_result(name, id + n as u64, "calls", ""),
                PER_SESSION,
                "{name}"
            );
        }
        id += SESSIONS;
        for name in &names {
            agent.request_to(name, id, "shutdown", json!({}));
            assert_eq!(agent.response(id)["result"], Value::Null);
            id += 1;
        }
        after.push(AfterRound {
            descriptors: settled(|| open_descriptors(pid)),
            engine_threads: settled(|| engine_threads(pid)),
            resident_mib: resident_mib(pid),
        });
    }
    after
}

/// Many sessions flooded with pipelined requests at once: every request is
/// answered once, each by its own session, and sessions opened and shut
/// down again leave no thread and no open descriptor behind. (Their memory
/// is not all given back: the engine keeps a dropped runtime's heap, engine
/// note 50.)
#[test]
fn a_flood_across_many_sessions_is_answered_once_each_and_closed_sessions_leave_nothing_open() {
    let after = flood_rounds(&[]);
    for (round, after) in after.iter().enumerate() {
        assert_eq!(after.engine_threads, 0, "engine threads left after round {round}");
    }
    assert!(
        after[2].descriptors <= after[0].descriptors,
        "open descriptors after two more rounds of sessions opened and shut down"
    );
}

/// The same in the shared mode: the sessions share one runtime, which stays
/// (one engine thread), and opening and shutting sessions down again and
/// again leaves the process's memory where the first round left it (in the
/// isolated mode each round of six keeps about 60 MiB, engine note 50).
#[test]
fn shared_sessions_opened_and_shut_down_again_and_again_leave_memory_flat() {
    let after = flood_rounds(&["--shared-sessions"]);
    for (round, after) in after.iter().enumerate() {
        assert_eq!(after.engine_threads, 1, "engine threads after round {round}");
    }
    assert!(
        after[2].descriptors <= after[0].descriptors,
        "open descriptors after two more rounds of sessions opened and shut down"
    );
    let grown = after[2].resident_mib - after[0].resident_mib;
    assert!(
        grown < 20.0,
        "resident memory grew {grown:.1} MiB in two more rounds of six sessions"
    );
}

/// A count once it stopped changing: a session's thread closes its own
/// descriptors just after its shutdown is answered.
fn settled(count: impl Fn() -> usize) -> usize {
    let mut last = count();
    for _ in 0..50 {
        std::thread::sleep(Duration::from_millis(100));
        let now = count();
        if now == last {
            return now;
        }
        last = now;
    }
    last
}

fn open_descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |entries| entries.count())
}

/// The threads that run a session's engine. The whole count is no measure:
/// the async runtime's blocking pool keeps idle threads for ten seconds, so
/// it varies with how busy the machine was.
fn engine_threads(pid: u32) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|name| name.trim() == "pihost-engine")
        })
        .count()
}

/// A process holds at most `--max-sessions` sessions: one more is refused
/// with a clear error (not a process the machine kills), until one is shut
/// down.
#[test]
fn sessions_past_the_most_a_process_holds_are_refused_until_one_ends() {
    let project = Project::new();
    project.write("ext.ts", SESSION_EXTENSION);
    let mut agent = Agent::spawn_with(&project, &["--max-sessions", "2"]);
    agent.open_session("a", 10, json!({}));
    agent.open_session("b", 20, json!({}));
    agent.request_to("c", 30, "initialize", json!({ "paths": ["ext.ts"] }));
    let refused = agent.response(30);
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("too many sessions: 2 are open") && message.contains("--max-sessions"),
        "{message}"
    );
    // The default session counts as one.
    agent.request(31, "initialize", json!({}));
    assert_eq!(agent.response(31)["error"]["code"], -32002);
    agent.request_to("a", 32, "shutdown", json!({}));
    assert_eq!(agent.response(32)["result"], Value::Null);
    agent.open_session("c", 40, json!({}));
    assert_eq!(agent.command_result("c", 43, "calls", ""), 0);
}

/// Counts its module's evaluations and its factory's runs.
const COUNTING_EXTENSION: &str = r#"
globalThis.__evaluations = (globalThis.__evaluations ?? 0) + 1;
let factoryRuns = 0;
export default function (pi) {
  const instance = ++factoryRuns;
  pi.registerCommand("where", { handler: async () => ({ evaluations: globalThis.__evaluations, instance }) });
}
"#;

/// `--shared-sessions`: sessions with the same options share one runtime
/// (one engine thread, each module evaluated once, a factory run per
/// session), a session's shutdown leaves the others running, and a session
/// whose permissions restrict anything gets a runtime of its own.
#[test]
fn shared_sessions_share_one_runtime_and_end_one_at_a_time() {
    let project = Project::new();
    project.write("count.ts", COUNTING_EXTENSION);
    let mut agent = Agent::spawn_with(&project, &["--shared-sessions"]);
    let pid = agent.child.id();
    agent.request_to("a", 10, "initialize", json!({ "paths": ["count.ts"] }));
    assert_eq!(agent.response(10)["result"]["sharedRuntime"], true);
    agent.request_to("a", 11, "load", json!({}));
    assert_eq!(agent.response(11)["result"]["errors"], json!([]));
    agent.open_session("b", 20, json!({ "paths": ["count.ts"] }));
    assert_eq!(engine_threads(pid), 1, "two sessions, one runtime");
    assert_eq!(
        agent.command_result("a", 30, "where", ""),
        json!({ "evaluations": 1, "instance": 1 })
    );
    assert_eq!(
        agent.command_result("b", 31, "where", ""),
        json!({ "evaluations": 1, "instance": 2 })
    );
    agent.request_to("a", 32, "shutdown", json!({}));
    assert_eq!(agent.response(32)["result"], Value::Null);
    assert_eq!(
        agent.command_result("b", 33, "where", ""),
        json!({ "evaluations": 1, "instance": 2 })
    );
    agent.request_to(
        "c",
        40,
        "initialize",
        json!({ "paths": ["count.ts"], "permissions": { "sandbox": true, "allowRead": ["."] } }),
    );
    assert_eq!(agent.response(40)["result"]["sharedRuntime"], false);
    assert_eq!(engine_threads(pid), 2, "a sandboxed session has a runtime of its own");
}
