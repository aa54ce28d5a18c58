//! `pihost tool|command … --tty` as a person uses it: in a real terminal
//! (a detached tmux pane of a fixed size, on a private tmux server), the
//! extension's component is drawn on the screen, the keys typed reach it,
//! and when the call ends the terminal is given back and the result printed.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::*;

/// How long a test waits for the pane to show what it expects.
const DEADLINE: Duration = Duration::from_secs(20);

const QUESTION_ARGS: &str = r#"{"question":"Pick a colour","options":[{"label":"Alpha"},{"label":"Beta"}]}"#;

/// The line pihost's run is followed by in the pane, with its exit code.
const EXIT_MARK: &str = "pihost-exit=";

/// A tmux server of its own (`tmux -S`, its socket in the test's project),
/// killed when dropped, pass or fail, so no other tmux is touched and
/// nothing outlives the test.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    /// None (and a note why) when tmux is not installed.
    fn available() -> Option<()> {
        match Command::new("tmux").arg("-V").output() {
            Ok(output) if output.status.success() => Some(()),
            _ => {
                eprintln!("skipping: tmux is not installed, and the --tty tests drive a terminal through it");
                None
            }
        }
    }

    /// Starts an 80×24 pane running `script`, with its server's socket
    /// beside the script.
    fn start(script: &Path) -> Tmux {
        let tmux = Tmux {
            socket: script.with_file_name("tmux.socket"),
        };
        let output = tmux.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "sh",
            &script.display().to_string(),
        ]);
        assert!(output.status.success(), "tmux new-session: {output:?}");
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// What the pane shows now, wrapped lines joined; with `history`, what
    /// scrolled off the top too.
    fn screen(&self, history: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-J"];
        if history {
            args.extend(["-S", "-"]);
        }
        String::from_utf8_lossy(&self.run(&args).stdout).into_owned()
    }

    /// A tmux format of the pane, e.g. `#{alternate_on}`.
    fn pane(&self, format: &str) -> String {
        let output = self.run(&["display-message", "-p", format]);
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend(keys);
        let output = self.run(&args);
        assert!(output.status.success(), "tmux send-keys {keys:?}: {output:?}");
    }

    /// Waits until the pane shows what `test` looks for; panics with the
    /// pane's text at the deadline.
    fn wait_for(&self, what: &str, test: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen(false);
            if test(&screen) {
                return screen;
            }
            if started.elapsed() > DEADLINE {
                panic!("the pane never showed {what} within {DEADLINE:?}; it shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Once pihost has exited: the JSON it printed and its exit code.
    fn finished(&self) -> (Value, i32) {
        self.wait_for("pihost's exit", |screen| screen.contains(EXIT_MARK));
        let text = self.screen(true);
        let start = text
            .lines()
            .position(|line| line == "{")
            .unwrap_or_else(|| panic!("no JSON in the pane:\n{text}"));
        let lines: Vec<&str> = text.lines().skip(start).collect();
        let end = lines
            .iter()
            .position(|line| line.starts_with(EXIT_MARK))
            .unwrap_or_else(|| panic!("no exit line in the pane:\n{text}"));
        let json = lines[..end].join("\n");
        let output =
            serde_json::from_str(&json).unwrap_or_else(|error| panic!("not JSON ({error}):\n{json}\npane:\n{text}"));
        let code = lines[end][EXIT_MARK.len()..]
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("no exit code in {:?}", lines[end]));
        (output, code)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A script that runs pihost in `project` with `args` and `--tty`, then says
/// how it exited and saves the terminal's settings, and keeps the pane open.
fn tty_script(project: &Project, args: &[&str]) -> std::path::PathBuf {
    let pihost = env!("CARGO_BIN_EXE_pihost");
    let mut command = vec![shell_quoted(pihost)];
    command.extend(args.iter().map(|arg| shell_quoted(arg)));
    let script = format!(
        "cd {root}\n\
         PI_TRUE_COLOR=1 {command} --tty --cwd {root} --agent-dir {agent}\n\
         echo \"{EXIT_MARK}$?\"\n\
         stty -a > {stty}\n\
         sleep 600\n",
        root = shell_quoted(&project.root.path().display().to_string()),
        agent = shell_quoted(&project.path("agent").display().to_string()),
        stty = shell_quoted(&project.path("stty.txt").display().to_string()),
        command = command.join(" "),
    );
    let path = project.path("run.sh");
    std::fs::write(&path, script).expect("write the script");
    path
}

/// Asserts the terminal is as pihost found it: main screen, cursor shown,
/// and line editing and echo back on (raw mode off).
fn assert_terminal_restored(tmux: &Tmux, project: &Project) {
    assert_eq!(tmux.pane("#{alternate_on}"), "0", "still on the alternate screen");
    assert_eq!(tmux.pane("#{cursor_flag}"), "1", "the cursor is still hidden");
    let started = Instant::now();
    let stty = loop {
        match std::fs::read_to_string(project.path("stty.txt")) {
            Ok(text) if !text.is_empty() => break text,
            _ if started.elapsed() > DEADLINE => panic!("stty never ran after pihost"),
            _ => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    let settings: Vec<&str> = stty.split_whitespace().collect();
    for setting in ["icanon", "echo", "isig"] {
        assert!(
            settings.contains(&setting),
            "the terminal is left without {setting} (raw mode still on): {stty}"
        );
    }
}

fn border_width(screen: &str) -> usize {
    screen
        .lines()
        .find(|line| line.starts_with('─'))
        .map(|line| line.trim_end().chars().count())
        .unwrap_or(0)
}

/// pi's question example asked in a tmux pane, when both are there.
fn question_in_tmux(project: &Project) -> Option<Tmux> {
    let question = pi_example("question.ts")?;
    Tmux::available()?;
    Some(Tmux::start(&tty_script(
        project,
        &["tool", "question", "-e", &question, "--args", QUESTION_ARGS],
    )))
}

#[test]
fn the_question_is_drawn_in_the_terminal_and_answers_the_keys_typed() {
    let project = Project::new();
    let Some(tmux) = question_in_tmux(&project) else { return };
    let screen = tmux.wait_for("the question", |screen| {
        screen.contains("Pick a colour") && screen.lines().any(|line| line.trim_end() == "> 1. Alpha")
    });
    assert_eq!(tmux.pane("#{alternate_on}"), "1", "drawn on the alternate screen");
    assert_eq!(tmux.pane("#{cursor_flag}"), "0", "the cursor is hidden");
    assert_eq!(border_width(&screen), 80, "drawn at the terminal's width:\n{screen}");
    tmux.keys(&["Down"]);
    tmux.wait_for("Beta selected", |screen| {
        screen.lines().any(|line| line.trim_end() == "> 2. Beta")
    });
    tmux.keys(&["Enter"]);
    let (output, code) = tmux.finished();
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(output["result"]["content"][0]["text"], "User selected: 2. Beta");
    assert!(
        output.get("frames").is_none(),
        "the frames were on the screen, not in the output: {output:#}"
    );
    assert_terminal_restored(&tmux, &project);
}

#[test]
fn a_resized_terminal_draws_the_component_at_its_new_width() {
    let project = Project::new();
    let Some(tmux) = question_in_tmux(&project) else { return };
    tmux.wait_for("the question at 80 columns", |screen| border_width(screen) == 80);
    let resized = tmux.run(&["resize-window", "-x", "50", "-y", "20"]);
    assert!(resized.status.success(), "tmux resize-window: {resized:?}");
    tmux.wait_for("the question at 50 columns", |screen| {
        border_width(screen) == 50 && screen.contains("Pick a colour")
    });
    tmux.keys(&["Enter"]);
    let (output, code) = tmux.finished();
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(output["result"]["content"][0]["text"], "User selected: 1. Alpha");
}

#[test]
fn a_second_ctrl_c_aborts_a_component_that_ignores_the_first() {
    let project = Project::new();
    let Some(tmux) = question_in_tmux(&project) else { return };
    tmux.wait_for("the question", |screen| screen.contains("Pick a colour"));
    tmux.keys(&["C-c"]);
    // The first goes to the component, which does not act on it.
    std::thread::sleep(Duration::from_millis(500));
    let screen = tmux.screen(false);
    assert!(
        screen.contains("Pick a colour") && !screen.contains(EXIT_MARK),
        "one ctrl+c ended the run:\n{screen}"
    );
    tmux.keys(&["C-c"]);
    let (output, code) = tmux.finished();
    assert_eq!(code, 130, "{output:#}");
    assert_eq!(output["aborted"], "ctrl+c twice", "{output:#}");
    assert!(
        output["error"]
            .as_str()
            .unwrap_or_default()
            .contains("aborted from the terminal"),
        "{output:#}"
    );
    assert_terminal_restored(&tmux, &project);
}

#[test]
fn tty_without_a_terminal_fails_and_names_the_flag() {
    let project = Project::new();
    let fixture = project.write(
        "never.ts",
        r#"export default function (pi) { pi.registerCommand("never", { handler: async () => {} }); }"#,
    );
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .args(["command", "never", "-e", &fixture, "--tty", "--cwd"])
        .arg(project.root.path())
        .stdin(Stdio::null())
        .output()
        .expect("pihost runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains("--tty needs a terminal"), "stderr: {stderr}");
    assert!(output.stdout.is_empty(), "printed to stdout: {:?}", output.stdout);
}

/// A command that fills every place of pi's screen, then shows an overlay.
const LAYOUT: &str = r#"
export default (pi) => {
  pi.registerCommand("layout", {
    handler: async (_args, ctx) => {
      const lines = (...lines) => () => ({ render: () => lines, invalidate() {} });
      ctx.ui.setHeader(() => ({ render: (width) => ["HEADER".padEnd(width, "=")], invalidate() {} }));
      ctx.ui.setWidget("below", lines("BELOW"), { placement: "belowEditor" });
      ctx.ui.setWidget("above", lines("ABOVE"));
      ctx.ui.setFooter(lines("FOOTER"));
      const answer = (lines, result) => (_tui, _theme, _keybindings, done) => ({
        render: () => lines,
        invalidate() {},
        handleInput(data) { if (data === "\r") done(result); },
      });
      const dialog = await ctx.ui.custom(answer(["DIALOG"], "dialog"));
      const overlay = await ctx.ui.custom(answer(["+------+", "|OVER  |", "+------+"], "overlay"), { overlay: true });
      return [dialog, overlay];
    },
  });
};
"#;

#[test]
fn the_screen_is_laid_out_as_pi_s_with_an_overlay_centred_over_it() {
    let Some(()) = Tmux::available() else { return };
    let project = Project::new();
    let layout = project.write("layout.ts", LAYOUT);
    let tmux = Tmux::start(&tty_script(&project, &["command", "layout", "-e", &layout]));
    let rows = |screen: &str| -> Vec<String> { screen.lines().map(|line| line.trim_end().to_string()).collect() };
    let screen = tmux.wait_for("the dialog", |screen| {
        screen.contains("DIALOG") && screen.contains("FOOTER")
    });
    assert_eq!(
        rows(&screen)[..5],
        [
            format!("HEADER{}", "=".repeat(74)),
            "ABOVE".to_string(),
            "DIALOG".to_string(),
            "BELOW".to_string(),
            "FOOTER".to_string()
        ],
        "header, widget above, the dialog in the editor's place, widget below, footer:\n{screen}"
    );
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the overlay", |screen| screen.contains("|OVER  |"));
    let rows = rows(&screen);
    assert_eq!(rows[2], "BELOW", "the dialog is gone:\n{screen}");
    // 8 columns by 3 rows, in the middle of 80 by 24.
    for (row, text) in [(10, "+------+"), (11, "|OVER  |"), (12, "+------+")] {
        assert_eq!(rows[row], format!("{}{text}", " ".repeat(36)), "row {row}:\n{screen}");
    }
    tmux.keys(&["Enter"]);
    let (output, code) = tmux.finished();
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(output["result"], serde_json::json!(["dialog", "overlay"]));
    assert_terminal_restored(&tmux, &project);
}

/// A command whose component answers every key it got before Enter.
const KEYS: &str = r#"
export default (pi) => {
  pi.registerCommand("keys", {
    handler: (_args, ctx) => {
      const got = [];
      return ctx.ui.custom((_tui, _theme, _keybindings, done) => ({
        render: () => [`got ${got.length} keys`],
        invalidate() {},
        handleInput(data) { if (data === "\r") done(got); else got.push(data); },
      }));
    },
  });
};
"#;

#[test]
fn a_paste_and_kitty_sequences_reach_the_component_whole_and_unchanged() {
    let Some(()) = Tmux::available() else { return };
    let project = Project::new();
    let keys = project.write("keys.ts", KEYS);
    let tmux = Tmux::start(&tty_script(&project, &["command", "keys", "-e", &keys]));
    tmux.wait_for("the component", |screen| screen.contains("got 0 keys"));
    let buffer = tmux.run(&["set-buffer", "pasted text"]);
    assert!(buffer.status.success(), "tmux set-buffer: {buffer:?}");
    // -p brackets the paste only if pihost turned bracketed paste on.
    let pasted = tmux.run(&["paste-buffer", "-p"]);
    assert!(pasted.status.success(), "tmux paste-buffer: {pasted:?}");
    tmux.wait_for("the paste", |screen| screen.contains("got 1 keys"));
    // shift+enter as the Kitty keyboard protocol sends it, then down: one read each or both.
    tmux.keys(&["-H", "1b", "5b", "31", "33", "3b", "32", "75", "1b", "5b", "42"]);
    tmux.wait_for("both keys", |screen| screen.contains("got 3 keys"));
    tmux.keys(&["Enter"]);
    let (output, code) = tmux.finished();
    assert_eq!(code, 0, "{output:#}");
    assert_eq!(
        output["result"],
        serde_json::json!(["\u{1b}[200~pasted text\u{1b}[201~", "\u{1b}[13;2u", "\u{1b}[B"])
    );
}

#[test]
fn an_editor_component_outlives_its_call_takes_the_typing_and_hands_enter_to_the_host() {
    let Some(modal) = pi_example("modal-editor.ts") else {
        return;
    };
    if Tmux::available().is_none() {
        return;
    }
    let project = Project::new();
    let tmux = Tmux::start(&tty_script(
        &project,
        &[
            "emit",
            "--event",
            r#"{"type":"session_start","reason":"startup"}"#,
            "-e",
            &modal,
        ],
    ));
    // session_start is over at once; the editor it set keeps the run going.
    tmux.wait_for("the editor", |screen| {
        screen
            .lines()
            .nth(2)
            .is_some_and(|line| line.trim_end().ends_with(" INSERT"))
    });
    assert_eq!(tmux.pane("#{alternate_on}"), "1", "still on the alternate screen");
    tmux.keys(&["h", "i"]);
    tmux.wait_for("the typed text", |screen| {
        screen.lines().nth(1).is_some_and(|line| line.starts_with("hi"))
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("normal mode", |screen| screen.contains(" NORMAL"));
    tmux.keys(&["i", "Enter"]);
    tmux.wait_for("the editor emptied", |screen| {
        screen.lines().nth(1).is_some_and(|line| line.trim().is_empty()) && screen.contains(" INSERT")
    });
    tmux.keys(&["C-\\"]);
    let (output, _code) = tmux.finished();
    let submitted: Vec<&Value> = output["hostCalls"]
        .as_array()
        .expect("host calls")
        .iter()
        .filter(|call| call["method"] == "ui.editorSubmit")
        .collect();
    assert_eq!(submitted.len(), 1, "{output:#}");
    assert_eq!(submitted[0]["text"], "hi");
    assert_terminal_restored(&tmux, &project);
}
