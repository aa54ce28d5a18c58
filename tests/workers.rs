//! `node:worker_threads` in pihost beyond what Node also does (that part is
//! tests/platform/workers.mjs, compared with Node 22 by tests/platform.rs):
//! each worker is a thread of its own that goes away when the worker ends
//! or is terminated, or when its engine stops; `process.exit()` in a worker
//! never ends the host; a real npm worker pool (workerpool) does its work
//! through an extension's tool. Every wait is bounded.

mod support;

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pihost::Pihost;
use pihost::host::{HostState, RecordingHost};
use serde_json::{Value, json};
use support::*;

/// Runs `tool` of the extension `source` with `pihost tool` (a process of its
/// own, so the threads it counts are its own) and answers the tool's JSON.
fn run_tool(project: &Project, source: &str, tool: &str, args: Value) -> Value {
    run_tool_with(project, source, tool, args, &[])
}

/// [`run_tool`] with more `pihost tool` options (limits).
fn run_tool_with(project: &Project, source: &str, tool: &str, args: Value, options: &[&str]) -> Value {
    let extension = project.write("workers-extension.ts", source);
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args([
            "tool",
            tool,
            "--timeout-ms",
            "30000",
            "-e",
            &extension,
            "--args",
            &args.to_string(),
        ])
        .args(options)
        .current_dir(project.root.path())
        .output()
        .expect("pihost runs");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "pihost printed no JSON: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(
        printed.get("error").is_none() && printed["loadErrors"] == json!([]),
        "{printed:#}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{printed:#}");
    let text = printed["result"]["content"][0]["text"]
        .as_str()
        .expect("the tool's text");
    serde_json::from_str(text).expect("the tool answered JSON")
}

/// The JavaScript that counts this process's worker threads by their names.
const COUNT_WORKER_THREADS: &str = r#"
import fs from "node:fs";

function workerThreads() {
  let count = 0;
  for (const task of fs.readdirSync("/proc/self/task")) {
    try {
      if (fs.readFileSync(`/proc/self/task/${task}/comm`, "utf8").startsWith("pihost-worker")) count += 1;
    } catch {
      // The thread ended while we looked.
    }
  }
  return count;
}

async function settledCount() {
  // A thread ends a moment after its worker's 'exit': wait for it, bounded.
  for (let round = 0; round < 200; round += 1) {
    if (workerThreads() === 0) return 0;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return workerThreads();
}
"#;

#[test]
fn each_worker_is_a_thread_that_goes_away_when_it_ends_or_is_terminated() {
    let project = Project::new();
    project.write(
        "spin.mjs",
        r#"import { parentPort } from "node:worker_threads";
parentPort.postMessage("spinning");
for (;;) {}
"#,
    );
    project.write(
        "done.mjs",
        r#"import { parentPort } from "node:worker_threads";
parentPort.postMessage("done");
"#,
    );
    let source = format!(
        r#"{COUNT_WORKER_THREADS}
import {{ Worker }} from "node:worker_threads";
import path from "node:path";

export default function (pi) {{
  pi.registerTool({{ name: "threads", parameters: {{ type: "object" }}, execute: async () => {{
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const before = workerThreads();
    const spinners = [1, 2, 3].map(() => new Worker(path.join(dir, "spin.mjs")));
    const spinning = spinners.map((worker) => new Promise((resolve) => worker.once("message", resolve)));
    const finished = [1, 2, 3].map(() => {{
      const worker = new Worker(path.join(dir, "done.mjs"));
      return new Promise((resolve) => worker.once("exit", resolve));
    }});
    await Promise.all(spinning);
    const running = workerThreads();
    await Promise.all(finished);
    const codes = await Promise.all(spinners.map((worker) => worker.terminate()));
    const after = await settledCount();
    return {{ content: [{{ type: "text", text: JSON.stringify({{ before, running, codes, after }}) }}], details: {{}} }};
  }} }});
}}
"#
    );
    let answer = run_tool(&project, &source, "threads", json!({}));
    assert_eq!(answer["before"], 0, "{answer}");
    assert!(
        answer["running"].as_u64().is_some_and(|running| running >= 3),
        "the spinning workers run on threads of their own: {answer}"
    );
    assert_eq!(answer["codes"], json!([1, 1, 1]), "{answer}");
    assert_eq!(answer["after"], 0, "every worker thread is gone: {answer}");
}

#[test]
fn process_exit_in_a_worker_ends_the_worker_and_the_host_goes_on() {
    let project = Project::new();
    project.write(
        "exit.mjs",
        r#"import { workerData } from "node:worker_threads";
setTimeout(() => process.exit(workerData), 5);
"#,
    );
    let source = r#"
import { Worker } from "node:worker_threads";
import path from "node:path";

export default function (pi) {
  pi.registerTool({ name: "exits", parameters: { type: "object" }, execute: async () => {
    const file = path.join(path.dirname(new URL(import.meta.url).pathname), "exit.mjs");
    const codes = [];
    for (const code of [0, 4, 9]) {
      const worker = new Worker(file, { workerData: code });
      codes.push(await new Promise((resolve) => worker.once("exit", resolve)));
    }
    // Still here, and still able to start workers and compute.
    const eval_ = new Worker("require('node:worker_threads').parentPort.postMessage(6 * 7)", { eval: true });
    const answer = await new Promise((resolve) => eval_.once("message", resolve));
    return { content: [{ type: "text", text: JSON.stringify({ codes, answer, pid: process.pid }) }], details: {} };
  } });
}
"#;
    let answer = run_tool(&project, source, "exits", json!({}));
    assert_eq!(answer["codes"], json!([0, 4, 9]), "{answer}");
    assert_eq!(answer["answer"], 42, "{answer}");
}

#[test]
fn a_worker_that_cannot_start_is_an_error_event() {
    let project = Project::new();
    project.write("broken.ts", "export const x: number = ;\n");
    let source = r#"
import { Worker } from "node:worker_threads";
import path from "node:path";

export default function (pi) {
  pi.registerTool({ name: "broken", parameters: { type: "object" }, execute: async () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const outcomes = [];
    for (const file of ["broken.ts", "missing.mjs"]) {
      const worker = new Worker(path.join(dir, file));
      outcomes.push(await new Promise((resolve) => {
        let error;
        worker.on("error", (caught) => { error = caught.message; });
        worker.on("exit", (code) => resolve({ file, code, failed: typeof error === "string" && error.length > 0 }));
      }));
    }
    return { content: [{ type: "text", text: JSON.stringify(outcomes) }], details: {} };
  } });
}
"#;
    let answer = run_tool(&project, source, "broken", json!({}));
    assert_eq!(
        answer,
        json!([
            { "file": "broken.ts", "code": 1, "failed": true },
            { "file": "missing.mjs", "code": 1, "failed": true },
        ])
    );
}

