//! The runner driven from Rust, as an embedder drives it: binding a `Host`,
//! dispatching events, tools and commands, the error stream, timeouts.

mod support;

use std::sync::Arc;
use std::time::Duration;

use pihost::host::{HostNotification, HostRequest, HostState, RecordedCall, RecordingHost};
use pihost::{Engine, PihostError};
use serde_json::json;
use support::*;

const EXTENSION: &str = r#"
export default function (pi) {
  pi.on("tool_call", async (event) => {
    if (event.input?.command === "explode") throw new Error("handler exploded");
    if (event.input?.command?.includes("rm -rf")) return { block: true, reason: "dangerous" };
  });
  pi.on("future_event", async (event, ctx) => {
    pi.sendMessage({ customType: "seen", content: JSON.stringify({ extra: event.extra, model: ctx.model?.id }) });
  });
  pi.on("agent_end", async () => { throw new Error("agent_end failed"); });
  pi.on("never_settles", () => new Promise(() => {}));
  pi.on("slow", () => new Promise((resolve) => setTimeout(resolve, 60_000)));
  pi.registerCommand("ask", { description: "asks the user", handler: async (args, ctx) => {
    const ok = await ctx.ui.confirm("Proceed?", args);
    pi.setActiveTools(["read"]);
    return { ok, hasUI: ctx.hasUI, active: pi.getActiveTools() };
  } });
  pi.registerTool({ name: "count", label: "Count", description: "counts up", parameters: { type: "object", properties: {} },
    execute: async (toolCallId, args, signal, onUpdate, ctx) => {
      for (let i = 1; i <= 3; i++) onUpdate?.({ content: [{ type: "text", text: String(i) }] });
      return { content: [{ type: "text", text: "done" }], details: { toolCallId, cwdKnown: typeof ctx.cwd === "string" } };
    } });
  pi.registerProvider("late-provider", { baseUrl: "http://localhost:9" });
}
"#;

async fn loaded_engine(project: &Project) -> Engine {
    engine_with(project, "ext.ts", EXTENSION).await
}

/// An engine that loaded the one extension `source`, written as `name`, without errors.
async fn engine_with(project: &Project, name: &str, source: &str) -> Engine {
    let path = project.write(name, source);
    let mut engine = Engine::new(project.options()).await.expect("engine");
    let found = engine.discover(&[path]);
    let report = engine.load(&found, false).await.expect("load");
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    engine
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio")
}

#[test]
fn r1_a7_binding_flushes_providers_and_actions_reach_the_host() {
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = loaded_engine(&project).await;
        let host = Arc::new(RecordingHost::new());
        host.answer("ui.confirm", json!(true));
        let state = HostState {
            model: Some(json!({ "id": "model-a" })),
            active_tools: Some(vec!["bash".to_string()]),
            has_ui: Some(true),
            ..HostState::default()
        };
        engine.bind(host.clone(), &state).await.expect("bind");
        let result = engine.run_command("ask", "really?").await.expect("command");
        assert_eq!(result, Some(json!({ "ok": true, "hasUI": true, "active": ["read"] })));
        let calls = host.calls();
        assert_eq!(
            calls[0],
            RecordedCall::Provider(pihost::host::ProviderChange::RegisterProvider {
                name: "late-provider".to_string(),
                config: json!({ "baseUrl": "http://localhost:9" }),
            })
        );
        assert_eq!(
            calls[1],
            RecordedCall::Request(HostRequest::UiConfirm {
                title: "Proceed?".to_string(),
                message: Some("really?".to_string()),
                opts: None,
            })
        );
        assert_eq!(
            calls[2],
            RecordedCall::Notification(HostNotification::SetActiveTools {
                tool_names: vec!["read".to_string()],
            })
        );
    });
}

#[test]
fn e3_tool_call_blocks_and_a_throwing_handler_rejects_the_dispatch() {
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = loaded_engine(&project).await;
        engine.bind(Arc::new(RecordingHost::new()), &HostState::default()).await.expect("bind");
        let blocked = engine
            .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "rm -rf /" } }))
            .await
            .expect("emit");
        assert_eq!(blocked, Some(json!({ "block": true, "reason": "dangerous" })));
        let allowed = engine
            .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "2", "input": { "command": "ls" } }))
            .await
            .expect("emit");
        assert_eq!(allowed, None);
        let error = engine
            .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "3", "input": { "command": "explode" } }))
            .await
            .expect_err("a throwing tool_call handler rejects");
        assert!(matches!(&error, PihostError::Extension { message, .. } if message == "handler exploded"), "{error:?}");
    });
}

