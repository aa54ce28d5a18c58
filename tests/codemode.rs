//! pi's codemode tool (`createCodemodeExtension`) inside pihost, where each
//! script runs in a sandbox runtime of its own (src/ops/codemode_sandbox.rs)
//! instead of pi's QuickJS WebAssembly VM. pi's own behaviour (output,
//! errors, timeouts, aborts, tool calls, the store) is checked against the
//! reference by the pi-packages goldens (`cargo test --test pi_packages`);
//! these are what a runaway or hostile script does to the host.

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

const EXTENSION: &str = r#"import { createCodemodeExtension } from "@earendil-works/pi-coding-agent";
export default createCodemodeExtension();
"#;

/// Runs `code` through the codemode tool of a one-shot `pihost tool`; the
/// text of the result, whether it is an error, and the exit status.
fn run_script(folder: &Path, code: &str) -> (String, bool, i32) {
    let extension = folder.join("codemode.ts");
    std::fs::write(&extension, EXTENSION).expect("extension written");
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["tool", "codemode", "--timeout-ms", "120000", "--args"])
        .arg(json!({ "code": code }).to_string())
        .arg("-e")
        .arg(&extension)
        .current_dir(folder)
        .output()
        .expect("pihost runs");
    let (printed, status) = support::printed_json(&output);
    let result = &printed["result"];
    let text = result["content"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_else(|| panic!("no result: {printed:#}"));
    (text, result["isError"] == Value::Bool(true), status)
}

#[test]
fn a_script_sees_the_language_and_its_tools_and_nothing_of_the_host() {
    let folder = tempfile::tempdir().expect("temp dir");
    let (text, is_error, status) = run_script(
        folder.path(),
        r#"const reached = {};
for (const name of ["Deno", "__bootstrap", "require", "process", "fetch", "WebAssembly", "setTimeout", "Buffer"]) reached[name] = typeof globalThis[name];
reached.import = await import("node:fs").then(() => "imported", () => "refused");
reached.dynamicFunction = (() => { try { return typeof Function("return this")().Deno; } catch (error) { return error.name; } })();
return reached;"#,
    );
    assert_eq!(status, 0, "{text}");
    assert!(!is_error, "{text}");
    let reached: Value = serde_json::from_str(text.lines().last().unwrap_or_default()).expect("the script's JSON");
    assert_eq!(
        reached,
        json!({
            "Deno": "undefined", "__bootstrap": "undefined", "require": "undefined", "process": "undefined",
            "fetch": "undefined", "WebAssembly": "undefined", "setTimeout": "undefined", "Buffer": "undefined",
            "import": "refused", "dynamicFunction": "undefined",
        })
    );
}

#[test]
fn a_script_that_allocates_without_end_fails_out_of_memory_and_the_host_answers() {
    let folder = tempfile::tempdir().expect("temp dir");
    // Large native allocations (engine notes 12 and 32), then many small strings.
    for code in [
        "const keep = []; for (;;) keep.push(new Array(1 << 20).fill(1));",
        r#"const keep = []; for (let i = 0; ; i++) keep.push("x".repeat(1 << 22) + i);"#,
        "const keep = []; for (let i = 0; ; i++) keep.push({ i, text: String(i) });",
    ] {
        let (text, is_error, status) = run_script(folder.path(), code);
        assert_eq!(status, 0, "{code}: {text}");
        assert!(is_error, "{code}: {text}");
        assert!(text.contains("InternalError: out of memory"), "{code}: {text}");
    }
}

#[test]
fn runaway_recursion_ends_in_a_range_error() {
    let folder = tempfile::tempdir().expect("temp dir");
    let (text, is_error, status) = run_script(
        folder.path(),
        "function deeper(n) { return deeper(n + 1) + 1; }\nreturn deeper(0);",
    );
    assert_eq!(status, 0, "{text}");
    assert!(is_error, "{text}");
    assert!(text.contains("RangeError: Maximum call stack size exceeded"), "{text}");
}

#[test]
fn a_script_that_never_yields_is_ended_at_its_timeout() {
    let folder = tempfile::tempdir().expect("temp dir");
    for code in [
        "// @options: {\"timeout_ms\": 300}\nconsole.log(\"started\");\nfor (;;) {}",
        "// @options: {\"timeout_ms\": 300}\nfor (;;) await null;",
    ] {
        let (text, is_error, status) = run_script(folder.path(), code);
        assert_eq!(status, 0, "{code}: {text}");
        assert!(is_error, "{code}: {text}");
        // As in pi, the limit a script gets is its deadline less the wait for
        // a worker slot, a few milliseconds on a loaded machine.
        let limit_ms = text
            .split_once("Script timed out: Execution timed out after ")
            .and_then(|(_, rest)| rest.split_once(" ms"))
            .and_then(|(number, _)| number.parse::<u64>().ok());
        assert!(
            limit_ms.is_some_and(|limit| (250..=300).contains(&limit)),
            "{code}: {text}"
        );
    }
}
