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

/// The npm examples loaded and bound; `isolated`: in a sandbox with a
/// policy that grants their package everything, so that each runs in a
/// runtime of its own and reaches pihost only through the membrane.
async fn loaded(isolated: bool) -> Pihost {
    let mut options = pihost::EngineOptions::for_cwd(&project_root());
    if isolated {
        let everything = Some(Vec::new());
        options.permissions.sandbox = true;
        options.permissions.extensions.insert(
            "pihost-npm-examples".to_string(),
            pihost::permissions::ExtensionGrant {
                allow_read: everything.clone(),
                allow_write: everything.clone(),
                allow_run: everything.clone(),
                allow_net: everything.clone(),
                allow_env: everything.clone(),
                allow_sys: everything,
                ..Default::default()
            },
        );
    }
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
    assert_eq!(report.extensions.len(), 15);
    if isolated {
        assert!(report.extensions.iter().all(|extension| extension.isolated.is_some()));
    }
    pihost
        .bind(Arc::new(RecordingHost::new()), &HostState::default())
        .await
        .expect("bind");
    pihost
}

fn text(result: &Option<Value>) -> String {
    text_of(result.as_ref().expect("a result"))
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content in {result:#}"))
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

fn npm_packages_do_their_work_inside_pihost(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;

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

fn chokidar_reports_what_changes_in_a_folder_to_a_tool(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
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
        let mut last = pihost
            .execute_tool(
                "watch_changes",
                "w3",
                &json!({ "waitFor": second, "timeoutMs": 3000 }),
                None,
            )
            .await
            .expect("changes");
        if !changes(&last).contains(&second[0].to_string()) {
            // chokidar reports a new folder's `addDir` before it has read
            // the folder and watched it, in Node as here: a file written in
            // that window is found at the folder's next change instead.
            std::fs::write(at("sub/deep.txt"), "deeper").expect("write");
        }
        last = pihost
            .execute_tool("watch_changes", "w4", &json!({ "waitFor": second, "stop": true }), None)
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

/// Runs a tool, bounded: a tool that never settles fails the test instead
/// of hanging it.
async fn tool(pihost: &Pihost, name: &str, args: Value) -> Value {
    let call = pihost.execute_tool(name, "t1", &args, None);
    tokio::time::timeout(std::time::Duration::from_secs(60), call)
        .await
        .unwrap_or_else(|_| panic!("{name} did not finish in 60 s"))
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .unwrap_or_else(|| panic!("{name} gave no result"))
}

fn express_serves_pages_that_fetch_reads_back(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let result = tool(&pihost, "express_roundtrip", json!({})).await;
        assert_eq!(
            text_of(&result),
            "200 /\n200 /api/items/42?tag=blue\n201 /api/echo\n404 /missing"
        );
        let results = &result["details"]["results"];
        assert_eq!(results[0]["type"], "text/html; charset=utf-8");
        assert_eq!(
            results[0]["body"],
            "<!doctype html><title>pihost</title><h1>Hello from express</h1>"
        );
        assert_eq!(results[1]["type"], "application/json; charset=utf-8");
        assert_eq!(results[1]["body"], r#"{"id":"42","tag":"blue"}"#);
        assert_eq!(
            results[2]["body"], r#"{"received":{"words":["one","two","three"]},"count":3}"#,
            "express.json() parsed the POST's body"
        );
        assert!(
            results[3]["body"]
                .as_str()
                .is_some_and(|body| body.contains("Cannot GET /missing")),
            "{results}"
        );
        // The server was closed before the tool returned: its port refuses.
        let port = result["details"]["port"].as_u64().expect("port") as u16;
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
            "port {port} still open"
        );
    });
}

fn vscode_jsonrpc_talks_over_a_unix_socket(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let folder = tempfile::tempdir().expect("temp dir");
        let result = tool(&pihost, "jsonrpc_roundtrip", json!({ "dir": folder.path() })).await;
        assert_eq!(
            text_of(&result),
            "sum 10\nnotes first, second\ncounted to 3 (steps 1 2 3)\n-32601 Unhandled method no/such-method",
            "{result:#}"
        );
        let socket = result["details"]["socketPath"].as_str().expect("socket path");
        assert!(socket.starts_with(folder.path().to_str().expect("utf-8")), "{socket}");
        assert!(
            !std::path::Path::new(socket).exists(),
            "closing the server removed {socket}"
        );
    });
}

fn async_local_storage_follows_axios_requests(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let result = tool(
            &pihost,
            "traced_requests",
            json!({ "ids": ["req-1", "req-2", "req-3"] }),
        )
        .await;
        assert_eq!(
            text_of(&result),
            "req-1: header req-1, response req-1, after await req-1\n\
             req-2: header req-2, response req-2, after await req-2\n\
             req-3: header req-3, response req-3, after await req-3",
            "{result:#}"
        );
        for (index, id) in ["req-1", "req-2", "req-3"].iter().enumerate() {
            assert_eq!(
                result["details"]["results"][index]["seen"],
                json!([format!("request {id}"), format!("response {id}")])
            );
        }
        assert_eq!(result["details"]["outside"], Value::Null, "no context outside run()");
    });
}

