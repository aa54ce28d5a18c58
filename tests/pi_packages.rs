//! pi's own packages as extensions get them (issue 5): the goldens recorded
//! from the reference (reference-data/pi-tui-goldens.json,
//! reference-data/pi-packages-goldens.json) replayed inside pihost through
//! the virtual modules, by tests/pi-packages/in-pihost.ts.

mod support;

use std::process::Command;

use serde_json::Value;
use support::*;

fn replay(tool: &str) -> (u64, Vec<String>) {
    let extension = project_root().join("tests/pi-packages/in-pihost.ts");
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        // The replay is one long synchronous batch (thousands of goldens, debug
        // build): no CPU limit for it.
        .args(["tool", tool, "--timeout-ms", "60000", "--cpu-limit-ms", "0", "-e"])
        .arg(&extension)
        .output()
        .expect("pihost runs");
    let printed: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("pihost printed no JSON: {}", String::from_utf8_lossy(&output.stderr)));
    assert!(printed.get("error").is_none(), "{printed:#}");
    let text = printed["result"]["content"][0]["text"].as_str().expect("a summary");
    let summary: Value = serde_json::from_str(text).expect("JSON summary");
    // Differences the engine makes and the comparison knows of (engine note 47).
    if let Some(divergences) = summary["knownDivergences"].as_array().filter(|list| !list.is_empty()) {
        eprintln!("{tool}: {} known divergences: {divergences:?}", divergences.len());
    }
    let failures = summary["failures"]
        .as_array()
        .map(|failures| failures.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    (summary["passed"].as_u64().unwrap_or(0), failures)
}

#[test]
fn pi_tui_renders_measures_and_matches_keys_as_the_reference_does() {
    let (passed, failures) = replay("pi-tui-goldens");
    assert!(
        failures.is_empty(),
        "{} differ from pi-tui:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(passed > 3000, "only {passed} cases ran");
}

#[test]
fn typebox_schemas_values_and_coding_agent_helpers_match_the_reference() {
    let (passed, failures) = replay("pi-packages-goldens");
    assert!(
        failures.is_empty(),
        "{} differ from pi 1.6.0:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(passed > 1900, "only {passed} cases ran");
}

#[test]
fn built_in_tools_read_write_edit_search_and_run_as_pi_does() {
    let (passed, failures) = replay("builtin-tools-goldens");
    assert!(
        failures.is_empty(),
        "{} differ from pi 1.6.0's tools:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(passed > 200, "only {passed} cases ran");
}

#[test]
fn pi_ai_streams_costs_ids_and_no_provider_errors_match_the_reference() {
    let (passed, failures) = replay("pi-ai-goldens");
    assert!(
        failures.is_empty(),
        "{} differ from pi-ai:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(passed > 250, "only {passed} cases ran");
}

#[test]
fn the_theme_markdown_and_coding_agent_ui_pieces_render_as_pi_does() {
    let (passed, failures) = replay("ui-goldens");
    assert!(
        failures.is_empty(),
        "{} differ from pi's UI:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(passed > 100, "only {passed} cases ran");
}

/// pi reads a command's stdout and stderr from two pipes, so output written
/// to both within microseconds can come back out of order (recording pi
/// 1.6.0 three times in a row gave `hello oops 2 3 4` once and
/// `hello 2 4 oops 3` twice). pihost's bash tool gives them one pipe.
#[test]
fn the_bash_tool_keeps_the_order_a_command_wrote_its_output_in() {
    let project = Project::new();
    let extension = project.write(
        "bash.ts",
        r#"
import { createBashTool } from "@earendil-works/pi-coding-agent";
export default function (pi) {
  pi.registerTool({ ...createBashTool(process.cwd()), name: "shell" });
}
"#,
    );
    runtime().block_on(async {
        let pihost = pihost::Pihost::start(project.options()).await.expect("start");
        pihost.load(&[extension]).await.expect("load");
        let host = std::sync::Arc::new(pihost::host::RecordingHost::new());
        pihost
            .bind(host, &pihost::host::HostState::default())
            .await
            .expect("bind");
        for attempt in 0..5 {
            let (updates, mut received) = tokio::sync::mpsc::unbounded_channel();
            let result = pihost
                .execute_tool(
                    "shell",
                    "call",
                    &serde_json::json!({ "command": "echo hello; echo oops >&2; echo 2; echo 3 >&2; echo 4; nosuch" }),
                    Some(updates),
                )
                .await
                .expect("the call")
                .expect("a result");
            let output = result["structuredContent"]["output"].as_str().expect("output");
            assert_eq!(
                output, "hello\noops\n2\n3\n4\n/bin/bash: line 1: nosuch: command not found\n",
                "attempt {attempt}: in the order written, the shell's own error text unchanged"
            );
            let mut last_update = None;
            while let Ok(update) = received.try_recv() {
                last_update = Some(update);
            }
            let streamed = last_update.expect("streamed updates")["content"][0]["text"].clone();
            assert_eq!(
                streamed,
                Value::String(output.to_string()),
                "the streamed output in the same order"
            );
        }
    });
}
