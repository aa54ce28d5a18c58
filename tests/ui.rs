//! The scripted UI (`pihost tool|command … --keys … --width N`) as an
//! extension author uses it: pihost draws the extension's own
//! `ctx.ui.custom` component, sends it the keys, and prints what the
//! component answered and what it drew. pi's own examples are loaded from the
//! reference install.

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::*;

/// Runs pihost in an empty project (no extensions of the user's are
/// discovered); the JSON it printed and the exit code.
fn run(project: &Project, args: &[&str]) -> (Value, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(args)
        // One colour mode whatever the terminal the tests run in.
        .env("PI_TRUE_COLOR", "1")
        .arg("--cwd")
        .arg(project.root.path())
        .arg("--agent-dir")
        .arg(project.path("agent"))
        .output()
        .expect("pihost runs");
    printed_json(&output)
}

/// Every frame's lines as a terminal shows them.
fn frames(output: &Value) -> Vec<Vec<String>> {
    output["frames"]
        .as_array()
        .unwrap_or_else(|| panic!("no frames in {output:#}"))
        .iter()
        .map(|frame| {
            frame["lines"]
                .as_array()
                .unwrap_or_else(|| panic!("a frame without lines: {frame:#}"))
                .iter()
                .map(|line| visible(line.as_str().unwrap_or_default()))
                .collect()
        })
        .collect()
}

fn result_text(output: &Value) -> &str {
    output["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text result in {output:#}"))
}

const QUESTION_ARGS: &str = r#"{"question":"Pick a colour","options":[{"label":"Alpha"},{"label":"Beta"}]}"#;

