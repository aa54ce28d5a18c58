//! `pihost mcp` against the official MCP clients: the TypeScript SDK
//! (`@modelcontextprotocol/sdk` from extensions-examples/npm-deps) and the
//! Python SDK (`mcp` from PyPI, in target/mcp-venv, installed by
//! scripts/setup). Each client script runs its scenarios against the binary
//! and prints `ok <scenario>` or `FAILED <scenario>: …` per scenario.

mod support;

use std::path::Path;
use std::process::Command;

use support::{project_root, reference_dir};

fn run_client(program: &Path, script: &str) {
    let script = project_root().join(script);
    let output = Command::new(program)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_pihost"))
        .current_dir(project_root())
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", program.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let passed = stdout.lines().filter(|line| line.starts_with("ok ")).count();
    let failed: Vec<&str> = stdout.lines().filter(|line| line.starts_with("FAILED")).collect();
    assert!(
        output.status.success() && failed.is_empty() && passed > 0,
        "{} against pihost mcp: {} passed, failed:\n{}\n\nstdout:\n{stdout}\nstderr:\n{stderr}",
        script.display(),
        passed,
        failed.join("\n"),
    );
    eprintln!("{}: {passed} scenarios passed", script.display());
}

#[test]
fn the_typescript_sdk_client_lists_calls_cancels_and_answers_dialogs() {
    let Some(reference) = reference_dir() else {
        return;
    };
    let sdk = project_root().join("extensions-examples/npm-deps/node_modules/@modelcontextprotocol/sdk");
    assert!(
        sdk.exists(),
        "the TypeScript MCP SDK is not installed at {} (run scripts/setup)",
        sdk.display()
    );
    run_client(&reference.join("node_modules/.bin/node"), "tests/mcp/ts-client.mjs");
}

#[test]
fn the_python_sdk_client_lists_calls_cancels_and_answers_dialogs() {
    let python = project_root().join("target/mcp-venv/bin/python");
    assert!(
        python.exists(),
        "the Python MCP SDK's virtual environment is missing at {} (run scripts/setup)",
        python.display()
    );
    run_client(&python, "tests/mcp/python-client.py");
}

/// Many `tools/call` requests sent at once, without waiting for answers, as
/// a busy client pipelines them: every one is answered exactly once with its
/// own result, and every progress update of every call arrives, in order,
/// before its call's answer.
#[test]
fn pipelined_tool_calls_are_each_answered_once_and_no_progress_is_lost() {
    use std::collections::HashMap;
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};

    const CALLS: u64 = 300;
    let work = tempfile::tempdir().expect("temp dir");
    let (mut server, mut stdin, received) = start_mcp_tools_server(work.path());
    let mut lines = initialize_lines();
    for id in 1..=CALLS {
        lines.push(if id % 2 == 0 {
            json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": { "name": "greet", "arguments": { "name": format!("n{id}") } } })
        } else {
            json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": { "name": "count_up", "arguments": { "to": 3 }, "_meta": { "progressToken": format!("p{id}") } } })
        });
    }
    send_lines(&mut stdin, &lines);
    let mut answers: HashMap<u64, Vec<Value>> = HashMap::new();
    let mut progress: HashMap<String, Vec<u64>> = HashMap::new();
    let mut answered_before_progress_ended = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(180);
    while answers.len() < CALLS as usize + 1 {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(message) = received.recv_timeout(left) else {
            break;
        };
        assert!(
            message.get("unparsable").is_none(),
            "stdout carried a line that is not JSON: {message}"
        );
        if message["method"] == "notifications/progress" {
            let token = message["params"]["progressToken"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            progress
                .entry(token)
                .or_default()
                .push(message["params"]["progress"].as_u64().unwrap_or(0));
            continue;
        }
        let Some(id) = message["id"].as_u64() else {
            continue;
        };
        if id % 2 == 1 && progress.get(&format!("p{id}")).map(Vec::len) != Some(3) {
            answered_before_progress_ended.push(id);
        }
        answers.entry(id).or_default().push(message);
    }
    drop(stdin);
    let _ = server.wait();

    let missing: Vec<u64> = (0..=CALLS).filter(|id| !answers.contains_key(id)).collect();
    assert!(
        missing.is_empty(),
        "{} calls never answered: {missing:?}",
        missing.len()
    );
    let twice: Vec<&u64> = answers
        .iter()
        .filter(|(_, all)| all.len() > 1)
        .map(|(id, _)| id)
        .collect();
    assert!(twice.is_empty(), "calls answered more than once: {twice:?}");
    for id in 1..=CALLS {
        let answer = &answers[&id][0];
        let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_default();
        let expected = if id % 2 == 0 {
            format!("Hello, n{id}.")
        } else {
            "counted to 3".to_string()
        };
        assert_eq!(text, expected, "call {id} got another call's answer or none: {answer}");
        if id % 2 == 1 {
            assert_eq!(
                progress.get(&format!("p{id}")),
                Some(&vec![1, 2, 3]),
                "progress of call {id}"
            );
        }
    }
    assert!(
        answered_before_progress_ended.is_empty(),
        "calls answered before all their progress arrived: {answered_before_progress_ended:?}"
    );
}

