//! `pihost inspect` as a user runs it: the human table, the JSON report and
//! the exit codes.

mod support;

use std::process::Command;

use support::*;

fn pihost(args: &[&str]) -> (String, String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(args)
        .output()
        .expect("pihost runs");
    output_text(&output)
}

#[test]
fn the_table_lists_registrations_and_points_at_the_failing_line() {
    let project = Project::new();
    project.write(
        "good.ts",
        "export default (pi) => {\n  pi.registerCommand('deploy', { handler() {} });\n  pi.registerFlag('dry-run', { type: 'boolean', default: true });\n  pi.on('tool_call', () => {});\n  pi.on('tool_call', () => {});\n};\n",
    );
    project.write(
        "bad.ts",
        "type T = string;\n\nexport default (pi) => {\n  throw new Error('cannot start');\n};\n",
    );
    let cwd = project.root.path().display().to_string();
    let agent = project.path("agent").display().to_string();
    let (stdout, stderr, code) = pihost(&["inspect", "--cwd", &cwd, "--agent-dir", &agent, "good.ts", "bad.ts"]);
    assert_eq!(code, 1, "a failed extension makes the exit code 1\n{stdout}{stderr}");
    assert!(stdout.starts_with("1 extension loaded, 1 failed"), "{stdout}");
    assert!(stdout.contains("commands   /deploy"), "{stdout}");
    assert!(stdout.contains("flags      --dry-run=true"), "{stdout}");
    assert!(stdout.contains("events     tool_call×2"), "{stdout}");
    assert!(stdout.contains("Failed to load extension: cannot start"), "{stdout}");
    assert!(
        stdout.contains(&format!("{cwd}/bad.ts:4:")),
        "the error points at line 4 of bad.ts:\n{stdout}"
    );
}

#[test]
fn json_output_is_the_report_and_success_exits_zero() {
    let project = Project::new();
    let path = project.write(
        "only.ts",
        "export default (pi) => pi.registerCommand('only', { handler() {} });\n",
    );
    let cwd = project.root.path().display().to_string();
    let agent = project.path("agent").display().to_string();
    let (stdout, _, code) = pihost(&["inspect", "--json", "--cwd", &cwd, "--agent-dir", &agent, &path]);
    assert_eq!(code, 0);
    let report: pihost::InspectReport = serde_json::from_str(&stdout).expect("the JSON is an InspectReport");
    assert_eq!(report.extensions.len(), 1);
    assert_eq!(report.extensions[0].commands[0].name, "only");
    assert!(report.errors.is_empty());
}

#[test]
fn a_cwd_that_is_not_a_directory_is_a_clear_error() {
    let (_, stderr, code) = pihost(&["inspect", "--cwd", "/definitely/not/here"]);
    assert_eq!(code, 2);
    assert_eq!(stderr.trim(), "pihost: --cwd /definitely/not/here is not a directory");
}

#[test]
fn the_examples_folder_loads_with_only_its_intended_failures() {
    let agent = tempfile::tempdir().expect("tempdir");
    // The MCP SDK's module takes seconds to evaluate in a debug build on a
    // busy machine, and the limits count wall-clock time: their defaults
    // (10 s for one synchronous run) would fail it for the machine's sake.
    let (report, code) = pihost_inspect(
        &project_root(),
        agent.path(),
        &[
            "--cpu-limit-ms",
            "120000",
            "--load-timeout-ms",
            "120000",
            "extensions-examples",
        ],
    );
    assert_eq!(code, 1);
    let failed: Vec<String> = report["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|error| {
            let path = error["path"].as_str().unwrap_or_default();
            path.rsplit('/').next().unwrap_or_default().to_string()
        })
        .collect();
    assert_eq!(
        failed,
        [
            "bad-tool-schema.ts",
            "named-export-only.ts",
            "not-a-function.ts",
            "throwing-factory.ts"
        ]
    );
    assert!(report["extensions"].as_array().expect("extensions").len() >= 12);
}

