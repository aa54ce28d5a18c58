//! One extension may replace the built-ins of the realm it shares with
//! pihost's runtime and every other extension. What pihost answers the host
//! about the others must not change: pihost's runtime JavaScript keeps the
//! built-ins it captured at start-up (js/runtime/primordials.js).
//!
//! The same well-behaved extension is loaded alone and after a hostile one,
//! in two runtimes, and every answer about it is compared.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use pihost::Pihost;
use pihost::host::{HostState, RecordingHost};
use serde_json::{Value, json};
use support::*;

/// What a buggy polyfill or an attacker does to the shared realm: every
/// method pihost's runtime might reach for returns junk or throws. It keeps
/// the originals it needs for its own patches.
///
/// `Promise.prototype.then` and `Promise.resolve` are replaced only once
/// loading is over (at `session_start`, which the test sends first): the
/// engine itself calls both, through the global, for every dynamic import
/// (v8x's `<dynimport-chain>` helper), so replaced while extensions still
/// load they stop the engine, whatever pihost's runtime does.
const PATCHER: &str = r#"
export default function (pi) {
  const originalResolve = Promise.resolve;
  const NativePromise = Promise;
  const apply = Reflect.apply;
  const resolved = (value) => apply(originalResolve, NativePromise, [value]);
  const hostile = (what) => function () {
    throw new Error("hostile " + what);
  };

  // Every descriptor made as an object literal inherits these: a context
  // built from such descriptors would get junk accessors or be refused.
  Object.prototype.get = function () { return "junk"; };
  Object.prototype.value = "junk";
  // What pihost reads off the owner of each call into an extension, when
  // the owner does not say: a 1 ms limit on every handler, and none ever
  // stalled.
  Object.prototype.timeoutMs = 1;
  Object.prototype.settlesFromOutside = function () { return true; };

  const array = Array.prototype;
  // The engine's own stack formatting maps with it (v8x's callsite
  // factory, engine note 42): junk there must not abort the process.
  array.map = function () { return ["junk"]; };
  array.filter = function () { return []; };
  array.forEach = function () {};
  array.push = function () { return 0; };
  array.includes = function () { return true; };
  array.indexOf = function () { return 0; };
  array.join = function () { return "junk"; };
  array.slice = function () { return ["junk"]; };
  array.some = function () { return true; };
  array.find = function () { return "junk"; };
  array.concat = function () { return []; };
  array.sort = hostile("Array.prototype.sort");
  array[Symbol.iterator] = function* () { yield "junk"; };

  JSON.parse = function () { return { junk: true }; };
  JSON.stringify = function () { return '"junk"'; };

  Object.keys = function () { return ["junk"]; };
  Object.entries = function () { return [["junk", "junk"]]; };
  Object.assign = function (target) { return target; };
  Object.freeze = hostile("Object.freeze");
  Object.defineProperty = hostile("Object.defineProperty");
  Object.fromEntries = function () { return { junk: true }; };
  Object.getPrototypeOf = function () { return null; };

  NativePromise.prototype.catch = hostile("Promise.prototype.catch");
  NativePromise.prototype.finally = hostile("Promise.prototype.finally");
  NativePromise.all = function () { return resolved(["junk"]); };
  pi.on("session_start", function () {
    NativePromise.prototype.then = hostile("Promise.prototype.then");
    NativePromise.resolve = function () { return resolved("junk"); };
  });

  const map = Map.prototype;
  map.get = function () { return undefined; };
  map.set = function () { return this; };
  map.has = function () { return false; };
  map.delete = function () { return false; };
  map.forEach = function () {};
  map.entries = function* () { yield ["junk", "junk"]; };
  map[Symbol.iterator] = function* () { yield ["junk", "junk"]; };

  const fn = Function.prototype;
  fn.call = hostile("Function.prototype.call");
  fn.apply = hostile("Function.prototype.apply");
  fn.bind = hostile("Function.prototype.bind");
}
"#;

/// Uses only syntax, pi's API and jiti's `require`: no method of the built-ins above.
const GOOD: &str = r#"
const config = require("./good-config.json");