/// `pihost mcp` serving extensions-examples' mcp-tools and hello-tool in
/// `work`: the process, its stdin, and its stdout's messages as they come
/// (a line that is not JSON arrives as `{ "unparsable": line }`).
fn start_mcp_tools_server(
    work: &Path,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<serde_json::Value>,
) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let agent_dir = work.join("agent");
    std::fs::create_dir_all(&agent_dir).expect("agent dir");
    let examples = project_root().join("extensions-examples");
    let mut server = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .arg("mcp")
        .arg(examples.join("mcp-tools"))
        .arg(examples.join("hello-tool.ts"))
        .arg("--cwd")
        .arg(work)
        .env("PI_CODING_AGENT_DIR", &agent_dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pihost mcp");
    let stdin = server.stdin.take().expect("stdin");
    let stdout = BufReader::new(server.stdout.take().expect("stdout"));
    let (sender, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let message = serde_json::from_str(&line).unwrap_or_else(|_| serde_json::json!({ "unparsable": line }));
            if sender.send(message).is_err() {
                break;
            }
        }
    });
    (server, stdin, received)
}

/// A client's `initialize` (id 0) and `notifications/initialized`.
fn initialize_lines() -> Vec<serde_json::Value> {
    use serde_json::json;
    vec![
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "flood", "version": "1" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
    ]
}

fn send_lines(stdin: &mut std::process::ChildStdin, lines: &[serde_json::Value]) {
    use std::io::Write;
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    stdin.write_all(text.as_bytes()).expect("write the requests");
    stdin.flush().expect("flush");
}

/// A client that pipelines more calls than the server runs at once (256):
/// the calls past the cap wait their turn and start as earlier ones finish,
/// and one cancelled while it waits never runs and is never answered, as a
/// cancelled request.
#[test]
fn calls_past_the_cap_wait_their_turn_and_a_waiting_call_can_be_cancelled() {
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};

    const CAP: u64 = 256;
    let work = tempfile::tempdir().expect("temp dir");
    let (mut server, mut stdin, received) = start_mcp_tools_server(work.path());
    let marker = |id: u64| work.path().join(format!("m{id}"));
    let wait_call = |id: u64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": { "name": "wait_for_abort", "arguments": { "marker": marker(id), "limitMs": 120000 } } })
    };
    let cancel =
        |id: u64| json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": id } });
    // Ids 1..=256 fill every slot; 257 (another wait) and 258 (an instant greeting) wait behind them.
    let mut lines = initialize_lines();
    lines.extend((1..=CAP + 1).map(wait_call));
    lines.push(json!({ "jsonrpc": "2.0", "id": CAP + 2, "method": "tools/call",
                       "params": { "name": "greet", "arguments": { "name": "late" } } }));
    send_lines(&mut stdin, &lines);

    // Five seconds for the calls to start: none answers while it waits, and
    // the greeting, were it not held back, would answer at once.
    let mut answers: Vec<Value> = Vec::new();
    let collect = |answers: &mut Vec<Value>, until: Instant| {
        while let Ok(message) = received.recv_timeout(until.saturating_duration_since(Instant::now())) {
            assert!(
                message.get("unparsable").is_none(),
                "stdout carried a line that is not JSON: {message}"
            );
            if message.get("id").is_some() {
                answers.push(message);
            }
        }
    };
    collect(&mut answers, Instant::now() + Duration::from_secs(5));
    let answered = |answers: &[Value], id: u64| answers.iter().any(|answer| answer["id"] == json!(id));
    assert!(answered(&answers, 0), "initialize was not answered: {answers:?}");
    assert!(
        !answered(&answers, CAP + 2),
        "the greeting past the cap ran while every slot was taken: {answers:?}"
    );

    // The waiting wait (257) is cancelled; then a slot frees (1 is cancelled) and the greeting runs.
    send_lines(&mut stdin, &[cancel(CAP + 1), cancel(1)]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !answered(&answers, CAP + 2) && Instant::now() < deadline {
        collect(&mut answers, Instant::now() + Duration::from_millis(200));
    }
    let greeting = answers.iter().find(|answer| answer["id"] == json!(CAP + 2));
    assert_eq!(
        greeting.and_then(|answer| answer["result"]["content"][0]["text"].as_str()),
        Some("Hello, late."),
        "the greeting did not run once a slot freed: {answers:?}"
    );

    // The rest are cancelled; the cancelled ones, 257 included, are never answered, and 257 never ran.
    send_lines(&mut stdin, &(2..=CAP).map(cancel).collect::<Vec<_>>());
    collect(&mut answers, Instant::now() + Duration::from_secs(3));
    drop(stdin);
    let _ = server.wait();
    let cancelled_but_answered: Vec<&Value> = answers
        .iter()
        .filter(|answer| answer["id"].as_u64().is_some_and(|id| (1..=CAP + 1).contains(&id)))
        .collect();
    assert!(
        cancelled_but_answered.is_empty(),
        "cancelled calls were answered: {cancelled_but_answered:?}"
    );
    assert!(
        !marker(CAP + 1).exists(),
        "the call cancelled while it waited ran anyway"
    );
    assert!(marker(1).exists(), "the running call's signal did not abort");
}

