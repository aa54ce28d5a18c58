//! The Send + Clone handle: an engine on its own thread, driven from any
//! task, with calls that overlap inside the isolate.

mod support;

use std::sync::Arc;
use std::time::Duration;

use pihost::host::{HostState, RecordingHost};
use pihost::{Pihost, PihostError};
use serde_json::json;
use support::*;

const EXTENSION: &str = r#"
export default function (pi) {
  pi.registerTool({ name: "wait", parameters: { type: "object" },
    execute: (toolCallId, args, signal) => new Promise((resolve) => {
      signal.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "aborted" }], details: {} }));
    }) });
  pi.on("tool_call", async (event) => (event.toolName === "bash" ? { block: true, reason: "no bash" } : undefined));
  pi.on("agent_start", async () => { Promise.reject(new Error("nobody awaits this")); });
  pi.on("turn_start", async () => { setTimeout(() => { throw new Error("timer threw"); }, 0); });
}
"#;

async fn started(project: &Project) -> Pihost {
    loaded_and_bound(project, project.write("ext.ts", EXTENSION)).await
}

#[test]
fn the_handle_is_send_and_clone_and_calls_overlap() {
    fn assert_send_clone<T: Send + Sync + Clone + 'static>() {}
    assert_send_clone::<Pihost>();
    let project = Project::new();
    runtime().block_on(async {
        let pihost = started(&project).await;
        let running = tokio::spawn({
            let pihost = pihost.clone();
            async move { pihost.execute_tool("wait", "call-1", &json!({}), None).await }
        });
        // While the tool waits, the isolate still answers other calls.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let blocked = pihost
            .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "2", "input": {} }))
            .await;
        assert_eq!(
            blocked.expect("emit"),
            Some(json!({ "block": true, "reason": "no bash" }))
        );
        pihost.abort_tool("call-1").await.expect("abort");
        let result = running.await.expect("join").expect("tool");
        assert_eq!(
            result,
            Some(json!({ "content": [{ "type": "text", "text": "aborted" }], "details": {} }))
        );
    });
}

#[test]
fn uncaught_errors_are_reported_and_the_host_keeps_running() {
    let project = Project::new();
    runtime().block_on(async {
        let pihost = started(&project).await;
        let mut errors = pihost.errors();
        pihost.emit(&json!({ "type": "agent_start" })).await.expect("emit");
        pihost
            .emit(&json!({ "type": "turn_start", "turnIndex": 0 }))
            .await
            .expect("emit");
        let mut seen = Vec::new();
        while seen.len() < 2 {
            let error = tokio::time::timeout(Duration::from_secs(5), errors.recv())
                .await
                .expect("an error arrives")
                .expect("stream open");
            seen.push((error.event, error.error));
        }
        seen.sort();
        assert_eq!(
            seen,
            [
                ("uncaughtException".to_string(), "timer threw".to_string()),
                ("unhandledRejection".to_string(), "nobody awaits this".to_string()),
            ]
        );
        let still = pihost
            .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "3", "input": {} }))
            .await;
        assert!(still.expect("emit").is_some());
    });
}

#[test]
fn a_tool_that_never_finishes_is_bounded_by_the_dispatch_timeout() {
    let project = Project::new();
    runtime().block_on(async {
        let pihost = started(&project).await;
        pihost.set_dispatch_timeout(Some(Duration::from_millis(150)));
        let error = pihost
            .execute_tool("wait", "call-9", &json!({}), None)
            .await
            .expect_err("bounded");
        assert!(
            matches!(error, PihostError::Timeout { .. } | PihostError::NeverSettles { .. }),
            "{error}"
        );
        pihost.set_dispatch_timeout(None);
        assert!(
            pihost
                .registrations()
                .await
                .expect("still serving")
                .tools
                .iter()
                .any(|tool| tool.name == "wait")
        );
    });
}

fn versioned(version: &str) -> String {
    format!(
        r#"
export default function (pi) {{
  pi.registerFlag("mode", {{ type: "string", default: "default-{version}" }});
  pi.on("session_start", async (event) => pi.sendMessage({{ customType: "start", content: "{version}:" + event.reason }}));
  pi.on("session_shutdown", async (event) => pi.sendMessage({{ customType: "shutdown", content: "{version}:" + event.reason }}));
  pi.registerCommand("which", {{ handler: async () => {{
    let stale = "not tried";
    if (globalThis.previousPi) {{ try {{ globalThis.previousPi.getFlag("mode"); stale = "worked"; }} catch (error) {{ stale = error.message; }} }}
    return {{ version: "{version}", mode: pi.getFlag("mode"), stale }};
  }} }});
  globalThis.previousPi ??= pi;
}}
"#
    )
}

#[test]
fn h1_h2_reload_swaps_the_extensions_keeps_flags_and_stales_the_old_api() {
    let project = Project::new();
    let path = project.write("versioned.ts", &versioned("v1"));
    runtime().block_on(async {
        let pihost = Pihost::start(project.options()).await.expect("start");
        pihost.load(std::slice::from_ref(&path)).await.expect("load");
        let host = Arc::new(RecordingHost::new());
        pihost.bind(host.clone(), &HostState::default()).await.expect("bind");
        pihost.set_flag("mode", &json!("chosen")).await.expect("flag");
        assert_eq!(
            pihost.run_command("which", "").await.expect("v1"),
            Some(json!({ "version": "v1", "mode": "chosen", "stale": "worked" }))
        );
        project.write("versioned.ts", &versioned("v2"));
        let report = pihost.reload(std::slice::from_ref(&path)).await.expect("reload");
        assert!(report.errors.is_empty(), "{:#?}", report.errors);
        let result = pihost.run_command("which", "").await.expect("v2").expect("a result");
        assert_eq!(result["version"], "v2");
        assert_eq!(result["mode"], "chosen", "flag values survive a reload");
        assert!(
            result["stale"]
                .as_str()
                .unwrap_or_default()
                .starts_with("This extension ctx is stale"),
            "{result}"
        );
        let contents: Vec<String> = host
            .calls()
            .into_iter()
            .filter_map(|call| match call {
                pihost::host::RecordedCall::Notification(pihost::host::HostNotification::SendMessage {
                    message,
                    ..
                }) => message["content"].as_str().map(str::to_string),
                _ => None,
            })
            .collect();
        assert_eq!(contents, ["v1:reload", "v2:reload"]);
    });
}

#[test]
fn shutdown_stops_the_engine_and_later_calls_say_so() {
    let project = Project::new();
    runtime().block_on(async {
        let pihost = started(&project).await;
        let other = pihost.clone();
        pihost.shutdown().await.expect("shutdown");
        let error = other.registrations().await.expect_err("stopped");
        assert!(matches!(error, PihostError::Stopped), "{error}");
        assert_eq!(error.to_string(), "the pihost engine has stopped");
    });
}