#[test]
fn e2_r6_handler_errors_arrive_on_the_error_stream_and_unknown_events_pass_through() {
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = loaded_engine(&project).await;
        let mut errors = engine.take_error_stream().expect("error stream");
        let host = Arc::new(RecordingHost::new());
        let state = HostState {
            model: Some(json!({ "id": "model-b" })),
            ..HostState::default()
        };
        engine.bind(host.clone(), &state).await.expect("bind");
        assert_eq!(
            engine
                .emit(&json!({ "type": "agent_end", "messages": [] }))
                .await
                .expect("emit"),
            None
        );
        let error = errors.try_recv().expect("an error was reported");
        assert_eq!(
            (error.event.as_str(), error.error.as_str()),
            ("agent_end", "agent_end failed")
        );
        assert!(error.extension_path.ends_with("ext.ts"));
        engine
            .emit(&json!({ "type": "future_event", "extra": { "kept": [1, 2] } }))
            .await
            .expect("emit");
        let calls = host.calls();
        let RecordedCall::Notification(HostNotification::SendMessage { message, .. }) = &calls[calls.len() - 1] else {
            panic!("expected a sendMessage, got {calls:#?}");
        };
        assert_eq!(
            message["content"],
            json!(r#"{"extra":{"kept":[1,2]},"model":"model-b"}"#)
        );
    });
}

#[test]
fn w1_tools_run_with_their_own_context_and_stream_updates() {
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = loaded_engine(&project).await;
        engine.bind(Arc::new(RecordingHost::new()), &HostState::default()).await.expect("bind");
        let (sender, mut updates) = tokio::sync::mpsc::unbounded_channel();
        let result = engine.execute_tool("count", "call-7", &json!({}), Some(sender)).await.expect("tool");
        assert_eq!(
            result,
            Some(json!({ "content": [{ "type": "text", "text": "done" }], "details": { "toolCallId": "call-7", "cwdKnown": true } }))
        );
        let mut seen = Vec::new();
        while let Ok(update) = updates.try_recv() {
            seen.push(update["content"][0]["text"].as_str().unwrap_or_default().to_string());
        }
        assert_eq!(seen, ["1", "2", "3"]);
        let missing = engine.execute_tool("nope", "call-8", &json!({}), None).await.expect_err("unknown tool");
        assert_eq!(missing.to_string(), "Tool \"nope\" is not registered by any extension");
    });
}

#[test]
fn a_handler_that_never_settles_fails_at_once_and_a_slow_one_is_bounded_by_the_timeout() {
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = loaded_engine(&project).await;
        engine.bind(Arc::new(RecordingHost::new()), &HostState::default()).await.expect("bind");
        engine.set_dispatch_timeout(Some(Duration::from_millis(200)));
        let mut errors = engine.take_error_stream().expect("the error stream");
        // Nothing could ever settle this handler: it fails at once, not after
        // the timeout, and as any handler error of a generic event (E2) it is
        // reported, naming its extension, and the dispatch goes on.
        let result = engine.emit(&json!({ "type": "never_settles" })).await.expect("the dispatch goes on");
        assert_eq!(result, None);
        let reported = errors.try_recv().expect("the handler's failure is reported");
        assert_eq!(reported.event, "never_settles");
        assert!(
            reported.error.contains("never settled") && reported.error.contains("nothing was left that could settle it"),
            "{reported:?}"
        );
        assert!(reported.extension_path.ends_with(".ts"), "{reported:?}");
        // A pending timer could settle this one: the embedder's timeout bounds it.
        let error = engine.emit(&json!({ "type": "slow" })).await.expect_err("times out");
        assert_eq!(error.to_string(), "emit(slow) did not settle within 200 ms");
        // The engine is still usable afterwards.
        let blocked = engine
            .emit(&json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "9", "input": { "command": "rm -rf /" } }))
            .await
            .expect("emit after a timeout");
        assert_eq!(blocked, Some(json!({ "block": true, "reason": "dangerous" })));
    });
}

#[test]
fn r4_without_a_ui_prompts_answer_like_headless_pi() {
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = loaded_engine(&project).await;
        engine
            .bind(Arc::new(pihost::host::HeadlessHost), &HostState::default())
            .await
            .expect("bind");
        let result = engine.run_command("ask", "").await.expect("command");
        assert_eq!(result, Some(json!({ "ok": false, "hasUI": false, "active": ["read"] })));
    });
}

