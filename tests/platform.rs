//! The Node platform (issue 4), checked the only way that settles what
//! "behaves like Node" means: each snippet in tests/platform/ runs in Node 22
//! (the reference install's) and inside pihost (as a tool of an extension),
//! and both must produce the same JSON.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use support::*;

fn in_node(node: &Path, snippet: &Path, context: &Value, envs: &[(&str, &str)]) -> Value {
    let output = Command::new(node)
        .arg(project_root().join("tests/platform/run-in-node.mjs"))
        .arg(snippet)
        .arg(context.to_string())
        .envs(envs.iter().copied())
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "node failed on {}: {}",
        snippet.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("node printed JSON")
}

fn in_pihost(project: &Project, snippet: &Path, context: &Value) -> Value {
    let wrapper = format!(
        r#"import {{ run }} from {snippet:?};
export default function (pi) {{
  pi.registerTool({{ name: "snippet", parameters: {{ type: "object" }}, execute: async () => {{
    const result = await run({context});
    return {{ content: [{{ type: "text", text: JSON.stringify(result) }}], details: {{}} }};
  }} }});
}}
"#,
        snippet = snippet.display().to_string(),
    );
    let extension = project.write("snippet-runner.ts", &wrapper);
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["tool", "snippet", "--timeout-ms", "20000", "-e", &extension])
        .current_dir(project.root.path())
        .output()
        .expect("pihost runs");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "pihost printed no JSON for {}: {}",
            snippet.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert!(
        printed.get("error").is_none() && printed["loadErrors"] == json!([]),
        "pihost failed on {}: {printed:#}",
        snippet.display()
    );
    let text = printed["result"]["content"][0]["text"]
        .as_str()
        .expect("the snippet's JSON");
    serde_json::from_str(text).expect("the snippet returned JSON")
}

/// Runs `tests/platform/<name>.mjs` on both sides and requires the same result.
fn same_as_node(name: &str, extra: Value) {
    same_as_node_with_env(name, extra, &[]);
}

/// [`same_as_node`] with extra environment variables for Node.
fn same_as_node_with_env(name: &str, extra: Value, node_envs: &[(&str, &str)]) {
    let Some(reference) = reference_dir() else {
        return;
    };
    let node = reference.join("node_modules/.bin/node");
    let snippet = project_root().join(format!("tests/platform/{name}.mjs"));
    let node_project = Project::new();
    let pihost_project = Project::new();
    let context = |project: &Project| {
        let mut context = json!({ "dir": project.root.path().canonicalize().expect("temp dir") });
        if let (Value::Object(context), Value::Object(extra)) = (&mut context, &extra) {
            context.extend(extra.clone());
        }
        context
    };
    let expected = in_node(&node, &snippet, &context(&node_project), node_envs);
    let actual = in_pihost(&pihost_project, &snippet, &context(&pihost_project));
    assert!(
        expected == actual,
        "{name}: pihost differs from Node 22\n{}",
        json_diff(&expected, &actual)
    );
}

#[test]
fn crypto_hashes_hmacs_and_randomness_match_node() {
    same_as_node("crypto", json!({}));
}

#[test]
fn zlib_round_trips_and_errors_match_node() {
    same_as_node("zlib", json!({}));
}

#[test]
fn child_process_streams_events_and_exec_match_node() {
    same_as_node("child_process", json!({}));
}

#[test]
fn globals_look_like_node_and_the_engine_is_hidden() {
    same_as_node("globals", json!({}));
}

#[test]
fn npm_packages_resolve_and_link_as_in_node() {
    same_as_node("packages", json!({}));
}

#[test]
fn util_format_inspect_promisify_and_types_match_node() {
    same_as_node("util", json!({}));
}

#[test]
fn streams_readline_and_string_decoder_match_node() {
    same_as_node("streams", json!({}));
}

#[test]
fn fs_operations_and_their_errors_match_node() {
    same_as_node("fs", json!({}));
}

#[test]
fn fs_watch_watch_file_and_promise_watch_match_node() {
    same_as_node("watch", json!({}));
}

#[test]
fn web_globals_events_abort_url_and_base64_match_node() {
    same_as_node("web", json!({}));
}

#[test]
fn text_encoding_and_decoding_match_node() {
    same_as_node("encoding", json!({}));
}

/// Intl in English (js/runtime/intl.js): Node's default locale follows the
/// environment, so Node runs in en_US; pihost's is always en-US.
#[test]
fn intl_numbers_segments_dates_and_plurals_match_node_in_english() {
    same_as_node_with_env("intl", json!({}), &[("LC_ALL", "en_US.UTF-8")]);
}

#[test]
fn http_and_https_clients_servers_and_agents_match_node() {
    same_as_node("http", json!({}));
}

#[test]
fn net_tcp_and_unix_sockets_tls_and_dns_match_node() {
    same_as_node("net", json!({}));
}

