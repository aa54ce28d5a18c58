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
        let mut child = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .arg("serve")
            .arg("--cwd")
            .arg(project.root.path())
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
