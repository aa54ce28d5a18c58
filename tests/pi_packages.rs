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
    assert!(passed > 600, "only {passed} cases ran");
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
