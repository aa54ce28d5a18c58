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

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio")
}

async fn started(project: &Project) -> Pihost {
    let path = project.write("ext.ts", EXTENSION);
    let pihost = Pihost::start(project.options()).await.expect("start");
    let report = pihost.load(&[path]).await.expect("load");
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    pihost
        .bind(Arc::new(RecordingHost::new()), &HostState::default())
        .await
        .expect("bind");
    pihost
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
