//! The shared mode (issue 24): many sessions in one runtime, each with its
//! own extension instances, runner, flags, event bus, host and host state,
//! the modules and cached factories evaluated once for all of them.

mod support;

use std::sync::Arc;
use std::time::Duration;

use pihost::host::{HostNotification, HostState, RecordedCall, RecordingHost};
use pihost::{Pihost, PihostError};
use serde_json::{Value, json};
use support::*;

/// Counts its module's evaluations and its factory's runs; a tool answers
/// what its session sees.
const COUNTING: &str = r#"
globalThis.__moduleEvaluations = (globalThis.__moduleEvaluations ?? 0) + 1;
let factoryRuns = 0;
const apis = [];
export default function (pi) {
  factoryRuns++;
  apis.push(pi);
  // How many sessions' pi objects still work (a closed session's throw, R3).
  pi.registerCommand("live", { handler: async () => apis.filter((api) => {
    try { api.getFlag("mode"); return true; } catch { return false; }
  }).length });
  const instance = factoryRuns;
  let calls = 0;
  pi.registerFlag("mode", { type: "string", default: "plain" });
  pi.registerTool({
    name: "where", parameters: { type: "object" },
    execute: async (_id, _args, _signal, onUpdate, ctx) => {
      calls++;
      onUpdate?.({ content: [{ type: "text", text: `update from instance ${instance}` }] });
      return { content: [{ type: "text", text: "" }], details: {
        moduleEvaluations: globalThis.__moduleEvaluations,
        instance,
        calls,
        flag: pi.getFlag("mode"),
        model: ctx.model?.id ?? null,
        activeTools: pi.getActiveTools(),
      } };
    },
  });
  pi.registerCommand("say", { handler: async (args) => pi.sendMessage({ customType: "said", content: args, display: true }) });
  pi.on("turn_start", async () => { throw new Error(`instance ${instance} failed`); });
}
"#;

fn paths_of(pihost: &Pihost, project: &Project) -> Vec<pihost::discovery::DiscoveredExtension> {
    pihost.discover(&[project.path("counting.ts").display().to_string()])
}

async fn loaded(session: &Pihost, project: &Project, model: &str) -> Arc<RecordingHost> {
    let report = session
        .load_extensions(&paths_of(session, project), true)
        .await
        .expect("load");
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let host = Arc::new(RecordingHost::new());
    let state = HostState {
        model: Some(json!({ "id": model, "provider": "test" })),
        active_tools: Some(vec![format!("tool-of-{model}")]),
        ..HostState::default()
    };
    session.bind(host.clone(), &state).await.expect("bind");
    host
}

async fn where_is(session: &Pihost, call_id: &str) -> (Value, Vec<Value>) {
    let (updates, mut received) = tokio::sync::mpsc::unbounded_channel();
    let result = session
        .execute_tool("where", call_id, &json!({}), Some(updates))
        .await
        .expect("tool")
        .expect("a result");
    let mut seen = Vec::new();
    while let Ok(update) = received.try_recv() {
        seen.push(update);
    }
    (result["details"].clone(), seen)
}

/// A runtime with two sessions of the counting extension, each bound to its
/// own recording host, with models "model-a" and "model-b".
async fn two_sessions(project: &Project) -> [(Pihost, Arc<RecordingHost>); 2] {
    project.write("counting.ts", COUNTING);
    let first = Pihost::start(project.options()).await.expect("start");
    let first_host = loaded(&first, project, "model-a").await;
    let second = first.open_session().await.expect("open a session");
    assert_ne!(second.session(), first.session());
    let second_host = loaded(&second, project, "model-b").await;
    [(first, first_host), (second, second_host)]
}

/// What the `where` tool of two sessions answered: the first's flag is the
/// default and its model "model-a"; the second set "fancy" and has "model-b".
fn assert_each_has_its_own_flag_and_model(in_first: &Value, in_second: &Value) {
    assert_eq!(
        (in_first["flag"].clone(), in_second["flag"].clone()),
        (json!("plain"), json!("fancy"))
    );
    assert_eq!(
        (in_first["model"].clone(), in_second["model"].clone()),
        (json!("model-a"), json!("model-b"))
    );
}

