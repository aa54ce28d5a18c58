//! Typed dispatch per event family through the handle (E3–E11), with unknown
//! fields kept.

mod support;

use std::sync::Arc;

use pihost::Pihost;
use pihost::events::{InputEvent, InputResult, ToolCallEvent, ToolResultEvent};
use pihost::host::{HostState, RecordingHost};
use serde_json::json;
use support::*;

const EXTENSION: &str = r#"
export default function (pi) {
  pi.on("tool_call", async (event) => (event.future === "kept" ? { block: true, reason: "saw the new field" } : undefined));
  pi.on("tool_result", async (event) => ({ content: [{ type: "text", text: event.content[0].text + "!" }] }));
  pi.on("input", async (event) => (event.text.startsWith("/skip") ? { action: "handled" } : { action: "transform", text: event.text.trim() }));
  pi.on("context", async (event) => { event.messages.push({ role: "user", content: "appended", timestamp: 9 }); });
  pi.on("before_provider_headers", async (event) => { event.headers["x-extension"] = "yes"; return { ignored: true }; });
  pi.on("resources_discover", async () => ({ skillPaths: ["skills/a.md"] }));
  pi.on("turn_end", async (event) => ({ entries: [...event.entries, { type: "note", text: "from extension" }], continue: true }));
}
"#;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio")
}

#[test]
fn e3_to_e11_typed_dispatches_return_the_merged_results() {
    let project = Project::new();
    let path = project.write("typed.ts", EXTENSION);
    runtime().block_on(async {
        let pihost = Pihost::start(project.options()).await.expect("start");
        pihost.load(&[path]).await.expect("load");
        let host = Arc::new(RecordingHost::new());
        host.answer("buildBoundaryContext", json!({ "checked": true }));
        pihost.bind(host, &HostState::default()).await.expect("bind");

        let mut call = ToolCallEvent {
            tool_name: "bash".into(),
            tool_call_id: "1".into(),
            input: json!({}),
            ..Default::default()
        };
        call.extra.insert("future".into(), json!("kept"));
        let blocked = pihost
            .emit_tool_call(&call)
            .await
            .expect("tool_call")
            .expect("a result");
        assert_eq!(
            (blocked.block, blocked.reason.as_deref()),
            (Some(true), Some("saw the new field"))
        );

        let result = ToolResultEvent {
            tool_name: "bash".into(),
            tool_call_id: "1".into(),
            content: vec![json!({ "type": "text", "text": "out" })],
            structured_content: Some(json!({ "a": 1 })),
            ..Default::default()
        };
        let patch = pihost
            .emit_tool_result(&result)
            .await
            .expect("tool_result")
            .expect("a patch");
        assert_eq!(patch.content, Some(vec![json!({ "type": "text", "text": "out!" })]));
        assert_eq!(
            patch.structured_content, None,
            "new content without structured content drops it (E4)"
        );

        let input = |text: &str| InputEvent {
            text: text.into(),
            source: Some("interactive".into()),
            ..Default::default()
        };
        assert_eq!(
            pihost.emit_input(&input("  hello  ")).await.expect("input"),
            InputResult::Transform {
                text: "hello".into(),
                images: None
            }
        );
        assert!(matches!(
            pihost.emit_input(&input("/skip")).await.expect("input"),
            InputResult::Handled { .. }
        ));

        let messages = vec![
            json!({ "role": "system", "content": "prompt", "timestamp": 0 }),
            json!({ "role": "user", "content": "hi", "timestamp": 1 }),
        ];
        let context = pihost.emit_context(&messages).await.expect("context");
        assert_eq!(context.len(), 3);
        assert_eq!(context[0]["role"], "system", "the system head is re-attached (E6)");
        assert_eq!(context[2]["content"], "appended");

        let headers = pihost
            .emit_before_provider_headers(&[("authorization".to_string(), "x".to_string())].into())
            .await
            .expect("headers");
        assert_eq!(headers.get("x-extension").map(String::as_str), Some("yes"));

        let resources = pihost
            .emit_resources_discover("/project", "startup")
            .await
            .expect("resources");
        assert_eq!(resources.skill_paths.len(), 1);
        assert_eq!(resources.skill_paths[0].path, "skills/a.md");
        assert!(resources.skill_paths[0].extension_path.ends_with("typed.ts"));

        let boundary = pihost
            .emit_boundary("turn_end", &json!({ "turnIndex": 0 }))
            .await
            .expect("boundary");
        assert!(boundary.valid && boundary.continue_);
        assert_eq!(
            boundary.entries,
            vec![json!({ "type": "note", "text": "from extension" })]
        );
        assert_eq!(boundary.context, json!({ "checked": true }));
    });
}