fn worker_threads_of_this_process() -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|name| name.starts_with("pihost-worker"))
        })
        .count()
}

fn text(result: &Option<Value>) -> String {
    result.as_ref().expect("a result")["content"][0]["text"]
        .as_str()
        .expect("text content")
        .to_string()
}

/// In one test of this file only: the others run their workers in
/// processes of their own, so this process's worker threads are this test's.
#[test]
fn workerpool_squares_in_a_pool_and_stopping_the_engine_ends_its_workers() {
    runtime().block_on(async {
        let options = pihost::EngineOptions::for_cwd(&project_root());
        let pihost = Pihost::start(options).await.expect("start");
        let project = Project::new();
        project.write(
            "spin.mjs",
            "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage('up');\nfor (;;) {}\n",
        );
        let spinner = project.write(
            "leave-spinning.ts",
            r#"import { Worker } from "node:worker_threads";
import path from "node:path";

export default function (pi) {
  pi.registerTool({ name: "leave_spinning", parameters: { type: "object" }, execute: async () => {
    const worker = new Worker(path.join(path.dirname(new URL(import.meta.url).pathname), "spin.mjs"));
    await new Promise((resolve) => worker.once("message", resolve));
    return { content: [{ type: "text", text: "left running" }], details: {} };
  } });
}
"#,
        );
        let report = pihost
            .load(&[
                "extensions-examples/npm-deps/pool-squares.ts".to_string(),
                spinner.to_string(),
            ])
            .await
            .expect("load");
        assert!(
            report.errors.is_empty(),
            "run scripts/setup to install the npm examples: {:#?}",
            report.errors
        );
        pihost
            .bind(Arc::new(RecordingHost::new()), &HostState::default())
            .await
            .expect("bind");

        let squares = pihost
            .execute_tool("pool_squares", "p1", &json!({ "numbers": [1, 2, 3, 4, 5, 6] }), None)
            .await
            .expect("workerpool");
        assert_eq!(text(&squares), "1 4 9 16 25 36");
        let workers = &squares.as_ref().expect("result")["details"]["totalWorkers"];
        assert!(
            workers.as_u64().is_some_and(|count| (1..=2).contains(&count)),
            "{squares:?}"
        );

        let left = pihost
            .execute_tool("leave_spinning", "p2", &json!({}), None)
            .await
            .expect("a spinning worker");
        assert_eq!(text(&left), "left running");
        assert!(worker_threads_of_this_process() >= 1, "the spinning worker runs");
        pihost.shutdown().await.expect("shutdown");
        drop(pihost);
        let deadline = Instant::now() + Duration::from_secs(10);
        while worker_threads_of_this_process() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert_eq!(
            worker_threads_of_this_process(),
            0,
            "stopping the engine stopped the worker it left spinning"
        );
    });
}

/// A worker gets its parent's heap limit (the session's `--max-heap-mb`),
/// not the default: one that hoards memory past it ends (exit code 1, as
/// Node's worker out of memory does) while the extension that started it,
/// and the host, go on.
#[test]
fn a_worker_that_hoards_memory_stops_at_the_sessions_heap_limit() {
    let project = Project::new();
    project.write(
        "hoard.mjs",
        r#"import { parentPort } from "node:worker_threads";
const kept = [];
for (;;) {
  kept.push(new Array(1 << 20).fill(kept.length));
  parentPort.postMessage(kept.length);
}
"#,
    );
    let source = r#"
import { Worker } from "node:worker_threads";
import path from "node:path";

export default function (pi) {
  pi.registerTool({ name: "hoard", parameters: { type: "object" }, execute: async () => {
    const file = path.join(path.dirname(new URL(import.meta.url).pathname), "hoard.mjs");
    const worker = new Worker(file);
    let arrays = 0;
    worker.on("message", (count) => { arrays = count; });
    const exit = await new Promise((resolve) => worker.once("exit", resolve));
    return { content: [{ type: "text", text: JSON.stringify({ exit, arrays, stillHere: 6 * 7 }) }], details: {} };
  } });
}
"#;
    let answer = run_tool_with(&project, source, "hoard", json!({}), &["--max-heap-mb", "64"]);
    assert_eq!(answer["stillHere"], 42, "{answer}");
    assert_eq!(answer["exit"], 1, "{answer}");
    // Each array is at least 8 MB: under the default limit the worker
    // would have made far more than 64 MB's worth.
    let arrays = answer["arrays"].as_u64().unwrap_or_default();
    assert!(
        (1..8).contains(&arrays),
        "the worker made {arrays} arrays of 1M elements under a 64 MB limit"
    );
}