fn messages_sent(host: &RecordingHost) -> Vec<String> {
    host.calls()
        .into_iter()
        .filter_map(|call| match call {
            RecordedCall::Notification(HostNotification::SendMessage { message, .. }) => {
                message.get("content").and_then(Value::as_str).map(str::to_string)
            }
            _ => None,
        })
        .collect()
}

#[test]
fn sessions_of_one_runtime_share_modules_and_keep_their_own_state() {
    let project = Project::new();
    runtime().block_on(async {
        let [(first, first_host), (second, second_host)] = two_sessions(&project).await;

        second.set_flag("mode", &json!("fancy")).await.expect("flag");
        let (in_first, first_updates) = where_is(&first, "call-1").await;
        let (in_second, second_updates) = where_is(&second, "call-1").await;
        let (again_in_second, _) = where_is(&second, "call-2").await;

        // One evaluation of the module for both sessions (pi's L6 cache);
        // the factory ran once per session, each instance with its own state.
        assert_eq!(in_first["moduleEvaluations"], json!(1));
        assert_eq!(in_second["moduleEvaluations"], json!(1));
        assert_eq!(
            (in_first["instance"].clone(), in_second["instance"].clone()),
            (json!(1), json!(2))
        );
        assert_eq!(again_in_second["calls"], json!(2));
        assert_eq!(in_first["calls"], json!(1));
        // Flags, host state and tool updates (the same tool call id in both) are each session's.
        assert_each_has_its_own_flag_and_model(&in_first, &in_second);
        assert_eq!(in_second["activeTools"], json!(["tool-of-model-b"]));
        assert_eq!(first_updates.len(), 1, "{first_updates:?}");
        assert_eq!(first_updates[0]["content"][0]["text"], json!("update from instance 1"));
        assert_eq!(second_updates.len(), 1, "{second_updates:?}");
        assert_eq!(second_updates[0]["content"][0]["text"], json!("update from instance 2"));

        // Actions reach the session's own host only.
        second
            .run_command("say", "hello from the second")
            .await
            .expect("command");
        first.run_command("say", "hello from the first").await.expect("command");
        assert_eq!(messages_sent(&first_host), vec!["hello from the first"]);
        assert_eq!(messages_sent(&second_host), vec!["hello from the second"]);
    });
}

#[test]
fn a_sessions_errors_reach_its_own_subscribers() {
    let project = Project::new();
    runtime().block_on(async {
        let [(first, _), (second, _)] = two_sessions(&project).await;
        let mut first_errors = first.errors();
        let mut second_errors = second.errors();
        second
            .emit(&json!({ "type": "turn_start", "turnIndex": 0 }))
            .await
            .expect("emit");
        let error = tokio::time::timeout(Duration::from_secs(5), second_errors.recv())
            .await
            .expect("the second session hears its error")
            .expect("an error");
        assert_eq!(error.error, "instance 2 failed");
        first.emit(&json!({ "type": "agent_start" })).await.expect("emit");
        assert!(
            first_errors.try_recv().is_err(),
            "the first session heard another session's error"
        );
    });
}

#[test]
fn a_closed_session_goes_stale_and_the_others_go_on() {
    let project = Project::new();
    runtime().block_on(async {
        let [(first, _), (second, _)] = two_sessions(&project).await;
        let third = first.open_session().await.expect("open a session");
        loaded(&third, &project, "model-c").await;

        second.shutdown().await.expect("close the second session");
        let after = second.execute_tool("where", "call-9", &json!({}), None).await;
        match after {
            Err(PihostError::Extension { message, .. }) | Err(PihostError::Internal { message, .. }) => {
                assert!(message.contains("is not open"), "{message}");
            }
            other => panic!("a closed session answered {other:?}"),
        }
        let (in_first, _) = where_is(&first, "call-10").await;
        let (in_third, _) = where_is(&third, "call-10").await;
        assert_eq!(
            (in_first["instance"].clone(), in_third["instance"].clone()),
            (json!(1), json!(3))
        );
        assert_eq!(in_third["model"], json!("model-c"));
    });
}

