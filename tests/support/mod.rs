//! Helpers shared by the integration tests: running the pihost binary, and
//! finding and running the reference pi (Node 22) installed by
//! `scripts/install-reference`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A handle with the extension at `path` loaded (without errors) and bound
/// to a host that records what it is asked.
pub async fn loaded_and_bound(project: &Project, path: String) -> pihost::Pihost {
    let pihost = pihost::Pihost::start(project.options()).await.expect("start");
    let report = pihost.load(&[path]).await.expect("load");
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    pihost
        .bind(
            std::sync::Arc::new(pihost::host::RecordingHost::new()),
            &pihost::host::HostState::default(),
        )
        .await
        .expect("bind");
    pihost
}

/// The async runtime the integration tests drive pihost's handle on.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio")
}

pub fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn examples_dir() -> PathBuf {
    project_root().join("extensions-examples")
}

/// Runs `pihost inspect --json` and returns the parsed report and the exit code.
pub fn pihost_inspect(cwd: &Path, agent_dir: &Path, paths: &[&str]) -> (serde_json::Value, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_pihost"))
        .arg("inspect")
        .arg("--json")
        .arg("--cwd")
        .arg(cwd)
        .arg("--agent-dir")
        .arg(agent_dir)
        .args(paths)
        .output()
        .expect("pihost runs");
    printed_json(&output)
}

/// The JSON a pihost command printed, and its exit code; a panic showing
/// both streams when it printed none.
/// What a finished process printed, as text, and its exit code (-1 when
/// a signal ended it).
pub fn output_text(output: &std::process::Output) -> (String, String, i32) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

pub fn printed_json(output: &std::process::Output) -> (serde_json::Value, i32) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!(
            "pihost printed no JSON ({error}):\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (json, output.status.code().unwrap_or(-1))
}

/// The reference install, from PI_REFERENCE_DIR or the installer's default.
/// Panics when it is missing, unless PIHOST_SKIP_REFERENCE=1 asks to skip.
pub fn reference_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PI_REFERENCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/pi-reference/1.6.0")
        });
    if dir.join("node_modules/.bin/node").exists() {
        return Some(dir);
    }
    if std::env::var("PIHOST_SKIP_REFERENCE").as_deref() == Ok("1") {
        eprintln!("skipping: the reference pi is not installed at {}", dir.display());
        return None;
    }
    panic!(
        "the reference pi is not installed at {} (run scripts/install-reference, \
         or set PIHOST_SKIP_REFERENCE=1 to skip reference comparisons)",
        dir.display()
    );
}

/// Runs the reference's own loader over the same inputs (tests/reference/inspect-reference.mjs).
pub fn reference_inspect(reference: &Path, cwd: &Path, agent_dir: &Path, paths: &[&str]) -> serde_json::Value {
    let output = Command::new(reference.join("node_modules/.bin/node"))
        .arg(project_root().join("tests/reference/inspect-reference.mjs"))
        .arg("--pi-dir")
        .arg(reference)
        .arg("--cwd")
        .arg(cwd)
        .arg("--agent-dir")
        .arg(agent_dir)
        .args(paths)
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

/// Node's "Require stack" ends with the reference's own loader file, a path
/// inside its install; those lines (and an emptied heading) are dropped.
pub fn without_reference_frames(message: &str, reference: &Path) -> String {
    let install = reference.display().to_string();
    let kept: Vec<&str> = message
        .split('\n')
        .filter(|line| !(line.starts_with("- ") && line.contains(&install)))
        .collect();
    kept.join("\n").trim_end_matches("\nRequire stack:").to_string()
}

/// The reference report with its install paths taken out of error texts.
pub fn normalized_reference(report: &serde_json::Value, reference: &Path) -> serde_json::Value {
    let mut report = report.clone();
    if let Some(errors) = report.get_mut("errors").and_then(|errors| errors.as_array_mut()) {
        for error in errors {
            if let Some(text) = error.get("error").and_then(|text| text.as_str()) {
                let cleaned = without_reference_frames(text, reference);
                error["error"] = serde_json::Value::String(cleaned);
            }
        }
    }
    report
}

/// Keeps only what both sides report: pihost adds timings, stacks and its options.
pub fn comparable(report: &serde_json::Value) -> serde_json::Value {
    let mut report = report.clone();
    if let Some(object) = report.as_object_mut() {
        for key in ["cwd", "agentDir", "totalLoadMs", "transpileCache", "runtimeStart"] {
            object.remove(key);
        }
    }
    for list in ["extensions", "errors"] {
        if let Some(items) = report.get_mut(list).and_then(|items| items.as_array_mut()) {
            for item in items {
                if let Some(item) = item.as_object_mut() {
                    item.remove("loadTimeMs");
                    item.remove("timing");
                    item.remove("stack");
                }
            }
        }
    }
    report
}

/// A readable line diff of two JSON documents, empty when they are equal.
pub fn json_diff(expected: &serde_json::Value, actual: &serde_json::Value) -> String {
    pihost::compat::json_diff(expected, actual, ("reference pi 1.6.0", "pihost"))
}

/// A temporary project with an empty agent directory, for loading fixtures.
pub struct Project {
    pub root: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        let root = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(root.path().join("agent")).expect("agent dir");
        Self { root }
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    /// Writes a file (creating folders) and returns its absolute path as a string.
    pub fn write(&self, relative: &str, content: &str) -> String {
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, content).expect("write fixture");
        path.display().to_string()
    }

    pub fn options(&self) -> pihost::EngineOptions {
        pihost::EngineOptions {
            cwd: self.root.path().to_path_buf(),
            agent_dir: self.path("agent"),
            config_dir_name: ".pi".to_string(),
            limits: pihost::Limits::default(),
            permissions: pihost::Permissions::default(),
            permission_host: None,
        }
    }

    /// Discovers and loads with `paths` configured, as `pihost inspect` does.
    pub fn inspect(&self, paths: &[&str]) -> pihost::InspectReport {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        pihost::handle::inspect_blocking(self.options(), &paths).expect("inspect runs")
    }
}

/// The description of command `name` in a report, wherever it was registered.
pub fn command_description(report: &pihost::InspectReport, name: &str) -> String {
    report
        .extensions
        .iter()
        .flat_map(|extension| &extension.commands)
        .find(|command| command.name == name)
        .and_then(|command| command.description.clone())
        .unwrap_or_else(|| panic!("no command {name} in {report:#?}"))
}

/// A line as a terminal shows it: without escape sequences.
pub fn visible(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters up to a final byte.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            // OSC and APC: up to BEL or ST.
            Some(']') | Some('_') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// One of pi's example extensions, from the reference install.
pub fn pi_example(file: &str) -> Option<String> {
    let path: PathBuf = reference_dir()?
        .join("node_modules/@earendil-works/pi-coding-agent/examples/extensions")
        .join(file);
    assert!(
        path.exists(),
        "{} is missing from the reference install",
        path.display()
    );
    Some(path.display().to_string())
}