#[test]
fn the_protocol_schema_in_docs_is_generated_from_the_rust_types() {
    let (generated, stderr, code) = pihost(&["serve", "--schema"]);
    assert_eq!(code, 0, "{stderr}");
    let committed = std::fs::read_to_string(project_root().join("docs/protocol.schema.json")).expect("schema file");
    assert!(
        generated == committed,
        "docs/protocol.schema.json is out of date: regenerate it with\n  cargo run -- serve --schema > docs/protocol.schema.json"
    );
    let schema: serde_json::Value = serde_json::from_str(&generated).expect("the schema is JSON");
    // Every message may name its session, besides its own params.
    let execute_tool = &schema["methods"]["executeTool"]["params"]["allOf"];
    assert_eq!(execute_tool[0]["$ref"], "#/$defs/ExecuteToolParams");
    assert_eq!(execute_tool[1]["$ref"], "#/$defs/SessionAddress");
    assert_eq!(
        schema["$defs"]["SessionAddress"]["properties"]["session"]["type"],
        "string"
    );
    assert_eq!(
        schema["$defs"]["ExecuteToolParams"]["required"],
        serde_json::json!(["name"]),
        "a tool call needs a name"
    );
    let requests = schema["toAgent"]["requests"]["allOf"][0]["$ref"]
        .as_str()
        .expect("host requests");
    let name = requests.trim_start_matches("#/$defs/");
    let variants = schema["$defs"][name]["oneOf"]
        .as_array()
        .expect("one schema per host request");
    assert!(
        variants
            .iter()
            .any(|variant| variant["properties"]["method"]["const"] == "ui.confirm"),
        "ui.confirm is a host request"
    );
}

#[test]
fn the_not_implemented_list_in_docs_is_current() {
    let (generated, stderr, code) = pihost(&["modules", "--markdown"]);
    assert_eq!(code, 0, "{stderr}");
    let committed = std::fs::read_to_string(project_root().join("docs/not-implemented.md")).expect("docs file");
    assert!(
        generated == committed,
        "docs/not-implemented.md is out of date: regenerate it with\n  cargo run -- modules --markdown > docs/not-implemented.md"
    );
    assert!(
        generated.contains("`ProcessTerminal`"),
        "pi-tui's ProcessTerminal is listed as not implemented"
    );
    assert!(!generated.contains("`Editor`"), "Editor is implemented");
    assert!(!generated.contains("`StringEnum`"), "StringEnum is implemented");
}

const GUARD: &str = r#"
export default function (pi) {
  pi.on("tool_call", async (event) => (event.input.command.startsWith("rm") ? { block: true, reason: "refused" } : undefined));
  pi.on("agent_end", async () => { throw new Error("handler failed"); });
  pi.registerCommand("greet", { handler: async (args, ctx) => { const name = await ctx.ui.input("Name?"); pi.sendMessage({ customType: "greeting", content: `${args} ${name}` }); return name; } });
  pi.registerTool({ name: "upper", parameters: { type: "object" }, execute: async (id, args) => ({ content: [{ type: "text", text: args.text.toUpperCase() }], details: {} }) });
}
"#;

fn one_shot(project: &Project, args: &[&str]) -> (serde_json::Value, i32) {
    let cwd = project.root.path().display().to_string();
    let agent = project.path("agent").display().to_string();
    let mut all = args.to_vec();
    all.extend(["--cwd", &cwd, "--agent-dir", &agent, "-e", "guard.ts"]);
    let (stdout, stderr, code) = pihost(&all);
    (
        serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("not JSON: {stdout}\n{stderr}")),
        code,
    )
}