/// Another session's extension looks for this session's objects wherever
/// pihost could have left them: the global object, the event bus, the
/// session manager, the host state getters.
const PROBING: &str = r#"
export default function (pi) {
  pi.registerTool({
    name: "probe", parameters: { type: "object" },
    execute: async (_id, _args, _signal, _onUpdate, ctx) => {
      const found = [];
      for (const key of Reflect.ownKeys(globalThis)) {
        let value;
        try { value = globalThis[key]; } catch { continue; }
        if (value && typeof value === "object" && ("runner" in value || "hostState" in value || "sessionView" in value)) found.push(String(key));
      }
      let heard = null;
      pi.events.on("secret", (data) => { heard = data; });
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { content: [{ type: "text", text: "" }], details: {
        found,
        heard,
        model: ctx.model?.id ?? null,
        entries: ctx.sessionManager.getEntries().map((entry) => entry.customType ?? entry.type),
        sessionName: pi.getSessionName() ?? null,
      } };
    },
  });
  pi.registerCommand("tell", { handler: async (secret) => {
    pi.events.emit("secret", secret);
    pi.appendEntry("secret-entry", { secret });
    pi.setSessionName(`secret ${secret}`);
  } });
}
"#;

#[test]
fn a_sessions_extension_cannot_reach_another_sessions_objects() {
    let project = Project::new();
    let path = project.write("probing.ts", PROBING);
    runtime().block_on(async {
        let first = Pihost::start(project.options()).await.expect("start");
        let second = first.open_session().await.expect("open a session");
        for (session, model) in [(&first, "model-a"), (&second, "model-b")] {
            let report = session
                .load_extensions(&session.discover(std::slice::from_ref(&path)), true)
                .await
                .expect("load");
            assert!(report.errors.is_empty(), "{:#?}", report.errors);
            let state = HostState {
                model: Some(json!({ "id": model, "provider": "test" })),
                ..HostState::default()
            };
            session
                .bind(Arc::new(RecordingHost::new()), &state)
                .await
                .expect("bind");
        }
        let probe = tokio::spawn({
            let second = second.clone();
            async move { second.execute_tool("probe", "p", &json!({}), None).await }
        });
        tokio::time::sleep(Duration::from_millis(5)).await;
        first.run_command("tell", "s3cret").await.expect("tell");
        let details = probe.await.expect("join").expect("probe").expect("result")["details"].clone();
        assert_eq!(
            details["found"],
            json!([]),
            "pihost's session objects on the global object"
        );
        assert_eq!(
            details["heard"],
            Value::Null,
            "another session's event bus reached this one"
        );
        assert_eq!(details["model"], json!("model-b"));
        assert!(
            !details["entries"].to_string().contains("secret"),
            "another session's entries: {}",
            details["entries"]
        );
        assert_eq!(details["sessionName"], Value::Null);
    });
}

#[test]
fn a_sandboxed_runtime_does_not_share_its_sessions() {
    let project = Project::new();
    runtime().block_on(async {
        let mut options = project.options();
        options.permissions.sandbox = true;
        let first = Pihost::start(options).await.expect("start");
        match first.open_session().await {
            Err(PihostError::SessionNotShared { reason }) => assert!(reason.contains("permission"), "{reason}"),
            Err(other) => panic!("another error: {other}"),
            Ok(_) => panic!("a sandboxed runtime opened a shared session"),
        }
    });
}

