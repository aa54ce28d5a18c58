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
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
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
    let (report, code) = pihost_inspect(&project_root(), agent.path(), &["extensions-examples"]);
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
fn the_not_implemented_list_in_docs_is_current() {
    let (generated, stderr, code) = pihost(&["modules", "--markdown"]);
    assert_eq!(code, 0, "{stderr}");
    let committed = std::fs::read_to_string(project_root().join("docs/not-implemented.md")).expect("docs file");
    assert!(
        generated == committed,
        "docs/not-implemented.md is out of date: regenerate it with\n  cargo run -- modules --markdown > docs/not-implemented.md"
    );
    assert!(
        generated.contains("`Editor`"),
        "pi-tui's Editor is listed as not implemented"
    );
    assert!(!generated.contains("`StringEnum`"), "StringEnum is implemented");
}