#[test]
fn the_question_example_answers_what_the_keys_picked_and_shows_the_question() {
    let Some(question) = pi_example("question.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "tool",
            "question",
            "-e",
            &question,
            "--args",
            QUESTION_ARGS,
            "--keys",
            "down,enter",
            "--width",
            "60",
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(result_text(&output), "User selected: 2. Beta");
    let frames = frames(&output);
    let first = frames.first().expect("the component drew a first frame");
    assert!(first.iter().any(|line| line.contains("Pick a colour")), "{first:#?}");
    assert!(
        first.iter().any(|line| line == "> 1. Alpha"),
        "Alpha is selected at first: {first:#?}"
    );
    assert!(
        frames.iter().any(|frame| frame.iter().any(|line| line == "> 2. Beta")),
        "down moved the selection to Beta in a frame: {frames:#?}"
    );
    for line in frames.iter().flatten() {
        assert!(line.chars().count() <= 60, "a line wider than --width 60: {line:?}");
    }
    assert!(
        first.iter().any(|line| line == &"─".repeat(60)),
        "the border spans the width: {first:#?}"
    );
    assert!(output.get("unusedKeys").is_none(), "{output:#}");
    assert_eq!(output["frames"][0]["extension"], Value::String(question.clone()));
}

#[test]
fn the_question_example_without_keys_keeps_pi_headless_answer() {
    let Some(question) = pi_example("question.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &["tool", "question", "-e", &question, "--args", QUESTION_ARGS],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(
        result_text(&output),
        "Error: UI not available (running in non-interactive mode)"
    );
    assert!(output.get("frames").is_none(), "no UI, no frames: {output:#}");
}

#[test]
fn keys_left_when_the_component_is_gone_are_reported_and_escape_cancels() {
    let Some(question) = pi_example("question.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "tool",
            "question",
            "-e",
            &question,
            "--args",
            QUESTION_ARGS,
            "--keys",
            "escape,down,enter",
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(result_text(&output), "User cancelled the selection");
    assert_eq!(output["unusedKeys"], serde_json::json!(["down", "enter"]));
}

#[test]
fn a_component_still_open_when_the_keys_run_out_is_closed_and_its_promise_rejects() {
    let Some(question) = pi_example("question.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "tool",
            "question",
            "-e",
            &question,
            "--args",
            QUESTION_ARGS,
            "--keys",
            "down",
        ],
    );
    assert_eq!(code, 1, "{output:#}");
    assert_eq!(
        output["error"],
        "pihost: the keys given with --keys ran out while this component was still open"
    );
    assert_eq!(output["closedComponents"], serde_json::json!([1]), "{output:#}");
    assert_eq!(
        frames(&output).len(),
        3,
        "the first frame, the one after down, and the closing one: {output:#}"
    );
}

#[test]
fn raw_sequences_are_sent_as_given() {
    let Some(question) = pi_example("question.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "tool",
            "question",
            "-e",
            &question,
            "--args",
            QUESTION_ARGS,
            "--keys",
            r#"["\u001b[B", "\r"]"#,
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(result_text(&output), "User selected: 2. Beta");
}

#[test]
fn an_unknown_key_name_is_refused_before_anything_runs() {
    let Some(question) = pi_example("question.ts") else {
        return;
    };
    let project = Project::new();
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args([
            "tool",
            "question",
            "-e",
            &question,
            "--args",
            QUESTION_ARGS,
            "--keys",
            "down,sideways",
        ])
        .arg("--cwd")
        .arg(project.root.path())
        .arg("--agent-dir")
        .arg(project.path("agent"))
        .output()
        .expect("pihost runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("\"sideways\" is not a key"), "{stderr}");
}

#[test]
fn the_tools_example_toggles_a_tool_through_its_settings_list() {
    let Some(tools) = pi_example("tools.ts") else { return };
    let project = Project::new();
    let state = r#"{"allTools":[{"name":"read","description":"Read a file"},{"name":"bash","description":"Run a command"}],"activeTools":[]}"#;
    let (output, code) = run(
        &project,
        &[
            "command",
            "tools",
            "-e",
            &tools,
            "--state",
            state,
            "--keys",
            "down,enter,escape",
            "--width",
            "50",
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    let frames = frames(&output);
    let first = frames.first().expect("a first frame");
    assert!(
        first.iter().any(|line| line.contains("Tool Configuration")),
        "{first:#?}"
    );
    let row = |frame: &Vec<String>, tool: &str| {
        frame
            .iter()
            .find(|line| line.split_whitespace().any(|word| word == tool))
            .cloned()
            .unwrap_or_default()
    };
    assert!(row(first, "bash").contains("disabled"), "{first:#?}");
    let closing = output["frames"]
        .as_array()
        .and_then(|all| all.last())
        .map(|frame| frame["closed"].clone());
    assert_eq!(closing, Some(Value::Bool(true)), "escape closed the list: {output:#}");
    let last = frames
        .iter()
        .rev()
        .find(|frame| !frame.is_empty())
        .expect("a last drawn frame");
    assert!(
        row(last, "bash").contains("enabled") && !row(last, "bash").contains("disabled"),
        "{last:#?}"
    );
    assert!(row(last, "read").contains("disabled"), "{last:#?}");
    let calls = output["hostCalls"].as_array().expect("host calls");
    assert!(
        calls
            .iter()
            .any(|call| call["method"] == "setActiveTools" && call["toolNames"] == serde_json::json!(["bash"])),
        "enter on bash enabled it: {calls:#?}"
    );
    assert!(
        output.get("closedComponents").is_none(),
        "escape closed the list itself: {output:#}"
    );
}

const COMPONENTS: &str = r#"
export default (pi) => {
  pi.registerCommand("broken", {
    handler: async (_args, ctx) => {
      await ctx.ui.custom(() => ({
        render() { throw new Error("cannot draw"); },
        invalidate() {},
      }));
      return "resolved anyway";
    },
  });
  pi.registerCommand("pick", {
    handler: async (_args, ctx) => {
      let disposed = false;
      let keysAfterDone = 0;
      let closed = false;
      const picked = await ctx.ui.custom((tui, _theme, _keybindings, done) => {
        let count = 0;
        return {
          render: (width) => [`count ${count} mode ${ctx.mode} ui ${ctx.hasUI} width ${width} of ${tui.terminal.columns}`],
          invalidate() {},
          handleInput(data) {
            if (closed) keysAfterDone++;
            if (data === "\r") {
              closed = true;
              done(`picked after ${count}`);
              return;
            }
            count++;
            tui.requestRender();
            tui.requestRender();
            tui.requestRender();
          },
          dispose() { disposed = true; },
        };
      });
      return { picked, disposed, keysAfterDone };
    },
  });
  pi.registerCommand("widget", {
    handler: async (_args, ctx) => {
      let disposed = 0;
      const later = () => new Promise((resolve) => setTimeout(resolve, 10));
      ctx.ui.setWidget("clock", (tui) => ({
        render: (width) => [`first at ${width} of ${tui.terminal.columns}`],
        invalidate() {},
        dispose() { disposed++; },
      }));
      await later();
      ctx.ui.setWidget("clock", () => ({ render: (width) => [`second at ${width}`], invalidate() {} }), { placement: "belowEditor" });
      await later();
      return { disposed };
    },
  });
  pi.registerCommand("listen", {
    handler: async (_args, ctx) => {
      const seen = [];
      const stop = ctx.ui.onTerminalInput((data) => (data === "x" ? { consume: true } : data === "y" ? { data: "z" } : undefined));
      const answer = await ctx.ui.custom((_tui, _theme, _keybindings, done) => ({
        render: (width) => [`seen ${seen.join("")}`.slice(0, width)],
        invalidate() {},
        handleInput(data) {
          if (data === "\r") return done(seen.join(""));
          seen.push(data);
        },
      }));
      stop();
      return answer;
    },
  });
  pi.registerCommand("spin", {
    handler: (_args, ctx) => ctx.ui.custom(() => ({ render() { for (;;) {} }, invalidate() {} })),
  });
  pi.registerCommand("wide", {
    handler: (_args, ctx) => ctx.ui.custom(() => ({ render: (width) => ["x".repeat(width + 1)], invalidate() {} })),
  });
  pi.registerCommand("footer", {
    handler: async (_args, ctx) => {
      const later = () => new Promise((resolve) => setTimeout(resolve, 10));
      ctx.ui.setFooter((_tui, _theme, footerData) => ({
        render: () => [`branch ${footerData.getGitBranch()} ${[...footerData.getExtensionStatuses()].map(([key, text]) => `${key}=${text}`).join(" ")}`],
        invalidate() {},
      }));
      await later();
      ctx.ui.setStatus("mode", "plan");
      await later();
      ctx.ui.setHeader(() => ({ render: (width) => ["=".repeat(width)], invalidate() {} }));
      await later();
    },
  });
};
"#;

#[test]
fn a_component_that_throws_in_render_is_reported_closed_and_rejects_its_promise() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let started = Instant::now();
    let (output, code) = run(
        &project,
        &[
            "command",
            "broken",
            "-e",
            &path,
            "--keys",
            "enter",
            "--timeout-ms",
            "20000",
        ],
    );
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "the failure ends the call at once, not at its timeout"
    );
    assert_eq!(code, 1, "{output:#}");
    assert_eq!(
        output["error"], "cannot draw",
        "the command's await rejected: {output:#}"
    );
    let errors = output["errors"].as_array().expect("errors");
    assert!(
        errors
            .iter()
            .any(|error| error["extensionPath"] == Value::String(path.clone()) && error["error"] == "cannot draw"),
        "the error is reported as the extension's: {errors:#?}"
    );
    assert_eq!(output["frames"], serde_json::json!([]), "nothing was drawn: {output:#}");
    assert_eq!(
        output["unusedKeys"],
        serde_json::json!(["enter"]),
        "no component took the key"
    );
}

#[test]
fn done_settles_the_promise_and_disposes_the_component_and_renders_coalesce() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let (output, code) = run(
        &project,
        &["command", "pick", "-e", &path, "--keys", "a,b,enter,c", "--width", "44"],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(
        output["result"],
        serde_json::json!({ "picked": "picked after 2", "disposed": true, "keysAfterDone": 0 })
    );
    assert_eq!(
        frames(&output),
        vec![
            vec!["count 0 mode tui ui true width 44 of 44".to_string()],
            vec!["count 1 mode tui ui true width 44 of 44".to_string()],
            vec!["count 2 mode tui ui true width 44 of 44".to_string()],
            vec![],
        ],
        "one frame per change, however often the component asks for one, and an empty one when done closed it"
    );
    assert_eq!(output["frames"][3]["closed"], true, "{output:#}");
    assert_eq!(
        output["unusedKeys"],
        serde_json::json!(["c"]),
        "a closed component takes no keys"
    );
}

#[test]
fn key_names_become_sequences_pi_tui_reads_as_those_keys() {
    let project = Project::new();
    runtime().block_on(async {
        let pihost = pihost::Pihost::start(project.options()).await.expect("start");
        let names: Vec<String> = [
            "up",
            "down",
            "left",
            "right",
            "enter",
            "escape",
            "tab",
            "shift+tab",
            "space",
            "backspace",
            "delete",
            "home",
            "end",
            "pageUp",
            "pageDown",
            "f1",
            "f3",
            "f12",
            "a",
            "A",
            "shift+a",
            "1",
            "ctrl+c",
            "ctrl+d",
            "alt+x",
            "ctrl+shift+p",
            "shift+enter",
            "ctrl+left",
            "alt+up",
            "ctrl+delete",
        ]
        .iter()
        .map(|name| name.to_string())
        .collect();
        let sequences = pihost.key_sequences(&names).await.expect("every name is a key");
        assert_eq!(sequences[0], "\u{1b}[A", "up is what a terminal sends");
        assert_eq!(&sequences[4..6], ["\r", "\u{1b}"]);
        assert_eq!(sequences[22], "\u{3}", "ctrl+c is ETX");
        let distinct: std::collections::BTreeSet<_> = sequences.iter().collect();
        // pi-tui reads key ids without case: "A" is "a" (shift+a is "A").
        assert_eq!(distinct.len(), names.len() - 1, "{names:?} -> {sequences:?}");
        let unknown = pihost.key_sequences(&["sideways".to_string()]).await;
        assert!(unknown.is_err(), "an unknown name is an error: {unknown:?}");
    });
}

#[test]
fn widgets_are_drawn_into_the_frames_and_a_new_one_replaces_the_old() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let (output, code) = run(
        &project,
        &["command", "widget", "-e", &path, "--keys", "", "--width", "40"],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(
        output["result"],
        serde_json::json!({ "disposed": 1 }),
        "the replaced widget was disposed"
    );
    let drawn: Vec<(Value, Value, Vec<String>)> = output["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|frame| {
            (
                frame["widget"].clone(),
                frame["placement"].clone(),
                frames(&serde_json::json!({ "frames": [frame] })).remove(0),
            )
        })
        .collect();
    assert_eq!(
        drawn,
        vec![
            (
                Value::from("clock"),
                Value::from("aboveEditor"),
                vec!["first at 40 of 40".to_string()]
            ),
            (Value::from("clock"), Value::from("aboveEditor"), vec![]),
            (
                Value::from("clock"),
                Value::from("belowEditor"),
                vec!["second at 40".to_string()]
            ),
        ]
    );
    assert_eq!(
        output["frames"][1]["closed"], true,
        "the replaced widget is erased: {output:#}"
    );
    let told = output["hostCalls"]
        .as_array()
        .expect("host calls")
        .iter()
        .filter(|call| call["method"] == "ui.setWidget")
        .count();
    assert_eq!(told, 2, "the host is still told of each widget: {output:#}");
}