#[test]
fn n2_commands_with_one_name_get_invocation_names() {
    let project = Project::new();
    let first = project.write(
        "a.ts",
        "export default (pi) => pi.registerCommand('deploy', { handler: async () => 'a' });\n",
    );
    let second = project.write(
        "b.ts",
        "export default (pi) => pi.registerCommand('deploy', { handler: async () => 'b' });\n",
    );
    runtime().block_on(async {
        let mut engine = Engine::new(project.options()).await.expect("engine");
        let found = engine.discover(&[first, second]);
        engine.load(&found, false).await.expect("load");
        let names: Vec<String> = engine
            .registrations()
            .await
            .expect("registrations")
            .commands
            .into_iter()
            .map(|command| command.invocation_name)
            .collect();
        assert_eq!(names, ["deploy:1", "deploy:2"]);
        assert_eq!(engine.run_command("deploy:2", "").await.expect("run"), Some(json!("b")));
        let unknown = engine.run_command("deploy", "").await.expect_err("ambiguous name");
        assert_eq!(unknown.to_string(), "Unknown command: /deploy");
    });
}

/// pi's session reports, after session_start, each MCP server an extension
/// registered that no loaded extension connects (none handles
/// `mcp_servers_change`); the host's session_start is that moment in
/// pihost, whether or not any extension handles session_start itself.
#[test]
fn a_registered_mcp_server_nothing_connects_is_reported_after_session_start() {
    let project = Project::new();
    let provider = project.write(
        "provider.ts",
        r#"export default function (pi) { pi.registerMcpServer("notes", { command: "notes-server" }); }"#,
    );
    let connector = project.write(
        "connector.ts",
        r#"export default function (pi) { pi.on("mcp_servers_change", async () => {}); }"#,
    );
    runtime().block_on(async {
        for (paths, reported) in [(vec![provider.clone()], true), (vec![provider.clone(), connector.clone()], false)] {
            let mut engine = Engine::new(project.options()).await.expect("engine");
            let found = engine.discover(&paths);
            engine.load(&found, false).await.expect("load");
            let mut errors = engine.take_error_stream().expect("error stream");
            engine
                .bind(Arc::new(RecordingHost::new()), &HostState::default())
                .await
                .expect("bind");
            assert!(errors.try_recv().is_err(), "nothing reported before session_start");
            for _ in 0..2 {
                engine
                    .emit(&json!({ "type": "session_start", "reason": "startup" }))
                    .await
                    .expect("session_start");
            }
            let mut seen = Vec::new();
            while let Ok(error) = errors.try_recv() {
                seen.push(error);
            }
            if reported {
                assert_eq!(seen.len(), 1, "once, not at every session_start: {seen:?}");
                assert_eq!(seen[0].event, "register_mcp_server");
                assert!(seen[0].extension_path.ends_with("provider.ts"), "{seen:?}");
                assert_eq!(
                    seen[0].error,
                    "MCP server \"notes\" is registered, but no loaded extension connects MCP servers; another extension may have replaced the built-in MCP support"
                );
            } else {
                assert!(seen.is_empty(), "an extension connects it: {seen:?}");
            }
        }
    });
}

/// ctx.modelRegistry in the main session: pi's built-in providers described
/// (their requests go to the host), a refresh that has nothing to fetch, and
/// a registration through the registry reaching the host as pi.registerProvider does.
#[test]
fn the_main_sessions_model_registry_describes_providers_and_registers_with_the_host() {
    const REGISTRY: &str = r#"
export default function (pi) {
  pi.registerCommand("registry", { description: "asks the model registry", handler: async (_args, ctx) => {
    const registry = ctx.modelRegistry;
    const anthropic = registry.getProvider("anthropic");
    const refreshed = await registry.refresh();
    registry.registerProvider("via-registry", { baseUrl: "http://localhost:7", api: "openai-completions", apiKey: "k", models: [{ id: "m" }] });
    return {
      anthropic: { id: anthropic.id, name: anthropic.name, models: anthropic.getModels().length > 0 },
      unknown: registry.getProvider("no-such-provider") ?? null,
      displayName: registry.getProviderDisplayName("openai"),
      refreshed: { aborted: refreshed.aborted, errors: refreshed.errors.size },
      images: (await registry.getAvailableOfType("image")).length,
    };
  } });
}
"#;
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = engine_with(&project, "registry.ts", REGISTRY).await;
        let host = Arc::new(RecordingHost::new());
        engine.bind(host.clone(), &HostState::default()).await.expect("bind");
        let result = engine.run_command("registry", "").await.expect("command");
        assert_eq!(
            result,
            Some(json!({
                "anthropic": { "id": "anthropic", "name": "Anthropic", "models": true },
                "unknown": null,
                "displayName": "OpenAI",
                "refreshed": { "aborted": false, "errors": 0 },
                "images": 0,
            }))
        );
        assert!(
            host.calls().iter().any(|call| matches!(call,
                RecordedCall::Provider(pihost::host::ProviderChange::RegisterProvider { name, .. }) if name == "via-registry")),
            "{:#?}",
            host.calls()
        );
    });
}