fn proper_lockfile_locks_and_refuses_a_second_lock(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let folder = tempfile::tempdir().expect("temp dir");
        let file = folder.path().join("state.json");
        std::fs::write(&file, "{}").expect("write");
        let result = tool(&pihost, "lockfile_cycle", json!({ "file": file })).await;
        assert_eq!(
            result["details"]["steps"],
            json!([
                "locked true",
                "second lock ELOCKED",
                "unlocked true",
                "lockSync true",
                "second lockSync ELOCKED",
                "unlockSync true",
                "unlock again ENOTACQUIRED"
            ]),
            "{result:#}"
        );
        let left: Vec<_> = std::fs::read_dir(folder.path())
            .expect("read dir")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        assert_eq!(left, ["state.json"], "no lock left behind");
    });
}

fn the_mcp_sdk_client_calls_a_stdio_server(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let result = tool(&pihost, "mcp_count_words", json!({ "text": "the quick  brown fox" })).await;
        assert_eq!(text_of(&result), "4 words", "{result:#}");
        let details = &result["details"];
        assert_eq!(details["server"], "pihost-word-counter 1.0.0");
        assert_eq!(
            details["tools"],
            json!([{
                "name": "count_words",
                "description": "Count the words of a text",
                "input": ["minLength", "text"],
                "required": ["text"]
            }])
        );
        assert_eq!(details["isError"], false);
        assert_eq!(
            details["serverOutlivedClose"], false,
            "closing the client ended the server"
        );
    });
}

fn glob_matches_patterns_with_ignore_and_dot(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let folder = tempfile::tempdir().expect("temp dir");
        for file in [
            "src/a.ts",
            "src/b.js",
            "src/nested/c.ts",
            "src/.cache/f.ts",
            ".hidden/d.ts",
            "node_modules/x/e.ts",
            ".env",
            "README.md",
        ] {
            let path = folder.path().join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "x").expect("write");
        }
        let args = |dot: bool| {
            json!({
                "cwd": folder.path(),
                "patterns": ["**/*.ts", "*.md"],
                "ignore": ["node_modules/**"],
                "dot": dot,
            })
        };
        let plain = tool(&pihost, "glob_files", args(false)).await;
        assert_eq!(
            plain["details"],
            json!({ "matches": ["README.md", "src/a.ts", "src/nested/c.ts"], "sameSync": true })
        );
        let dotted = tool(&pihost, "glob_files", args(true)).await;
        assert_eq!(
            dotted["details"],
            json!({
                "matches": [".hidden/d.ts", "README.md", "src/.cache/f.ts", "src/a.ts", "src/nested/c.ts"],
                "sameSync": true
            })
        );
    });
}

fn jsdiff_makes_reads_and_applies_a_patch(isolated: bool) {
    runtime().block_on(async {
        let pihost = loaded(isolated).await;
        let result = tool(
            &pihost,
            "diff_patch",
            json!({
                "fileName": "notes.txt",
                "oldText": "one\ntwo\nthree\nfour\nfive\nsix\nseven\n",
                "newText": "one\n2\nthree\nfour\nfive\nsix\nseven\neight\n",
                "unrelated": "alpha\nbeta\n",
            }),
        )
        .await;
        assert_eq!(
            text_of(&result),
            "===================================================================\n\
             --- a/notes.txt\n\
             +++ b/notes.txt\n\
             @@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n\
             @@ -7,1 +7,2 @@\n seven\n+eight\n"
        );
        assert_eq!(
            result["details"],
            json!({
                "hunks": ["@@ -1,3 +1,3 @@ 4 lines", "@@ -7,1 +7,2 @@ 2 lines"],
                "appliedMatches": true,
                "misfit": false
            })
        );
    });
}

/// Each check twice: in the session's runtime, and isolated by a policy.
macro_rules! in_both_runtimes {
    ($($check:ident),* $(,)?) => {
        mod in_the_session {
            $(#[test]
            fn $check() {
                super::$check(false)
            })*
        }
        mod isolated_by_a_policy {
            $(#[test]
            fn $check() {
                super::$check(true)
            })*
        }
    };
}

in_both_runtimes!(
    npm_packages_do_their_work_inside_pihost,
    chokidar_reports_what_changes_in_a_folder_to_a_tool,
    express_serves_pages_that_fetch_reads_back,
    vscode_jsonrpc_talks_over_a_unix_socket,
    async_local_storage_follows_axios_requests,
    proper_lockfile_locks_and_refuses_a_second_lock,
    the_mcp_sdk_client_calls_a_stdio_server,
    glob_matches_patterns_with_ignore_and_dot,
    jsdiff_makes_reads_and_applies_a_patch,
);
