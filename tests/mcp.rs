//! `pihost mcp` against the official MCP clients: the TypeScript SDK
//! (`@modelcontextprotocol/sdk` from extensions-examples/npm-deps) and the
//! Python SDK (`mcp` from PyPI, in target/mcp-venv, installed by
//! scripts/setup). Each client script runs its scenarios against the binary
//! and prints `ok <scenario>` or `FAILED <scenario>: …` per scenario.

mod support;

use std::path::Path;
use std::process::Command;

use support::{project_root, reference_dir};

fn run_client(program: &Path, script: &str) {
    let script = project_root().join(script);
    let output = Command::new(program)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_pihost"))
        .current_dir(project_root())
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", program.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let passed = stdout.lines().filter(|line| line.starts_with("ok ")).count();
    let failed: Vec<&str> = stdout.lines().filter(|line| line.starts_with("FAILED")).collect();
    assert!(
        output.status.success() && failed.is_empty() && passed > 0,
        "{} against pihost mcp: {} passed, failed:\n{}\n\nstdout:\n{stdout}\nstderr:\n{stderr}",
        script.display(),
        passed,
        failed.join("\n"),
    );
    eprintln!("{}: {passed} scenarios passed", script.display());
}

#[test]
fn the_typescript_sdk_client_lists_calls_cancels_and_answers_dialogs() {
    let Some(reference) = reference_dir() else {
        return;
    };
    let sdk = project_root().join("extensions-examples/npm-deps/node_modules/@modelcontextprotocol/sdk");
    assert!(
        sdk.exists(),
        "the TypeScript MCP SDK is not installed at {} (run scripts/setup)",
        sdk.display()
    );
    run_client(&reference.join("node_modules/.bin/node"), "tests/mcp/ts-client.mjs");
}

#[test]
fn the_python_sdk_client_lists_calls_cancels_and_answers_dialogs() {
    let python = project_root().join("target/mcp-venv/bin/python");
    assert!(
        python.exists(),
        "the Python MCP SDK's virtual environment is missing at {} (run scripts/setup)",
        python.display()
    );
    run_client(&python, "tests/mcp/python-client.py");
}