#[test]
fn async_local_storage_async_resource_and_diagnostics_channel_match_node() {
    same_as_node("async_context", json!({}));
}

#[test]
fn vm_contexts_and_scripts_match_node() {
    same_as_node("vm", json!({}));
}

#[test]
fn fs_file_descriptors_file_handles_and_ranged_streams_match_node() {
    same_as_node("fs_handles", json!({}));
}

#[test]
fn blob_file_form_data_and_their_fetch_bodies_match_node() {
    same_as_node("blob_formdata", json!({}));
}

#[test]
fn websocket_against_a_local_server_matches_node() {
    same_as_node("websocket", json!({}));
}

#[test]
fn zlib_brotli_and_streams_match_node() {
    same_as_node("zlib_streams", json!({}));
}

#[test]
fn crypto_ciphers_keys_signatures_kdfs_and_subtle_match_node() {
    same_as_node("crypto_keys", json!({}));
}

#[test]
fn spawn_into_a_file_and_exclusive_lock_files_match_node() {
    same_as_node("spawn_errors", json!({}));
}

/// New vm contexts need a V8 startup snapshot that pihost's runtime does
/// not have (docs/engine-notes.md, note 22): deno_node's op unwrapped the
/// missing snapshot and aborted the host. They throw an error an extension
/// can catch instead, and the runtime goes on.
#[test]
fn vm_new_contexts_throw_instead_of_ending_the_host() {
    let project = Project::new();
    let extension = project.write(
        "contexts.ts",
        r#"import vm from "node:vm";
export default function (pi) {
  pi.registerTool({ name: "contexts", parameters: { type: "object" }, execute: async () => {
    const attempts = [() => vm.createContext({}), () => vm.runInNewContext("1 + 1"), () => new vm.Script("1").runInNewContext({})];
    const errors = attempts.map((attempt) => {
      try {
        attempt();
        return "made a context";
      } catch (error) {
        return [error.name, error.message.startsWith("pihost: node:vm cannot make new contexts")];
      }
    });
    return { content: [{ type: "text", text: JSON.stringify({ errors, after: vm.runInThisContext("6 * 7") }) }], details: {} };
  } });
}
"#,
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["tool", "contexts", "--timeout-ms", "20000", "-e", &extension])
        .current_dir(project.root.path())
        .output()
        .expect("pihost runs");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "pihost printed no JSON (it ended?): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let text = printed["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("the tool's text: {printed:#}"));
    let result: Value = serde_json::from_str(text).expect("JSON");
    assert_eq!(
        result,
        json!({ "errors": [["Error", true], ["Error", true], ["Error", true]], "after": 42 })
    );
}

/// Node ends the process on `process.exit()`; pihost must not let an
/// extension end the host, so it throws instead and the tool's caller sees
/// it (caught, or as the tool's error) while the runtime goes on.
#[test]
fn process_exit_in_an_extension_throws_and_the_host_goes_on() {
    let project = Project::new();
    let extension = project.write(
        "exits.ts",
        r#"export default function (pi) {
  pi.registerTool({ name: "caught", parameters: { type: "object" }, execute: async () => {
    let caught;
    try {
      process.exit(3);
    } catch (error) {
      caught = { name: error.name, exitCode: error.exitCode, message: error.message };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { content: [{ type: "text", text: JSON.stringify({ caught, after: "still running" }) }], details: {} };
  } });
  pi.registerTool({ name: "uncaught", parameters: { type: "object" }, execute: async () => {
    process.exit();
    return { content: [{ type: "text", text: "not reached" }], details: {} };
  } });
}
"#,
    );
    let run = |tool: &str| -> (Value, std::process::ExitStatus) {
        let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
            .args(["tool", tool, "--timeout-ms", "20000", "-e", &extension])
            .current_dir(project.root.path())
            .output()
            .expect("pihost runs");
        let printed = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
            panic!(
                "pihost printed no JSON for {tool}: {}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
        (printed, output.status)
    };
    let (caught, _) = run("caught");
    let text = caught["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("the caught tool's text: {caught:#}"));
    let result: Value = serde_json::from_str(text).expect("JSON");
    assert_eq!(
        result,
        json!({
            "caught": {
                "name": "ProcessExit",
                "exitCode": 3,
                "message": "pihost: process.exit(3) was called; extensions cannot end the host process",
            },
            "after": "still running",
        })
    );
    let (uncaught, status) = run("uncaught");
    assert!(
        uncaught.to_string().contains("process.exit(0) was called"),
        "the tool's error names process.exit: {uncaught:#}"
    );
    assert_ne!(
        status.code(),
        Some(0),
        "a tool that failed is reported as failed: {uncaught:#}"
    );
}

/// A small HTTP/1.1 server for the fetch snippet; each side of the
/// comparison gets its own.
fn serve_http() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            std::thread::spawn(move || answer(stream));
        }
    });
    port
}

