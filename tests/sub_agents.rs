//! Sub-agents as a real published extension runs them: pi-subagents
//! (installed by scripts/setup into benches/real-packages) starts a child
//! session through pi's SDK with its own hook extensions (a resource loader's
//! `extensionFactories`), binds them, prompts the child, and reads its answer.
//! The child's model call goes to the host like any model call of an
//! extension.

mod support;

use serde_json::{Value, json};
use support::*;

/// What a model answers every call with: a plain text reply.
fn reply(text: &str) -> Value {
    json!({
        "role": "assistant",
        "content": [{ "type": "text", "text": text }],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "usage": {
            "input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
            "cost": { "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0 }
        },
        "stopReason": "stop",
        "timestamp": 1
    })
}

/// Runs pi-subagents' `subagent` tool for the `worker` agent with `home` as
/// HOME, TMPDIR and (its `agent` folder) pi's agent folder; every model call
/// answers "hello from the child". Returns what `pihost tool` printed.
fn run_worker(home: &std::path::Path) -> Value {
    let package = project_root().join("benches/real-packages/node_modules/pi-subagents");
    assert!(package.is_dir(), "{} is missing: run scripts/setup", package.display());
    let project = tempfile::tempdir().expect("temp dir");
    let state = json!({
        "model": { "provider": "anthropic", "id": "claude-sonnet-4-5" },
        "session": {
            "header": { "type": "session", "version": 3, "id": "parent-1", "timestamp": "2026-12-04T00:00:00.000Z", "cwd": project.path() },
            "entries": []
        }
    });
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args([
            "tool",
            "subagent",
            "--args",
            r#"{"agent":"worker","task":"say hi","async":false}"#,
            "-e",
        ])
        .arg(&package)
        .arg("--cwd")
        .arg(project.path())
        .arg("--answer")
        .arg(format!("model.complete={}", reply("hello from the child")))
        .arg("--state")
        .arg(state.to_string())
        .env("HOME", home)
        .env("TMPDIR", home)
        .env("PI_CODING_AGENT_DIR", home.join("agent"))
        .env_remove("PI_OFFLINE")
        .output()
        .expect("pihost runs");
    printed_json(&output).0
}

#[test]
fn a_real_sub_agent_extension_runs_a_child_session_with_its_hook_extensions() {
    let home = tempfile::tempdir().expect("temp dir");
    let printed = run_worker(home.path());
    assert!(printed.get("error").is_none(), "{printed:#}");

    let run = &printed["result"]["details"]["results"][0];
    assert_eq!(run["agent"], "worker", "{printed:#}");
    assert_eq!(run["exitCode"], 0, "{printed:#}");
    assert_eq!(run["finalOutput"], "hello from the child", "{printed:#}");
    let text = printed["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("hello from the child"), "{text}");

    // The child asked the host's model once, with what its hook extensions
    // gave it: the supervisor tool one registers and the agent preamble
    // another puts in the system prompt before the agent starts.
    let calls: Vec<&Value> = printed["hostCalls"]
        .as_array()
        .expect("host calls")
        .iter()
        .filter(|call| call["method"] == "model.complete")
        .collect();
    assert_eq!(calls.len(), 1, "{printed:#}");
    let messages = calls[0]["context"]["messages"].as_array().expect("messages");
    let system = messages
        .iter()
        .find(|message| message["role"] == "system")
        .expect("a system message");
    let tools: Vec<&str> = system["toolsAdded"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert!(tools.contains(&"contact_supervisor"), "{tools:?}");
    let preamble = system["sections"]["preamble"].as_str().unwrap_or_default();
    assert!(preamble.starts_with("<active_agent name=\"worker\"/>"), "{preamble}");
    let last = messages.last().expect("a prompt");
    assert_eq!(last["content"][0]["text"], "Task: say hi", "{last:#}");
}

/// `pi install` puts packages in the settings. A child session's resource
/// loader resolves them as pi's does, whatever kinds it loads: installed ones
/// are used where pi installs them; a missing one is installed with the
/// settings' npm command first (here a stand-in that records its arguments
/// and fails, so nothing reaches the network), and a failed install is a
/// warning of the set, never a child that does not start.
#[test]
fn a_sub_agent_child_runs_beside_installed_settings_packages_and_installs_a_missing_one() {
    let home = tempfile::tempdir().expect("temp dir");
    let agent = home.path().join("agent");
    let installed = agent.join("npm/node_modules/pi-subagents");
    std::fs::create_dir_all(&installed).expect("package folder");
    std::fs::write(
        installed.join("package.json"),
        r#"{ "name": "pi-subagents", "version": "1.0.0" }"#,
    )
    .expect("package.json");
    std::fs::write(agent.join("settings.json"), r#"{ "packages": ["npm:pi-subagents"] }"#).expect("settings");
    let printed = run_worker(home.path());
    assert!(printed.get("error").is_none(), "{printed:#}");
    assert_eq!(
        printed["result"]["details"]["results"][0]["finalOutput"], "hello from the child",
        "{printed:#}"
    );

    let record = home.path().join("npm-calls.txt");
    let stand_in = home.path().join("npm-stand-in.sh");
    std::fs::write(
        &stand_in,
        format!(
            "echo \"$@\" >> '{}'\necho 'no registry here' >&2\nexit 1\n",
            record.display()
        ),
    )
    .expect("stand-in");
    let settings = json!({
        "packages": ["npm:pi-subagents", "npm:pi-not-installed"],
        "npmCommand": ["sh", stand_in],
    });
    std::fs::write(agent.join("settings.json"), settings.to_string()).expect("settings");
    let printed = run_worker(home.path());
    assert!(printed.get("error").is_none(), "{printed:#}");
    assert_eq!(
        printed["result"]["details"]["results"][0]["finalOutput"], "hello from the child",
        "{printed:#}"
    );
    let calls = std::fs::read_to_string(&record).expect("the npm command ran");
    assert!(
        calls
            .lines()
            .any(|line| line.starts_with("install") && line.contains("pi-not-installed")),
        "{calls}"
    );
    assert!(
        !calls.contains("pi-subagents"),
        "the installed package is not installed again: {calls}"
    );
}

/// Short enough to stop a spinning handler soon, long enough for a debug
/// build to evaluate pi-coding-agent's modules (about 400 ms of an
/// extension's load that imports it, which the limit counts).
const SHORT_CPU_LIMIT_MS: u64 = 1500;

/// Runs `tool` of the extension file at `extension` in `project` with a
/// CPU limit of [`SHORT_CPU_LIMIT_MS`]; returns what `pihost tool` printed.
fn run_with_a_short_cpu_limit(project: &std::path::Path, extension: &std::path::Path, tool: &str) -> Value {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["tool", tool, "--cpu-limit-ms", &SHORT_CPU_LIMIT_MS.to_string(), "-e"])
        .arg(extension)
        .arg("--cwd")
        .arg(project)
        .current_dir(project)
        .output()
        .expect("pihost runs");
    printed_json(&output).0
}

/// A child session's extension that never returns from its factory is
/// stopped by the CPU limit and named in the child's load errors; the
/// child's other extensions load and the parent's tool goes on.
#[test]
fn a_child_extension_that_spins_is_stopped_and_named_while_the_others_load() {
    let project = tempfile::tempdir().expect("temp dir");
    let extension = project.path().join("spawner.ts");
    std::fs::write(
        &extension,
        r#"import * as sdk from "@earendil-works/pi-coding-agent";
export default function (pi: any) {
  pi.registerTool({ name: "spawn", label: "spawn", description: "loads a child's extensions", parameters: { type: "object", properties: {} }, async execute() {
    const loader = new sdk.DefaultResourceLoader({
      cwd: process.cwd(), agentDir: process.cwd(), settingsManager: sdk.SettingsManager.inMemory(),
      noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true,
      extensionFactories: [
        { name: "spin", factory: () => { for (;;) {} } },
        { name: "fine", factory: (child: any) => child.on("agent_start", () => {}) },
      ],
    });
    await loader.reload();
    const { extensions, errors } = loader.getExtensions();
    return { content: [{ type: "text", text: "loaded" }], details: { loaded: extensions.map((e: any) => e.path), errors } };
  } });
}
"#,
    )
    .expect("extension");
    let printed = run_with_a_short_cpu_limit(project.path(), &extension, "spawn");
    assert!(printed.get("error").is_none(), "{printed:#}");
    let details = &printed["result"]["details"];
    assert_eq!(details["loaded"], json!(["<inline:fine>"]), "{printed:#}");
    assert_eq!(details["errors"][0]["path"], "<inline:spin>", "{printed:#}");
    let error = details["errors"][0]["error"].as_str().unwrap_or_default();
    let expected = format!("did not return within {SHORT_CPU_LIMIT_MS} ms while loading");
    assert!(error.contains(&expected), "{error}");
}

/// A child session's handler that spins while the child runs is stopped,
/// reported to the session's error listener with its extension's name, and
/// the child's run still ends with the model's answer.
#[test]
fn a_child_handler_that_spins_is_stopped_and_reported_while_the_child_runs_on() {
    let project = tempfile::tempdir().expect("temp dir");
    let extension = project.path().join("delegate.ts");
    std::fs::write(
        &extension,
        r#"import { createProvider, fauxAssistantMessage, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as sdk from "@earendil-works/pi-coding-agent";
export default function (pi: any) {
  const faux = registerFauxProvider({ api: "spin-faux-api", provider: "spin-faux", models: [{ id: "m", reasoning: false }] });
  pi.registerTool({ name: "delegate", label: "delegate", description: "runs a child", parameters: { type: "object", properties: {} }, async execute() {
    const runtime = await sdk.ModelRuntime.create();
    runtime.registerNativeProvider(createProvider({ id: "spin-faux", name: "Spin", auth: { apiKey: { name: "k", resolve: async () => ({ auth: { apiKey: "k" } }) } }, models: faux.models, api: { stream, streamSimple } }));
    await runtime.refresh({ allowNetwork: false });
    faux.setResponses([fauxAssistantMessage("child done")]);
    const settingsManager = sdk.SettingsManager.inMemory();
    const loader = new sdk.DefaultResourceLoader({
      cwd: process.cwd(), agentDir: process.cwd(), settingsManager,
      noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true,
      extensionFactories: [{ name: "spinner", factory: (child: any) => child.on("context", () => { for (;;) {} }) }],
    });
    await loader.reload();
    const { session } = await sdk.createAgentSession({
      cwd: process.cwd(), modelRuntime: runtime, model: runtime.getModel("spin-faux", "m"), tools: [],
      resourceLoader: loader, sessionManager: sdk.SessionManager.inMemory(process.cwd()), settingsManager,
    });
    const reported: string[] = [];
    await session.bindExtensions({ mode: "print", onError: (error: any) => reported.push(`${error.extensionPath} ${error.event}: ${error.error}`) });
    await session.prompt("go");
    const answer = session.getLastAssistantText();
    session.dispose();
    return { content: [{ type: "text", text: answer ?? "" }], details: { reported } };
  } });
}
"#,
    )
    .expect("extension");
    let printed = run_with_a_short_cpu_limit(project.path(), &extension, "delegate");
    assert!(printed.get("error").is_none(), "{printed:#}");
    assert_eq!(printed["result"]["content"][0]["text"], "child done", "{printed:#}");
    let reported = printed["result"]["details"]["reported"].as_array().expect("reported");
    assert_eq!(reported.len(), 1, "{printed:#}");
    let line = reported[0].as_str().unwrap_or_default();
    assert!(line.starts_with("<inline:spinner> context: "), "{line}");
    let expected = format!("did not return within {SHORT_CPU_LIMIT_MS} ms");
    assert!(line.contains(&expected), "{line}");
}