#[test]
fn the_widget_placement_example_draws_its_lines_above_and_below_the_editor() {
    let Some(example) = pi_example("widget-placement.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "emit",
            "--event",
            r#"{"type":"session_start","reason":"startup"}"#,
            "-e",
            &example,
            "--keys",
            "",
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    let shown: Vec<(String, String)> = output["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|frame| {
            let text: Vec<String> = frame["lines"]
                .as_array()
                .expect("lines")
                .iter()
                .map(|line| visible(line.as_str().unwrap_or_default()).trim().to_string())
                .collect();
            (
                frame["placement"].as_str().unwrap_or_default().to_string(),
                text.join("\n"),
            )
        })
        .collect();
    assert_eq!(
        shown,
        vec![
            ("aboveEditor".to_string(), "Above editor widget".to_string()),
            ("belowEditor".to_string(), "Below editor widget".to_string()),
        ]
    );
}

/// The same call under the reference pi with a UI: its frames and result
/// (tests/reference/drive-ui-reference.mjs).
fn reference_run(
    project: &Project,
    extension: &str,
    call: [&str; 2],
    args: &str,
    raw_keys: &[&str],
    width: u16,
) -> Value {
    let reference = reference_dir().expect("the reference is installed");
    let output = Command::new(reference.join("node_modules/.bin/node"))
        .arg(project_root().join("tests/reference/drive-ui-reference.mjs"))
        .arg("--pi-dir")
        .arg(&reference)
        .args(["--extension", extension, call[0], call[1], "--args", args])
        .args(["--keys", &serde_json::to_string(raw_keys).expect("keys as JSON")])
        .args(["--width", &width.to_string()])
        .env("PI_TRUE_COLOR", "1")
        .current_dir(project.root.path())
        .output()
        .expect("the reference node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!(
            "the reference printed no JSON ({error}):\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn raw_frames(output: &Value) -> Vec<Value> {
    output["frames"]
        .as_array()
        .unwrap_or_else(|| panic!("no frames in {output:#}"))
        .iter()
        .map(|frame| frame["lines"].clone())
        .collect()
}

/// pihost's frames and answer for `keys` are the reference pi's, byte for byte.
fn assert_draws_as_pi(example: &str, tool: &str, args: &str, keys: &str, raw_keys: &[&str], width: u16) {
    let Some(path) = pi_example(example) else { return };
    let project = Project::new();
    let width_text = width.to_string();
    let (ours, code) = run(
        &project,
        &[
            "tool",
            tool,
            "-e",
            &path,
            "--args",
            args,
            "--keys",
            keys,
            "--width",
            &width_text,
        ],
    );
    assert_eq!(code, 0, "{ours:#}");
    let theirs = reference_run(&project, &path, ["--tool", tool], args, raw_keys, width);
    assert_eq!(ours["result"], theirs["result"], "the same answer as pi");
    let closing = ours["frames"]
        .as_array()
        .and_then(|all| all.last())
        .map(|frame| frame["closed"].clone());
    assert_eq!(
        closing,
        Some(Value::Bool(true)),
        "pihost says the component is gone: {ours:#}"
    );
    let (mut ours, theirs) = (raw_frames(&ours), raw_frames(&theirs));
    ours.pop();
    assert!(theirs.len() > 1, "pi drew more than one frame: {theirs:#?}");
    assert_eq!(
        ours,
        theirs,
        "pihost's frames are pi's:\n{}",
        json_diff(&Value::Array(theirs.clone()), &Value::Array(ours.clone()))
    );
}

#[test]
fn the_question_example_draws_what_pi_draws_typing_an_answer_too() {
    assert_draws_as_pi(
        "question.ts",
        "question",
        r#"{"question":"Pick a colour","options":[{"label":"Alpha","description":"the first"},{"label":"Beta"}]}"#,
        "down,down,enter,h,i,left,x,enter",
        &["\u{1b}[B", "\u{1b}[B", "\r", "h", "i", "\u{1b}[D", "x", "\r"],
        40,
    );
}

#[test]
fn the_questionnaire_example_draws_what_pi_draws_across_its_tabs() {
    assert_draws_as_pi(
        "questionnaire.ts",
        "questionnaire",
        r#"{"questions":[{"id":"c","prompt":"Colour?","options":[{"value":"r","label":"Red"},{"value":"g","label":"Green"}]},{"id":"s","prompt":"Size?","options":[{"value":"s","label":"Small"},{"value":"l","label":"Large"}]}]}"#,
        "down,enter,enter,enter",
        &["\u{1b}[B", "\r", "\r", "\r"],
        50,
    );
}

#[test]
fn the_footer_shows_the_statuses_and_the_header_goes_above_everything() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let (output, code) = run(
        &project,
        &["command", "footer", "-e", &path, "--keys", "", "--width", "30"],
    );
    assert_eq!(code, 0, "{output:#}");
    let drawn: Vec<(Value, Vec<String>)> = output["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|frame| {
            (
                frame["kind"].clone(),
                frame["lines"]
                    .as_array()
                    .expect("lines")
                    .iter()
                    .map(|line| line.as_str().unwrap_or_default().to_string())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        drawn,
        vec![
            (Value::from("footer"), vec!["branch null ".to_string()]),
            (Value::from("footer"), vec!["branch null mode=plan".to_string()]),
            (Value::from("header"), vec!["=".repeat(30)]),
        ],
        "a status reaches the footer at once; the header is drawn at the width"
    );
}

#[test]
fn the_custom_header_example_draws_pi_s_mascot() {
    let Some(example) = pi_example("custom-header.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "emit",
            "--event",
            r#"{"type":"session_start","reason":"startup"}"#,
            "-e",
            &example,
            "--keys",
            "",
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    let frames_of_header: Vec<&Value> = output["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .filter(|frame| frame["kind"] == "header")
        .collect();
    assert_eq!(frames_of_header.len(), 1, "{output:#}");
    let lines = frames(&serde_json::json!({ "frames": frames_of_header }));
    assert!(
        lines[0].iter().any(|line| line.contains("██████████████")),
        "{lines:#?}"
    );
    assert!(
        lines[0].iter().any(|line| line.contains("shitty coding agent")),
        "{lines:#?}"
    );
}

#[test]
fn a_line_wider_than_the_screen_fails_the_component_as_pi_tui_refuses_it() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let (output, code) = run(
        &project,
        &["command", "wide", "-e", &path, "--keys", "", "--width", "40"],
    );
    assert_eq!(code, 1, "{output:#}");
    let error = output["error"].as_str().expect("the command failed");
    assert!(
        error.starts_with("Rendered line 0 exceeds terminal width (41 > 40)."),
        "{error}"
    );
    assert_eq!(
        output["errors"][0]["extensionPath"],
        Value::String(path.clone()),
        "{output:#}"
    );
}

#[test]
fn terminal_input_handlers_see_keys_first_and_may_consume_or_rewrite_them() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let (output, code) = run(&project, &["command", "listen", "-e", &path, "--keys", "a,x,y,b,enter"]);
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(output["result"], "azb", "x was consumed, y became z: {output:#}");
}

/// A session with the extension at `path` loaded and a recording host bound.
async fn loaded_and_bound(
    project: &Project,
    path: &str,
) -> (pihost::Pihost, std::sync::Arc<pihost::host::RecordingHost>) {
    let pihost = pihost::Pihost::start(project.options()).await.expect("start");
    pihost.load(&[path.to_string()]).await.expect("load");
    let host = std::sync::Arc::new(pihost::host::RecordingHost::new());
    pihost
        .bind(host.clone(), &pihost::host::HostState::default())
        .await
        .expect("bind");
    (pihost, host)
}

/// [`loaded_and_bound`], with a screen of `columns` × 10 attached and the session started.
async fn started_on_a_screen(
    project: &Project,
    path: &str,
    columns: u16,
) -> (pihost::Pihost, std::sync::Arc<pihost::host::RecordingHost>) {
    let (pihost, host) = loaded_and_bound(project, path).await;
    pihost
        .attach_terminal(pihost::ui::TerminalSize { columns, rows: 10 })
        .await
        .expect("a screen");
    pihost
        .emit(&serde_json::json!({ "type": "session_start", "reason": "startup" }))
        .await
        .expect("session_start");
    (pihost, host)
}

#[test]
fn a_second_attach_terminal_draws_the_open_component_again_at_the_new_width() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    runtime().block_on(async {
        let (pihost, _host) = loaded_and_bound(&project, &path).await;
        pihost
            .attach_terminal(pihost::ui::TerminalSize { columns: 50, rows: 10 })
            .await
            .expect("a screen");
        let command = {
            let pihost = pihost.clone();
            tokio::spawn(async move { pihost.run_command("pick", "").await })
        };
        pihost.wait_for_component().await.expect("the component opens");
        pihost
            .attach_terminal(pihost::ui::TerminalSize { columns: 42, rows: 10 })
            .await
            .expect("a resize");
        let drawn: Vec<Vec<String>> = pihost
            .take_frames()
            .await
            .expect("frames")
            .into_iter()
            .map(|frame| frame.lines)
            .collect();
        assert_eq!(
            drawn,
            vec![
                vec!["count 0 mode tui ui true width 50 of 50".to_string()],
                vec!["count 0 mode tui ui true width 42 of 42".to_string()],
            ]
        );
        assert_eq!(
            pihost.send_key("\r").await.expect("a key"),
            Some(1),
            "component 1 took it"
        );
        let answer = command.await.expect("the command task").expect("the command");
        assert_eq!(
            answer,
            Some(serde_json::json!({ "picked": "picked after 0", "disposed": true, "keysAfterDone": 0 }))
        );
    });
}