#[test]
fn dropping_every_handle_of_a_shared_session_closes_it() {
    let project = Project::new();
    runtime().block_on(async {
        let [(first, _), (second, _)] = two_sessions(&project).await;
        let third = first.open_session().await.expect("open a session");
        loaded(&third, &project, "model-c").await;
        assert_eq!(first.run_command("live", "").await.expect("live"), Some(json!(3)));
        let clone = second.with_dispatch_timeout(None);
        drop(second);
        assert_eq!(
            first.run_command("live", "").await.expect("live"),
            Some(json!(3)),
            "a clone still holds it"
        );
        drop(clone);
        drop(third.clone());
        let mut live = None;
        for _ in 0..50 {
            live = first.run_command("live", "").await.expect("live");
            if live == Some(json!(2)) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(live, Some(json!(2)), "the second session was closed, the third is held");
        assert_eq!(third.run_command("live", "").await.expect("live"), Some(json!(2)));
    });
}

const HOARDING: &str = r#"
export default function (pi) {
  pi.registerTool({ name: "hoard", parameters: { type: "object" }, execute: async () => {
    globalThis.hoard = []; for (;;) globalThis.hoard.push(new Array(1000).fill(Math.random()));
  } });
}
"#;

/// A runaway in one session fills the shared heap beyond recovery: the
/// runtime is replaced, every session hears it, and every session comes
/// back with its own extensions, flags and host state.
#[test]
fn a_session_that_fills_the_heap_brings_every_session_back_on_a_new_runtime() {
    let project = Project::new();
    project.write("counting.ts", COUNTING);
    let hoarding = project.write("hoarding.ts", HOARDING);
    runtime().block_on(async {
        let mut options = project.options();
        options.limits.max_heap_mb = Some(64);
        let first = Pihost::start(options).await.expect("start");
        loaded(&first, &project, "model-a").await;
        let second = first.open_session().await.expect("open a session");
        let paths = [project.path("counting.ts").display().to_string(), hoarding];
        let report = second
            .load_extensions(&second.discover(&paths), true)
            .await
            .expect("load");
        assert!(report.errors.is_empty(), "{:#?}", report.errors);
        let state = HostState {
            model: Some(json!({ "id": "model-b", "provider": "test" })),
            ..HostState::default()
        };
        second.bind(Arc::new(RecordingHost::new()), &state).await.expect("bind");
        second.set_flag("mode", &json!("fancy")).await.expect("flag");
        let (mut first_errors, mut second_errors) = (first.errors(), second.errors());

        let hoard = second.execute_tool("hoard", "h", &json!({}), None).await;
        assert!(hoard.is_err(), "{hoard:?}");
        for errors in [&mut first_errors, &mut second_errors] {
            let restarted = loop {
                let error = tokio::time::timeout(Duration::from_secs(30), errors.recv())
                    .await
                    .expect("every session hears of the restart")
                    .expect("an error");
                if error.event == "engineRestarted" {
                    break error;
                }
            };
            assert!(restarted.error.contains("restarted the engine"), "{}", restarted.error);
        }
        let (in_first, _) = where_is(&first, "after-1").await;
        let (in_second, _) = where_is(&second, "after-2").await;
        assert_each_has_its_own_flag_and_model(&in_first, &in_second);
        let tools = second.registrations().await.expect("registrations").tools;
        assert!(
            tools.iter().any(|tool| tool.name == "hoard"),
            "the second session's extensions came back"
        );
    });
}

/// Sessions loading at once load one after another, each its own instances.
#[test]
fn sessions_loading_at_once_each_get_their_extensions() {
    let project = Project::new();
    project.write("counting.ts", COUNTING);
    runtime().block_on(async {
        let first = Pihost::start(project.options()).await.expect("start");
        let mut sessions = vec![first.clone()];
        for _ in 0..3 {
            sessions.push(first.open_session().await.expect("open a session"));
        }
        let mut loads = tokio::task::JoinSet::new();
        for session in sessions.clone() {
            let paths = paths_of(&session, &project);
            loads.spawn(async move { session.load_extensions(&paths, true).await });
        }
        while let Some(report) = loads.join_next().await {
            let report = report.expect("join").expect("load");
            assert!(report.errors.is_empty(), "{:#?}", report.errors);
        }
        let mut instances = Vec::new();
        for (index, session) in sessions.iter().enumerate() {
            session
                .bind(Arc::new(RecordingHost::new()), &HostState::default())
                .await
                .expect("bind");
            let (details, _) = where_is(session, &format!("w{index}")).await;
            assert_eq!(details["moduleEvaluations"], json!(1));
            instances.push(details["instance"].as_u64().expect("an instance"));
        }
        instances.sort_unstable();
        assert_eq!(instances, vec![1, 2, 3, 4]);
    });
}

/// What a load reports about each extension's modules is that extension's,
/// even when two sessions load at once.
#[test]
fn loads_at_once_report_each_extensions_own_modules() {
    let project = Project::new();
    for index in 0..6 {
        project.write(
            &format!("parts/part{index}.ts"),
            &format!("export const part{index} = {index};\n"),
        );
    }
    let imports: String = (0..6)
        .map(|index| format!("import {{ part{index} }} from \"./parts/part{index}.ts\";\n"))
        .collect();
    let many = project.write(
        "many.ts",
        &format!("{imports}export default function (pi) {{ pi.registerFlag(\"sum\", {{ type: \"string\", default: String(part0 + part5) }}); }}\n"),
    );
    let lone = project.write("lone.ts", "export default function (pi) {}\n");
    let modules = |report: pihost::InspectReport| {
        let extension = &report.extensions[0];
        extension.timing.as_ref().map(|timing| timing.modules)
    };
    runtime().block_on(async {
        // A runtime whose first load (it evaluates the platform modules a
        // load needs) is over, and two more sessions.
        let warmed = || async {
            let first = Pihost::start(project.options()).await.expect("start");
            first
                .load_extensions(&first.discover(std::slice::from_ref(&lone)), false)
                .await
                .expect("load");
            let second = first.open_session().await.expect("open a session");
            let third = first.open_session().await.expect("open a session");
            (first, second, third)
        };
        let (_first, second, third) = warmed().await;
        let mut one_after_another = Vec::new();
        for (session, path) in [(&second, &many), (&third, &lone)] {
            let report = session
                .load_extensions(&session.discover(std::slice::from_ref(path)), false)
                .await;
            one_after_another.push(modules(report.expect("load")));
        }
        assert!(one_after_another[0] > one_after_another[1], "{one_after_another:?}");
        let (_first, second, third) = warmed().await;
        let (many_paths, lone_paths) = (second.discover(std::slice::from_ref(&many)), third.discover(&[lone]));
        let (many_report, lone_report) = tokio::join!(
            second.load_extensions(&many_paths, false),
            third.load_extensions(&lone_paths, false)
        );
        let together = vec![modules(many_report.expect("load")), modules(lone_report.expect("load"))];
        assert_eq!(together, one_after_another);
    });
}

const ASKING: &str = r#"
import { complete, getModel } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerCommand("ask", { handler: async () => {
    try { await complete(getModel("anthropic", "claude-sonnet-4-5"), { messages: [] }); } catch {}
    return "asked";
  } });
}
"#;