fn answer(mut stream: TcpStream) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut headers = serde_json::Map::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.trim().split_once(':') {
            headers.insert(name.trim().to_lowercase(), json!(value.trim()));
        }
    }
    let length = headers
        .get("content-length")
        .and_then(Value::as_str)
        .and_then(|length| length.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();
    // Each head goes out in one write: `write!` sends every formatted piece
    // on its own, and Node's HTTP parser, given a status line cut after the
    // code, reports an empty statusText (the test then failed now and then).
    let respond = |stream: &mut TcpStream, status: &str, extra: &str, body: &str| {
        let response = format!(
            "HTTP/1.1 {status}\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(response.as_bytes());
    };
    let chunked = |stream: &mut TcpStream, pieces: &[(&str, u64)]| {
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
        );
        for (piece, pause_ms) in pieces {
            std::thread::sleep(Duration::from_millis(*pause_ms));
            if write!(stream, "{:x}\r\n{piece}\r\n", piece.len()).is_err() || stream.flush().is_err() {
                return;
            }
        }
        let _ = write!(stream, "0\r\n\r\n");
    };
    match path.as_str() {
        "/text" => respond(
            &mut stream,
            "200 OK",
            "content-type: text/plain; charset=utf-8\r\n",
            "hello",
        ),
        "/json" => respond(
            &mut stream,
            "200 OK",
            "content-type: application/json\r\n",
            r#"{"answer":42}"#,
        ),
        "/stream" => chunked(&mut stream, &[("one ", 0), ("two ", 30), ("three", 30)]),
        "/slow" => chunked(&mut stream, &[("first", 0), ("second", 2000)]),
        "/redirect" => respond(&mut stream, "302 Found", "location: /text\r\n", ""),
        "/echo" => {
            let echoed = json!({
                "method": method,
                "body": String::from_utf8_lossy(&body),
                "test": headers.get("x-test"),
                "contentType": headers.get("content-type"),
                "accept": headers.get("accept"),
                "userAgent": headers.get("user-agent"),
            });
            respond(
                &mut stream,
                "200 OK",
                "content-type: application/json\r\n",
                &echoed.to_string(),
            );
        }
        _ => respond(&mut stream, "404 Not Found", "content-type: text/plain\r\n", "not here"),
    }
}

#[test]
fn fetch_against_a_local_server_matches_node() {
    let Some(reference) = reference_dir() else {
        return;
    };
    let node = reference.join("node_modules/.bin/node");
    let snippet = project_root().join("tests/platform/fetch.mjs");
    let expected = in_node(&node, &snippet, &json!({ "port": serve_http() }), &[]);
    let actual = in_pihost(&Project::new(), &snippet, &json!({ "port": serve_http() }));
    assert!(
        expected == actual,
        "fetch: pihost differs from Node 22\n{}",
        json_diff(&expected, &actual)
    );
}

#[test]
fn os_process_chdir_and_small_modules_match_node() {
    same_as_node("system", json!({}));
}

#[test]
fn worker_threads_messages_ports_errors_exit_and_terminate_match_node() {
    same_as_node("workers", json!({}));
}

/// A response whose body is never read holds its request; once the body is
/// garbage, pihost drops the request and the server sees the connection end.
#[test]
fn an_unread_fetch_body_is_released_when_it_is_collected() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let (closed, seen_closed) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Some(Ok(mut stream)) = listener.incoming().next() else {
            return;
        };
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
            line.clear();
        }
        let _ = write!(stream, "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
        // An endless body: writing fails once the client lets go.
        for _ in 0..400 {
            if write!(stream, "5\r\nchunk\r\n").is_err() || stream.flush().is_err() {
                let _ = closed.send(std::time::Instant::now());
                return;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    });
    let project = Project::new();
    let extension = project.write(
        "unread.ts",
        &format!(
            r#"export default function (pi) {{
  pi.registerTool({{ name: "unread", parameters: {{ type: "object" }}, execute: async () => {{
    let response = await fetch("http://127.0.0.1:{port}/");
    const status = response.status;
    response = null;
    for (let round = 0; round < 10; round += 1) {{
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }}
    // Still running: the connection must already be gone, not closed by exit.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return {{ content: [{{ type: "text", text: String(status) }}], details: {{}} }};
  }} }});
}}
"#
        ),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["tool", "unread", "-e", &extension])
        .output()
        .expect("pihost runs");
    let exited = std::time::Instant::now();
    let printed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(printed["result"]["content"][0]["text"], "200", "{printed:#}");
    let closed_at = seen_closed
        .recv_timeout(Duration::from_secs(5))
        .expect("the connection ended");
    assert!(
        exited.duration_since(closed_at) > Duration::from_millis(700),
        "the connection ended only when pihost exited, not when the response was collected"
    );
}

#[test]
fn uncaught_errors_reach_the_extensions_process_listeners_as_in_node() {
    same_as_node("uncaught", json!({}));
}