/// Context events cross as the host's JSON text, and an answer that is that
/// text again comes back as the host's own messages: whatever a handler does
/// (nothing, a deep edit in place, a new list) the host gets what pi's merge
/// rule answers, values that JSON writes differently in Rust and JavaScript
/// included.
#[test]
fn context_messages_come_back_as_the_handlers_left_them() {
    let project = Project::new();
    let path = project.write(
        "context.ts",
        r#"
export default function (pi) {
  pi.on("context", async (event) => {
    const target = event.messages.find((message) => message.content?.[0]?.text === "edit me");
    if (target) target.content[0].text = "edited";
    if (event.messages.some((message) => message.content === "drop the rest")) return { messages: event.messages.slice(0, 1) };
  });
  pi.on("before_provider_request", async (event) => {
    if (event.payload.edit) event.payload.messages[0].content = "edited";
    if (event.payload.replace) return { replaced: true };
  });
}
"#,
    );
    runtime().block_on(async {
        let pihost = loaded_and_bound(&project, path).await;
        let messages = vec![
            json!({ "role": "system", "content": "prompt", "timestamp": 0 }),
            json!({ "role": "user", "content": [{ "type": "text", "text": "quotes \" and \\ and \u{1f} and \u{2028} and é and 🦀" }], "timestamp": 1_700_000_000_000_u64 }),
            json!({ "role": "assistant", "content": [{ "type": "text", "text": "ok" }], "usage": { "cost": 0.1, "tiny": 1e-7, "big": 1e300, "negative": -3 }, "flags": [true, false, null] }),
            json!({ "role": "toolResult", "details": { "10": "ten", "9": "nine", "b": { "nested": [[], {}] } } }),
        ];

        let unchanged = pihost.emit_context(&messages).await.expect("context");
        assert_eq!(unchanged, messages, "no handler changed anything");

        let mut to_edit = messages.clone();
        to_edit.push(json!({ "role": "user", "content": [{ "type": "text", "text": "edit me" }] }));
        let edited = pihost.emit_context(&to_edit).await.expect("context");
        assert_eq!(edited.len(), to_edit.len());
        assert_eq!(edited[4]["content"][0]["text"], "edited", "an edit in place deep inside a message");
        assert_eq!(edited[..4], messages[..]);

        let mut to_drop = messages.clone();
        to_drop.push(json!({ "role": "user", "content": "drop the rest" }));
        let dropped = pihost.emit_context(&to_drop).await.expect("context");
        assert_eq!(dropped, messages[..2], "a new list, the system head put back (E6)");

        let event = json!({ "type": "context", "messages": messages, "unknown": "field" });
        let answered = pihost.emit(&event).await.expect("emit").expect("an answer");
        assert_eq!(answered, json!(messages), "the generic emit answers the same");

        let payload = json!({ "model": "m", "messages": messages, "temperature": 0.7 });
        let request = pihost.emit_before_provider_request(&payload).await.expect("request");
        assert_eq!(request, payload, "no handler changed the payload");
        let mut to_edit = payload.clone();
        to_edit["edit"] = json!(true);
        let edited = pihost.emit_before_provider_request(&to_edit).await.expect("request");
        assert_eq!(edited["messages"][0]["content"], "edited", "an edit in place (E8)");
        let mut to_replace = payload.clone();
        to_replace["replace"] = json!(true);
        let replaced = pihost.emit_before_provider_request(&to_replace).await.expect("request");
        assert_eq!(replaced, json!({ "replaced": true }), "a returned value replaces the payload (E8)");
    });
}

/// Without a handler that sees them, a context event's messages and a
/// provider request's payload come back as the host sent them.
#[test]
fn kept_fields_come_back_as_sent_without_handlers() {
    let project = Project::new();
    let path = project.write(
        "other.ts",
        "export default function (pi) { pi.on(\"tool_call\", async () => undefined); }",
    );
    runtime().block_on(async {
        let pihost = loaded_and_bound(&project, path).await;
        let messages = vec![json!({ "role": "user", "content": "hi", "timestamp": 1.0 })];
        assert_eq!(pihost.emit_context(&messages).await.expect("context"), messages);
        let payload = json!({ "messages": messages, "n": 1.0 });
        assert_eq!(
            pihost.emit_before_provider_request(&payload).await.expect("request"),
            payload
        );
    });
}