/// A pi-ai call an extension makes reaches its own session's host, the
/// first session's too (its calls name no session).
#[test]
fn a_model_call_reaches_the_host_of_the_session_that_made_it() {
    let project = Project::new();
    let path = project.write("asking.ts", ASKING);
    let model_calls = |host: &RecordingHost| {
        host.calls()
            .into_iter()
            .filter(|call| {
                matches!(
                    call,
                    RecordedCall::Request(pihost::host::HostRequest::ModelComplete { .. })
                )
            })
            .count()
    };
    runtime().block_on(async {
        let first = Pihost::start(project.options()).await.expect("start");
        let second = first.open_session().await.expect("open a session");
        let mut hosts = Vec::new();
        for session in [&first, &second] {
            let report = session
                .load_extensions(&session.discover(std::slice::from_ref(&path)), true)
                .await
                .expect("load");
            assert!(report.errors.is_empty(), "{:#?}", report.errors);
            let host = Arc::new(RecordingHost::new());
            session.bind(host.clone(), &HostState::default()).await.expect("bind");
            hosts.push(host);
        }
        first.run_command("ask", "").await.expect("ask");
        assert_eq!((model_calls(&hosts[0]), model_calls(&hosts[1])), (1, 0));
        second.run_command("ask", "").await.expect("ask");
        second.run_command("ask", "").await.expect("ask");
        assert_eq!((model_calls(&hosts[0]), model_calls(&hosts[1])), (1, 2));
    });
}