/// Classification and image generation with pi's catalog models go to the
/// host (`model.classify`, `model.generateImages`), from ctx.modelRegistry
/// and from a ModelRuntime of the extension's own; no answer is a failed
/// result, never a rejection.
#[test]
fn catalog_classifications_and_images_are_the_hosts_to_run() {
    const OPERATIONS: &str = r#"
import { ModelRuntime } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  pi.registerCommand("operate", { description: "classifies and paints", handler: async (_args, ctx) => {
    const registry = ctx.modelRegistry;
    const judge = registry.findOfType("classifier", "typesafe", "jev-latest");
    const context = { state: { text: "buy now" }, questions: { spam: { type: "bool", instructions: "Spam?", criteria: { true: "yes", false: "no" } } } };
    const classified = await registry.classify(judge, context);
    const runtime = await ModelRuntime.create();
    const again = await runtime.classify(runtime.getModelOfType("classifier", "typesafe", "jev-latest"), context);
    const painter = registry.getModelsOfType("image")[0];
    const painted = await registry.generateImages(painter, { prompt: "a fox" });
    const wrongType = await registry.classify(painter, context);
    return {
      classified: classified.answers,
      again: again.answers,
      painted: { stopReason: painted.stopReason, errorMessage: painted.errorMessage, provider: painted.provider === painter.provider },
      wrongType: wrongType.errorMessage,
    };
  } });
}
"#;
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = engine_with(&project, "operations.ts", OPERATIONS).await;
        let host = Arc::new(RecordingHost::new());
        host.answer(
            "model.classify",
            json!({ "api": "typesafe-system-one", "provider": "typesafe", "model": "jev-latest",
                    "answers": { "spam": { "type": "bool", "probability": 0.9 } }, "stopReason": "stop", "timestamp": 1 }),
        );
        engine.bind(host.clone(), &HostState::default()).await.expect("bind");
        let result = engine.run_command("operate", "").await.expect("command").expect("a result");
        assert_eq!(result["classified"], json!({ "spam": { "type": "bool", "probability": 0.9 } }));
        assert_eq!(result["again"], result["classified"]);
        assert_eq!(result["painted"]["stopReason"], json!("error"));
        assert!(
            result["painted"]["errorMessage"].as_str().is_some_and(|message| message.contains("the host answered no images")),
            "{result:#}"
        );
        assert!(result["wrongType"].as_str().is_some_and(|message| message.ends_with("is not a classifier model")), "{result:#}");
        let asked: Vec<_> = host
            .calls()
            .into_iter()
            .filter_map(|call| match call {
                RecordedCall::Request(HostRequest::ModelClassify { model, context, .. }) => Some(("classify", model["id"].clone(), context)),
                RecordedCall::Request(HostRequest::ModelGenerateImages { context, .. }) => Some(("images", json!(null), context)),
                _ => None,
            })
            .collect();
        assert_eq!(asked.len(), 3, "{asked:#?}");
        assert_eq!(asked[0].1, json!("jev-latest"));
        assert_eq!(asked[0].2["questions"]["spam"]["type"], json!("bool"));
        assert_eq!(asked[2].2, json!({ "prompt": "a fox" }));
    });
}

#[test]
fn a_tool_whose_text_is_cut_inside_a_surrogate_pair_still_answers() {
    // `slice` by UTF-16 units is how tools truncate output; it can leave half an emoji.
    let source = r#"
export default function (pi) {
  pi.registerTool({ name: "truncate", label: "Truncate", description: "cuts its output", parameters: { type: "object", properties: {} },
    execute: async () => {
      pi.sendMessage({ customType: "cut", content: "🎉".slice(0, 1) });
      return { content: [{ type: "text", text: "🎉🎉".slice(0, 3) }], details: { tail: "🎉".slice(1) } };
    } });
}
"#;
    let project = Project::new();
    runtime().block_on(async {
        let mut engine = engine_with(&project, "truncate.ts", source).await;
        let host = Arc::new(RecordingHost::new());
        engine.bind(host.clone(), &HostState::default()).await.expect("bind");
        let result = engine
            .execute_tool("truncate", "call-1", &json!({}), None)
            .await
            .expect("tool");
        assert_eq!(
            result,
            Some(json!({ "content": [{ "type": "text", "text": "🎉\u{fffd}" }], "details": { "tail": "\u{fffd}" } }))
        );
        // What the tool tells the host arrives too.
        let calls = host.calls();
        let sent = calls.iter().find_map(|call| match call {
            RecordedCall::Notification(HostNotification::SendMessage { message, .. }) => {
                Some(message["content"].clone())
            }
            _ => None,
        });
        assert_eq!(sent, Some(json!("\u{fffd}")), "{calls:#?}");
    });
}
