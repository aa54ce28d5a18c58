//! The example extensions with real npm dependencies (extensions-examples/
//! npm-deps, installed by scripts/setup) doing their work inside pihost: an
//! ESM-only package, one picked by `exports` conditions, a big CommonJS
//! library with named imports, a CommonJS dependency tree that compiles
//! code at run time, a package that spawns processes and streams their
//! output, fetch against a server this test starts, and a file watcher
//! (chokidar) that keeps watching between tool calls (the worker pool
//! example, workerpool, is tests/workers.rs').

mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;

use pihost::Pihost;
use pihost::host::{HostState, RecordingHost};
use serde_json::{Value, json};
use support::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio")
}

async fn loaded() -> Pihost {
    let options = pihost::EngineOptions::for_cwd(&project_root());
    let pihost = Pihost::start(options).await.expect("start");
    let report = pihost
        .load(&["extensions-examples/npm-deps".to_string()])
        .await
        .expect("load");
    assert!(
        report.errors.is_empty(),
        "the npm examples load (run scripts/setup to install their packages): {:#?}",
        report.errors
    );
    assert_eq!(report.extensions.len(), 8);
    pihost
        .bind(Arc::new(RecordingHost::new()), &HostState::default())
        .await
        .expect("bind");
    pihost
}

fn text(result: &Option<Value>) -> String {
    result.as_ref().expect("a result")["content"][0]["text"]
        .as_str()
        .expect("text content")
        .to_string()
}

/// Answers every request with a small text body, once per connection.
fn serve_text() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().map_while(Result::ok) {
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
                line.clear();
            }
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 11\r\nconnection: close\r\n\r\nhello there"
            );
        }
    });
    port
}

#[test]
fn npm_packages_do_their_work_inside_pihost() {
    runtime().block_on(async {
        let pihost = loaded().await;

        let id = text(&pihost.execute_tool("short_id", "c1", &json!({}), None).await.expect("nanoid"));
        assert_eq!(id.len(), 21, "{id}");
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'), "{id}");
        let digits = text(&pihost.execute_tool("short_id", "c2", &json!({ "numeric": true }), None).await.expect("nanoid"));
        assert!(digits.len() == 6 && digits.chars().all(|c| c.is_ascii_digit()), "{digits}");

        let info = pihost
            .execute_tool("uuid_info", "c3", &json!({ "value": "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d" }), None)
            .await
            .expect("uuid");
        assert_eq!(text(&info), "UUID version 4");
        let rewritten = pihost
            .emit_tool_result(&serde_json::from_value(json!({
                "type": "tool_result", "toolName": "uuid_info", "toolCallId": "c3", "input": {},
                "content": [], "details": { "valid": true }, "isError": false
            })).expect("event"))
            .await
            .expect("tool_result");
        let stamp = serde_json::to_value(&rewritten).expect("json")["details"]["stamp"].clone();
        assert_eq!(stamp.as_str().map(str::len), Some(36), "uuid stamped the result: {rewritten:?}");

        let groups = pihost
            .execute_tool("group_files", "c4", &json!({ "paths": ["a.ts", "b.md", "c.ts"] }), None)
            .await
            .expect("lodash");
        assert_eq!(text(&groups), "ts: a.ts, c.ts\nmd: b.md");

        let blocked = pihost
            .emit(&json!({ "type": "tool_call", "toolName": "config_write", "toolCallId": "c5", "input": { "name": "", "extra": 1 } }))
            .await
            .expect("ajv");
        assert_eq!(
            blocked,
            Some(json!({ "block": true, "reason": "data must NOT have additional properties, data/name must NOT have fewer than 1 characters" }))
        );
        let allowed = pihost
            .emit(&json!({ "type": "tool_call", "toolName": "config_write", "toolCallId": "c6", "input": { "name": "pi", "retries": 2 } }))
            .await
            .expect("ajv");
        assert_eq!(allowed, None);

        let (updates, mut received) = tokio::sync::mpsc::unbounded_channel();
        let run = pihost
            .execute_tool(
                "run_streamed",
                "c7",
                &json!({ "command": "sh", "args": ["-c", "echo one; sleep 0.1; echo two >&2; exit 3"] }),
                Some(updates),
            )
            .await
            .expect("cross-spawn");
        assert_eq!(text(&run), "stdout: one\nstderr: two");
        assert_eq!(run.as_ref().expect("result")["details"]["code"], 3);
        let mut streamed = Vec::new();
        while let Ok(update) = received.try_recv() {
            streamed.push(update["content"][0]["text"].as_str().unwrap_or_default().to_string());
        }
        assert_eq!(streamed, ["stdout: one", "stderr: two"], "each line arrived as an update while it ran");

        let port = serve_text();
        let fetched = pihost
            .execute_tool("fetch_status", "c8", &json!({ "url": format!("http://127.0.0.1:{port}/") }), None)
            .await
            .expect("fetch");
        assert_eq!(text(&fetched), "200 text/plain 11 bytes");
    });
}

fn changes(result: &Option<Value>) -> Vec<String> {
    serde_json::from_value(result.as_ref().expect("a result")["details"]["changes"].clone()).expect("changes")
}

#[test]
fn chokidar_reports_what_changes_in_a_folder_to_a_tool() {
    runtime().block_on(async {
        let pihost = loaded().await;
        let folder = tempfile::tempdir().expect("temp dir");
        let at = |name: &str| folder.path().join(name);
        std::fs::write(at("existing.txt"), "old").expect("write");
        let started = pihost
            .execute_tool("watch_start", "w1", &json!({ "dir": folder.path() }), None)
            .await
            .expect("chokidar starts");
        assert!(text(&started).starts_with("watching "), "{started:?}");

        // Between tool calls the extension keeps watching.
        std::fs::write(at("new.txt"), "new").expect("write");
        std::fs::write(at("existing.txt"), "changed").expect("write");
        std::fs::create_dir(at("sub")).expect("mkdir");
        let first = ["add new.txt", "addDir sub", "change existing.txt"];
        let seen = pihost
            .execute_tool("watch_changes", "w2", &json!({ "waitFor": first }), None)
            .await
            .expect("changes");
        let seen = changes(&seen);
        assert!(
            first.iter().all(|change| seen.contains(&change.to_string())),
            "{seen:?}"
        );

        std::fs::write(at("sub/deep.txt"), "deep").expect("write");
        std::fs::remove_file(at("new.txt")).expect("remove");
        let second = ["add sub/deep.txt", "unlink new.txt"];
        let last = pihost
            .execute_tool("watch_changes", "w3", &json!({ "waitFor": second, "stop": true }), None)
            .await
            .expect("changes");
        let seen = changes(&last);
        assert!(
            second.iter().all(|change| seen.contains(&change.to_string())),
            "{seen:?}"
        );
        let details = &last.as_ref().expect("result")["details"];
        assert_eq!(details["errors"], json!([]), "{details}");
        assert_eq!(details["watching"], json!(false));
    });
}