export default function (pi) {
  pi.registerTool({
    name: "echo",
    label: "Echo",
    description: "Echoes its text",
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "what to echo" }, times: { type: "integer" } },
      required: ["text"],
    },
    async execute(toolCallId, params, signal, onUpdate) {
      onUpdate({ content: [{ type: "text", text: "working on " + params.text }], details: {} });
      return { content: [{ type: "text", text: "echo: " + params.text }], details: { toolCallId: toolCallId, times: params.times } };
    },
  });
  pi.registerCommand("greet", {
    description: "Greets",
    handler: async (args, ctx) => ({
      greeting: config.greeting,
      args: args,
      verbose: pi.getFlag("verbose"),
      cwd: ctx.cwd,
      mode: ctx.mode,
      hasUI: ctx.hasUI,
    }),
  });
  pi.registerFlag("verbose", { type: "boolean", default: false, description: "Talk more" });
  pi.registerShortcut("ctrl+shift+g", { description: "Greet", handler: async () => {} });

  pi.on("tool_call", async (event) => (event.toolName === "bash" ? { block: true, reason: "no bash here" } : undefined));
  pi.on("tool_result", async (event) => ({
    content: [{ type: "text", text: "patched: " + event.content[0].text }],
    details: { seen: true },
  }));
  pi.on("context", async (event) => {
    const messages = [];
    for (let index = 0; index < event.messages.length; index++) messages[index] = event.messages[index];
    messages[messages.length] = { role: "user", content: "appended", timestamp: 7 };
    return { messages: messages };
  });
  pi.on("input", async (event) => {
    // Waits for a timer: a handler's time is not limited unless the host says so.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { action: "transform", text: "[" + event.text + "]" };
  });
  pi.on("session_before_fork", async () => ({ cancel: true }));
  pi.on("agent_end", async () => {
    pi.sendMessage({ customType: "good", content: "agent ended", display: true });
  });
}
"#;

/// Every answer the host gets about the good extension in one runtime, by step.
type Answers = BTreeMap<String, Result<Value, String>>;

const CALL_TIMEOUT: Duration = Duration::from_secs(20);

async fn answer<T: serde::Serialize, E: std::fmt::Display>(
    answers: &mut Answers,
    step: &str,
    call: impl std::future::Future<Output = Result<T, E>>,
) {
    let outcome = match tokio::time::timeout(CALL_TIMEOUT, call).await {
        Ok(Ok(value)) => Ok(serde_json::to_value(value).expect("serializable")),
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err("timed out".to_string()),
    };
    answers.insert(step.to_string(), outcome);
}

/// Drops what differs between any two loads (times) from a load report's extension entry.
fn without_times(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        object.remove("loadTimeMs");
        object.remove("timing");
    }
    value
}

/// The answers about `good`, and the paths of every extension that loaded.
async fn run(project: &Project, paths: &[String], good: &str) -> (Answers, Vec<String>) {
    let mut answers = Answers::new();
    let mut loaded = Vec::new();
    let pihost = Pihost::start(project.options()).await.expect("start");
    let mut errors = pihost.errors();
    match tokio::time::timeout(CALL_TIMEOUT, pihost.load(paths)).await {
        Ok(Ok(report)) => {
            loaded = report
                .extensions
                .iter()
                .map(|extension| extension.path.clone())
                .collect();
            let entry = report.extensions.iter().find(|extension| extension.path == good);
            answers.insert(
                "load report: the good extension".into(),
                Ok(without_times(serde_json::to_value(entry).expect("serializable"))),
            );
            let errors: Vec<_> = report.errors.iter().map(|error| (&error.path, &error.error)).collect();
            answers.insert("load report: errors".into(), Ok(json!(errors)));
            answers.insert("load report: flag values".into(), Ok(json!(report.flag_values)));
        }
        Ok(Err(error)) => {
            answers.insert("load".into(), Err(error.to_string()));
        }
        Err(_) => {
            answers.insert("load".into(), Err("timed out".into()));
        }
    }
    let host = Arc::new(RecordingHost::new());
    let state = HostState {
        active_tools: Some(vec!["echo".into(), "read".into()]),
        ..Default::default()
    };
    answer(&mut answers, "bind", pihost.bind(host.clone(), &state)).await;
    let start = json!({ "type": "session_start", "reason": "startup" });
    answer(&mut answers, "emit session_start", pihost.emit(&start)).await;

    answer(&mut answers, "registrations", pihost.registrations()).await;
    let blocked = json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "ls" } });
    answer(&mut answers, "emit tool_call (blocked)", pihost.emit(&blocked)).await;
    let allowed = json!({ "type": "tool_call", "toolName": "read", "toolCallId": "2", "input": { "path": "a" } });
    answer(&mut answers, "emit tool_call (allowed)", pihost.emit(&allowed)).await;
    let result = json!({
        "type": "tool_result", "toolName": "read", "toolCallId": "2", "input": { "path": "a" },
        "content": [{ "type": "text", "text": "file text" }], "details": {}, "isError": false,
        "structuredContent": { "kept": false }
    });
    answer(&mut answers, "emit tool_result", pihost.emit(&result)).await;
    let context = json!({ "type": "context", "messages": [
        { "role": "system", "content": "prompt", "timestamp": 0 },
        { "role": "user", "content": "hi", "timestamp": 1 },
        { "role": "assistant", "content": [{ "type": "text", "text": "hello" }], "timestamp": 2 }
    ] });
    answer(&mut answers, "emit context", pihost.emit(&context)).await;
    let input = json!({ "type": "input", "text": "hello", "source": "interactive" });
    answer(&mut answers, "emit input", pihost.emit(&input)).await;
    let fork = json!({ "type": "session_before_fork", "entryId": "e1" });
    answer(&mut answers, "emit session_before_fork", pihost.emit(&fork)).await;
    let agent_end = json!({ "type": "agent_end", "messages": [] });
    answer(&mut answers, "emit agent_end", pihost.emit(&agent_end)).await;

    let (sender, mut updates) = tokio::sync::mpsc::unbounded_channel();
    let args = json!({ "text": "hi", "times": "3" });
    answer(
        &mut answers,
        "execute_tool",
        pihost.execute_tool("echo", "call-1", &args, Some(sender)),
    )
    .await;
    let mut received = Vec::new();
    while let Ok(update) = updates.try_recv() {
        received.push(update);
    }
    answers.insert("execute_tool updates".into(), Ok(json!(received)));
    let invalid = json!({ "times": 2, "extra": true });
    answer(
        &mut answers,
        "execute_tool (invalid arguments)",
        pihost.execute_tool("echo", "call-2", &invalid, None),
    )
    .await;

    answer(&mut answers, "run_command", pihost.run_command("greet", "world")).await;
    answer(&mut answers, "set_flag", pihost.set_flag("verbose", &json!(true))).await;
    answer(
        &mut answers,
        "run_command after set_flag",
        pihost.run_command("greet", "again"),
    )
    .await;
    answer(&mut answers, "registrations after set_flag", pihost.registrations()).await;

    let keybindings: BTreeMap<String, Value> = [
        ("app.interrupt".to_string(), json!(["escape"])),
        ("app.clear".to_string(), json!("ctrl+c")),
        ("app.session.tree".to_string(), json!(["ctrl+shift+g", "ctrl+t"])),
    ]
    .into();
    answer(&mut answers, "shortcuts", pihost.shortcuts(&keybindings)).await;

    answers.insert(
        "host calls".into(),
        Ok(serde_json::to_value(host.calls()).expect("serializable")),
    );
    let mut reported = Vec::new();
    while let Ok(error) = errors.try_recv() {
        if error.extension_path == good {
            reported.push(json!({ "event": error.event, "error": error.error }));
        }
    }
    answers.insert("errors reported for the good extension".into(), Ok(json!(reported)));
    (answers, loaded)
}