/// pi's own MCP extension (`createMcpExtension` of pi-coding-agent) as an
/// extension loads it in pihost: it reads the project's `.pi/mcp.json`,
/// starts a server built with the official MCP Python SDK over stdio when
/// the session starts, and registers its tools, which run through pihost's
/// tool pipeline like any other tool, and the resource tools.
#[test]
fn pi_s_mcp_extension_connects_a_python_sdk_server_and_its_tools_run() {
    use std::sync::Arc;
    use std::time::Duration;

    use pihost::Pihost;
    use pihost::host::{HostState, RecordingHost};
    use serde_json::{Value, json};

    let python = project_root().join("target/mcp-venv/bin/python");
    assert!(python.exists(), "{} is missing: run scripts/setup", python.display());
    let server = project_root().join("tests/fixtures/mcp-sdk-server/server.py");
    let project = support::Project::new();
    let config = json!({ "mcpServers": { "demo": {
        "command": python, "args": [server], "exposure": "direct"
    } } });
    // A project's mcp.json is read when the project is trusted (the host state's default).
    project.write(".pi/mcp.json", &config.to_string());
    let extension = project.write(
        "mcp.ts",
        "import { createMcpExtension } from \"@earendil-works/pi-coding-agent\";\nexport default createMcpExtension();\n",
    );
    let text = |result: &Value| result["content"][0]["text"].as_str().unwrap_or_default().to_string();

    support::runtime().block_on(async {
        let within = |seconds| Duration::from_secs(seconds);
        let pihost = Pihost::start(project.options()).await.expect("start");
        let host = Arc::new(RecordingHost::new());
        let mut errors = pihost.errors();
        let report = pihost.load(&[extension]).await.expect("load");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        pihost.bind(host.clone(), &HostState::default()).await.expect("bind");
        let start = json!({ "type": "session_start", "reason": "startup" });
        pihost.emit(&start).await.expect("session_start");
        // The first prompt waits for servers whose tools are declared directly.
        let prompt = json!({
            "type": "before_agent_start", "prompt": "add", "images": [], "systemPrompt": "base",
            "systemPromptOptions": { "sections": {} }
        });
        let started = tokio::time::timeout(within(60), pihost.emit(&prompt)).await;
        started
            .expect("the servers connected in time")
            .expect("before_agent_start");

        let registrations = pihost.registrations().await.expect("registrations");
        let registrations = serde_json::to_value(registrations).expect("serializable");
        let names: Vec<&str> = registrations["tools"]
            .as_array()
            .map(|tools| tools.iter().filter_map(|tool| tool["name"].as_str()).collect())
            .unwrap_or_default();
        let mut reported = Vec::new();
        while let Ok(error) = errors.try_recv() {
            reported.push(format!("{}: {}", error.event, error.error));
        }
        assert!(
            names.contains(&"mcp__demo__add"),
            "tools: {names:?} ({registrations}); the host saw {:?}; errors: {reported:?}",
            host.calls()
        );
        assert!(names.contains(&"read_mcp_resource"), "tools: {names:?}");

        let sum = pihost
            .execute_tool("mcp__demo__add", "call-1", &json!({ "a": 2, "b": 40 }), None)
            .await
            .expect("add runs")
            .unwrap_or(Value::Null);
        assert_eq!(text(&sum), "42", "{sum}");

        // The SDK answers a tool that raised with isError and a generic text; pi passes it on as the tool's error.
        let failed = pihost
            .execute_tool("mcp__demo__fail", "call-2", &json!({ "reason": "no luck" }), None)
            .await
            .expect("fail answers")
            .unwrap_or(Value::Null);
        assert_eq!(failed["isError"], json!(true), "{failed}");
        assert_eq!(text(&failed), "Error executing tool fail", "{failed}");

        let note = pihost
            .execute_tool(
                "read_mcp_resource",
                "call-3",
                &json!({ "server": "demo", "uri": "notes://today" }),
                None,
            )
            .await
            .expect("the resource reads")
            .unwrap_or(Value::Null);
        assert!(note.to_string().contains("buy milk"), "{note}");
        pihost.shutdown().await.expect("shutdown");
    });
}