#[test]
fn a_reload_takes_every_widget_off_the_screen_as_pi_resets_extension_ui() {
    let Some(example) = pi_example("widget-placement.ts") else {
        return;
    };
    let project = Project::new();
    runtime().block_on(async {
        let (pihost, _host) = started_on_a_screen(&project, &example, 40).await;
        let before = pihost.take_frames().await.expect("frames");
        assert_eq!(
            before.iter().map(|frame| frame.component).collect::<Vec<_>>(),
            vec![1, 2]
        );
        pihost.reload(std::slice::from_ref(&example)).await.expect("reload");
        let after: Vec<(u64, bool, bool)> = pihost
            .take_frames()
            .await
            .expect("frames")
            .iter()
            .map(|frame| (frame.component, frame.closed, frame.lines.is_empty()))
            .collect();
        assert_eq!(
            after,
            vec![(1, true, true), (2, true, true), (3, false, false), (4, false, false)],
            "the old widgets are erased, and session_start after the reload draws them anew"
        );
    });
}

#[test]
fn a_render_that_never_returns_is_stopped_and_fails_the_call_that_showed_it() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    let started = Instant::now();
    let (output, code) = run(
        &project,
        &[
            "command",
            "spin",
            "-e",
            &path,
            "--keys",
            "a",
            "--cpu-limit-ms",
            "300",
            "--timeout-ms",
            "30000",
        ],
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "stopped at the CPU limit, not the timeout"
    );
    assert_eq!(code, 1, "{output:#}");
    assert_eq!(
        output["error"],
        Value::String(format!(
            "Extension \"{path}\" did not return within 300 ms in its ui.custom component (terminated)"
        ))
    );
}