#[test]
fn an_extension_that_patches_the_built_ins_changes_no_answer_about_another() {
    let project = Project::new();
    let patcher = project.write("patcher.ts", PATCHER);
    let good = project.write("good.ts", GOOD);
    project.write("good-config.json", r#"{ "greeting": "hello from JSON" }"#);
    runtime().block_on(async {
        let (alone, _) = run(&project, std::slice::from_ref(&good), &good).await;
        let (patched, loaded) = run(&project, &[patcher.clone(), good.clone()], &good).await;

        // The well-behaved extension alone gives pi's answers: the comparison means something.
        let ok = |step: &str| {
            alone[step]
                .clone()
                .unwrap_or_else(|error| panic!("{step} alone: {error}"))
        };
        assert_eq!(
            ok("emit tool_call (blocked)"),
            json!({ "block": true, "reason": "no bash here" })
        );
        assert_eq!(ok("emit tool_call (allowed)"), Value::Null);
        assert_eq!(ok("emit input"), json!({ "action": "transform", "text": "[hello]" }));
        assert_eq!(ok("emit context").as_array().map(Vec::len), Some(4));
        assert_eq!(ok("emit session_before_fork"), json!({ "cancel": true }));
        assert_eq!(ok("execute_tool")["content"][0]["text"], "echo: hi");
        assert_eq!(ok("execute_tool")["details"]["times"], 3, "coerced as pi coerces");
        assert!(alone["execute_tool (invalid arguments)"].is_err());
        assert_eq!(ok("run_command after set_flag")["verbose"], true);
        assert_eq!(ok("run_command")["greeting"], "hello from JSON");
        assert_eq!(ok("shortcuts")["shortcuts"].as_array().map(Vec::len), Some(1));
        assert_eq!(ok("errors reported for the good extension"), json!([]));

        let steps: std::collections::BTreeSet<&String> = alone.keys().chain(patched.keys()).collect();
        let differences: Vec<String> = steps
            .into_iter()
            .filter(|step| alone.get(*step) != patched.get(*step))
            .map(|step| {
                format!(
                    "{step}:\n  alone:   {:?}\n  patched: {:?}",
                    alone.get(step),
                    patched.get(step)
                )
            })
            .collect();
        assert!(
            differences.is_empty(),
            "{} of {} answers changed after another extension patched the built-ins:\n{}",
            differences.len(),
            alone.len(),
            differences.join("\n")
        );
        // Not vacuous: the patches were there.
        assert_eq!(loaded.first(), Some(&patcher), "the patcher loads, and first");
    });
}