#[test]
fn emit_prints_the_merged_result_and_the_reported_errors() {
    let project = Project::new();
    project.write("guard.ts", GUARD);
    let (output, code) = one_shot(
        &project,
        &[
            "emit",
            "--event",
            r#"{"type":"tool_call","toolName":"bash","toolCallId":"1","input":{"command":"rm -rf /"}}"#,
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(
        output["result"],
        serde_json::json!({ "block": true, "reason": "refused" })
    );
    let (output, _) = one_shot(&project, &["emit", "--event", r#"{"type":"agent_end","messages":[]}"#]);
    assert_eq!(output.get("result"), None, "undefined stays absent");
    assert_eq!(output["errors"][0]["event"], "agent_end");
    assert_eq!(output["errors"][0]["error"], "handler failed");
}

#[test]
fn command_and_tool_run_with_a_recording_host_and_canned_answers() {
    let project = Project::new();
    project.write("guard.ts", GUARD);
    let (output, code) = one_shot(
        &project,
        &["command", "greet", "--args", "hello", "--answer", r#"ui.input="Ada""#],
    );
    assert_eq!(code, 0, "{output}");
    assert_eq!(output["result"], "Ada");
    assert_eq!(output["hostCalls"][0]["method"], "ui.input");
    assert_eq!(output["hostCalls"][1]["message"]["content"], "hello Ada");
    let (output, code) = one_shot(&project, &["tool", "upper", "--args", r#"{"text":"shout"}"#]);
    assert_eq!(code, 0);
    assert_eq!(output["result"]["content"][0]["text"], "SHOUT");
    let (output, code) = one_shot(&project, &["command", "missing"]);
    assert_eq!(code, 1);
    assert_eq!(output["error"], "Unknown command: /missing");
}

const COUNTER: &str = r#"
import { Type } from "typebox";
export default function (pi) {
  pi.registerTool({ name: "count", label: "Count", description: "Counts",
    parameters: Type.Object({ n: Type.Integer({ minimum: 0 }), label: Type.Optional(Type.String()) }),
    prepareArguments: (args) => (typeof args.count === "number" ? { n: args.count } : args),
    execute: async (id, args) => ({ content: [{ type: "text", text: JSON.stringify(args) }], details: {} }) });
}
"#;

#[test]
fn tool_arguments_are_repaired_coerced_and_validated_before_execute_as_pi_does() {
    let project = Project::new();
    // one_shot loads guard.ts.
    project.write("guard.ts", COUNTER);
    let (output, code) = one_shot(&project, &["tool", "count", "--args", r#"{"n":"42"}"#]);
    assert_eq!(code, 0, "{output}");
    assert_eq!(
        output["result"]["content"][0]["text"], r#"{"n":42}"#,
        "pi-ai coerces \"42\""
    );
    let (output, code) = one_shot(&project, &["tool", "count", "--args", r#"{"count":3}"#]);
    assert_eq!(code, 0, "{output}");
    assert_eq!(
        output["result"]["content"][0]["text"], r#"{"n":3}"#,
        "prepareArguments ran first"
    );
    let (output, code) = one_shot(&project, &["tool", "count", "--args", r#"{"n":-1}"#]);
    assert_eq!(code, 1, "{output}");
    assert_eq!(
        output["error"],
        "Validation failed for tool \"count\":\n  - n: expected >= 0\n\nReceived arguments:\n{\n  \"n\": -1\n}"
    );
}

#[test]
fn compat_reports_pass_per_scenario_and_fails_on_a_missing_recording() {
    let scenario = project_root().join("tests/compat/scenarios/h3-no-handlers-fast-path");
    let (stdout, _, code) = pihost(&["compat", &scenario.display().to_string()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");

    let project = Project::new();
    project.write("case/scenario.json", r#"{ "extensions": [], "steps": [] }"#);
    let (stdout, _, code) = pihost(&["compat", &project.path("case").display().to_string()]);
    assert_eq!(code, 1);
    assert!(stdout.contains("no expected.json"), "{stdout}");
    assert!(stdout.ends_with("0 passed, 1 failed\n"), "{stdout}");
}

#[test]
fn what_extensions_print_goes_to_stderr_in_nodes_format_and_the_json_report_stays_clean() {
    let project = Project::new();
    let path = project.write(
        "chatty.ts",
        "export default function () { console.log(\"loaded\", { a: [1, 2], b: 'x' }); process.stdout.write(\"raw\\n\"); }\n",
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["inspect", "--json", &path])
        .current_dir(project.root.path())
        .output()
        .expect("pihost runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("stdout is only the JSON report");
    assert_eq!(report["errors"], serde_json::json!([]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("loaded { a: [ 1, 2 ], b: 'x' }\nraw\n"), "{stderr}");
}