#[test]
fn a_pushed_screen_hands_every_frame_to_the_bound_host_as_it_is_drawn() {
    let project = Project::new();
    let path = project.write("components.ts", COMPONENTS);
    runtime().block_on(async {
        let (pihost, host) = loaded_and_bound(&project, &path).await;
        pihost
            .attach_screen(
                pihost::ui::TerminalSize { columns: 50, rows: 10 },
                pihost::ui::FrameDelivery::Push,
            )
            .await
            .expect("a screen");
        let command = {
            let pihost = pihost.clone();
            tokio::spawn(async move { pihost.run_command("pick", "").await })
        };
        pihost.wait_for_component().await.expect("the component opens");
        let pushed = || -> Vec<(u64, bool, Vec<String>)> {
            host.calls()
                .into_iter()
                .filter_map(|call| match call {
                    pihost::host::RecordedCall::Notification(pihost::host::HostNotification::UiFrame(frame)) => {
                        Some((frame.component, frame.closed, frame.lines))
                    }
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            pushed(),
            vec![(1, false, vec!["count 0 mode tui ui true width 50 of 50".to_string()])],
            "the first frame says the component opened"
        );
        assert!(
            pihost.send_key_to(1, "a").await.expect("a key"),
            "component 1 has focus and takes the key"
        );
        assert!(matches!(
            pihost.send_key_to(7, "a").await,
            Err(pihost::PihostError::UnknownComponent { id: 7 })
        ));
        pihost
            .resize_component(1, pihost::ui::TerminalSize { columns: 45, rows: 10 })
            .await
            .expect("a pane of its own");
        assert!(
            pihost.send_key_to(1, "\r").await.expect("enter"),
            "enter reaches it too"
        );
        let answer = command.await.expect("the command task").expect("the command");
        assert_eq!(
            answer,
            Some(serde_json::json!({ "picked": "picked after 1", "disposed": true, "keysAfterDone": 0 }))
        );
        assert_eq!(
            pushed(),
            vec![
                (1, false, vec!["count 0 mode tui ui true width 50 of 50".to_string()]),
                (1, false, vec!["count 1 mode tui ui true width 50 of 50".to_string()]),
                (1, false, vec!["count 1 mode tui ui true width 45 of 50".to_string()]),
                (1, true, vec![]),
            ],
            "one frame per key however often it asked to render, in order, then the closing one"
        );
        assert_eq!(
            pihost.take_frames().await.expect("frames"),
            vec![],
            "pushed frames are not kept as well"
        );
    });
}

#[test]
fn the_snake_example_reads_the_session_and_saves_its_game_into_it_on_escape() {
    let Some(snake) = pi_example("snake.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &["command", "snake", "-e", &snake, "--keys", "escape", "--width", "60"],
    );
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(
        output["errors"],
        serde_json::json!([]),
        "getEntries answered: {output:#}"
    );
    let frames = frames(&output);
    let board = frames.first().expect("the board drew");
    assert!(board.iter().any(|line| line.contains("SNAKE")), "{board:#?}");
    let saved: Vec<&Value> = output["hostCalls"]
        .as_array()
        .expect("host calls")
        .iter()
        .filter(|call| call["method"] == "appendEntry")
        .collect();
    assert_eq!(saved.len(), 1, "escape pauses and saves the game once: {output:#}");
    let entry = &saved[0]["entry"];
    assert_eq!(entry["type"], "custom");
    assert_eq!(entry["customType"], "snake-save");
    assert_eq!(entry["parentId"], Value::Null, "the first entry of an empty session");
    assert_eq!(entry["data"]["score"], 0);
}

/// Commands around the extension's editor: what the editor calls of
/// `ctx.ui` read and write, and a dialog that covers it.
const EDITOR_TOOLS: &str = r#"
export default (pi) => {
  pi.registerCommand("peek", { handler: async (_args, ctx) => ctx.ui.getEditorText() });
  pi.registerCommand("put", { handler: async (args, ctx) => ctx.ui.setEditorText(args) });
  pi.registerCommand("plain", { handler: async (_args, ctx) => ctx.ui.setEditorComponent(undefined) });
  pi.registerCommand("ask", {
    handler: async (_args, ctx) =>
      ctx.ui.custom((_tui, _theme, _kb, done) => ({
        render: () => ["a dialog"],
        invalidate() {},
        handleInput(data) { if (data === "\r") done("closed"); },
      })),
  });
};
"#;

/// The visible lines of every frame of `kind` since the last call.
async fn frames_of(pihost: &pihost::Pihost, kind: pihost::ui::FrameKind) -> Vec<(bool, bool, Vec<String>)> {
    pihost
        .take_frames()
        .await
        .expect("frames")
        .into_iter()
        .filter(|frame| frame.kind == kind)
        .map(|frame| {
            (
                frame.closed,
                frame.hidden,
                frame.lines.iter().map(|line| visible(line)).collect(),
            )
        })
        .collect()
}

fn submitted(host: &pihost::host::RecordingHost) -> Vec<String> {
    host.calls()
        .into_iter()
        .filter_map(|call| match call {
            pihost::host::RecordedCall::Notification(pihost::host::HostNotification::UiEditorSubmit { text }) => {
                Some(text)
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_modal_editor_example_takes_the_editor_place_and_its_enter_reaches_the_host() {
    let Some(modal) = pi_example("modal-editor.ts") else {
        return;
    };
    let project = Project::new();
    let tools = project.write("editor-tools.ts", EDITOR_TOOLS);
    runtime().block_on(async {
        let pihost = pihost::Pihost::start(project.options()).await.expect("start");
        pihost.load(&[modal.clone(), tools]).await.expect("load");
        let host = std::sync::Arc::new(pihost::host::RecordingHost::new());
        let state = pihost::host::HostState {
            editor_text: Some("draft".to_string()),
            ..Default::default()
        };
        pihost.bind(host.clone(), &state).await.expect("bind");
        pihost
            .attach_terminal(pihost::ui::TerminalSize { columns: 30, rows: 10 })
            .await
            .expect("a screen");
        pihost
            .emit(&serde_json::json!({ "type": "session_start", "reason": "startup" }))
            .await
            .expect("session_start");
        let editor = pihost::ui::FrameKind::Editor;
        let opened = frames_of(&pihost, editor).await;
        assert_eq!(opened.len(), 1, "{opened:#?}");
        let lines = &opened[0].2;
        assert_eq!(lines.len(), 3, "a rule, the text, a rule: {lines:#?}");
        assert!(
            lines[1].starts_with("draft"),
            "the host's editor text carried over: {lines:#?}"
        );
        assert!(lines[2].ends_with(" INSERT "), "the example's mode label: {lines:#?}");
        assert_eq!(pihost.wait_for_component().await.ok(), Some(()), "the editor has focus");

        for key in ["!", "\x1b", "0", "x", "i"] {
            pihost.send_key(key).await.expect("a key");
        }
        let typed = frames_of(&pihost, editor).await;
        let last = &typed.last().expect("frames").2;
        assert!(
            last[1].starts_with("raft!"),
            "typed at the end, then in normal mode 0 went home and x deleted: {typed:#?}"
        );
        assert!(
            typed.iter().any(|(_, _, lines)| lines[2].ends_with(" NORMAL ")),
            "escape showed normal mode: {typed:#?}"
        );
        assert!(last[2].ends_with(" INSERT "), "i went back to insert: {last:#?}");
        assert_eq!(
            pihost.run_command("peek", "").await.expect("peek"),
            Some(serde_json::json!("raft!")),
            "getEditorText reads the extension's editor"
        );

        pihost.send_key("\r").await.expect("enter");
        assert_eq!(
            submitted(&host),
            vec!["raft!".to_string()],
            "the host got the submitted text"
        );
        let after = frames_of(&pihost, editor).await;
        assert!(
            after.last().expect("a frame").2[1].trim().is_empty(),
            "the editor is empty again: {after:#?}"
        );
        pihost.send_key("\r").await.expect("enter");
        assert_eq!(submitted(&host).len(), 1, "a blank editor submits nothing, as in pi");

        pihost.run_command("put", "  set by a command").await.expect("put");
        let put = frames_of(&pihost, editor).await;
        assert!(
            put.last().expect("a frame").2[1].starts_with("  set by a command"),
            "{put:#?}"
        );

        // A dialog takes the editor's place and focus; when it goes, the editor is back with its text.
        let asked = {
            let pihost = pihost.clone();
            tokio::spawn(async move { pihost.run_command("ask", "").await })
        };
        while pihost.take_frames().await.expect("frames").is_empty() {}
        let shown = pihost.send_key("\r").await.expect("enter");
        assert_ne!(shown, Some(1), "the dialog, not the editor, took the key");
        assert_eq!(
            asked.await.expect("task").expect("ask"),
            Some(serde_json::json!("closed"))
        );
        assert_eq!(submitted(&host).len(), 1, "enter went to the dialog");
        pihost.send_key("\r").await.expect("enter");
        assert_eq!(
            submitted(&host),
            vec!["raft!".to_string(), "set by a command".to_string()],
            "focus went back to the editor"
        );

        pihost.run_command("put", "keep me").await.expect("put");
        pihost.run_command("plain", "").await.expect("plain");
        let gone = frames_of(&pihost, editor).await;
        assert_eq!(
            gone.last().map(|(closed, _, _)| *closed),
            Some(true),
            "a closed frame: {gone:#?}"
        );
        assert_eq!(
            pihost.run_command("peek", "").await.expect("peek"),
            Some(serde_json::json!("keep me")),
            "the text went back to the host's editor"
        );
    });
}

#[test]
fn keys_left_after_the_call_go_on_to_the_extension_editor_and_enter_reaches_the_host() {
    let Some(modal) = pi_example("modal-editor.ts") else {
        return;
    };
    let project = Project::new();
    let (output, code) = run(
        &project,
        &[
            "emit",
            "--event",
            r#"{"type":"session_start","reason":"startup"}"#,
            "-e",
            &modal,
            "--keys",
            "h,i,enter",
            "--width",
            "30",
        ],
    );
    assert_eq!(code, 0, "{output:#}");
    assert!(
        output.get("unusedKeys").is_none(),
        "the editor took every key: {output:#}"
    );
    assert_eq!(
        output["hostCalls"],
        serde_json::json!([{ "kind": "notification", "method": "ui.editorSubmit", "text": "hi" }])
    );
    let drawn = frames(&output);
    assert_eq!(
        drawn.last().map(|lines| lines[1].trim().to_string()),
        Some(String::new()),
        "{drawn:#?}"
    );
    assert!(drawn.iter().any(|lines| lines[1].starts_with("hi")), "{drawn:#?}");
    assert!(
        output["frames"]
            .as_array()
            .is_some_and(|frames| frames.iter().all(|frame| frame["kind"] == "editor"))
    );
}

#[test]
fn a_reload_closes_the_editor_and_the_new_one_gets_its_text_as_pi_s_reset_keeps_it() {
    let Some(modal) = pi_example("modal-editor.ts") else {
        return;
    };
    let project = Project::new();
    runtime().block_on(async {
        let (pihost, host) = started_on_a_screen(&project, &modal, 30).await;
        for key in ["a", "b", "c"] {
            pihost.send_key(key).await.expect("a key");
        }
        pihost.take_frames().await.expect("frames");
        pihost.reload(std::slice::from_ref(&modal)).await.expect("reload");
        let after: Vec<(u64, bool, String)> = pihost
            .take_frames()
            .await
            .expect("frames")
            .iter()
            .map(|frame| {
                let text = frame.lines.get(1).map(|line| visible(line).trim_end().to_string());
                (frame.component, frame.closed, text.unwrap_or_default())
            })
            .collect();
        assert_eq!(
            after,
            vec![(1, true, String::new()), (2, false, "abc".to_string())],
            "the old editor closed, the one session_start set after the reload has the text"
        );
        let told_host = host.calls().into_iter().any(|call| {
            matches!(
                call,
                pihost::host::RecordedCall::Notification(pihost::host::HostNotification::UiSetEditorText { text })
                    if text == "abc"
            )
        });
        assert!(told_host, "the text went back to the host's editor on the reset");
    });
}
