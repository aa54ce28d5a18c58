//! Compat scenarios: folders with a `scenario.json`, the extensions it loads,
//! and an `expected.json` recorded from the reference pi by
//! `tests/compat/record.mjs`. pihost replays each one through its own loader
//! and runner with the same driver (`js/compat/driver.js`) and compares.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::{Engine, EngineOptions};
use crate::error::PihostError;

/// Why a compat scenario could not run (its result is not a failure here).
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The scenario folder or its `scenario.json` cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path that failed.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// `scenario.json` is not JSON.
    #[error("{path} is not valid JSON: {source}")]
    Parse {
        /// The `scenario.json` path.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// The engine failed while running the scenario.
    #[error(transparent)]
    Engine(#[from] PihostError),
    /// The thread the scenario ran on panicked.
    #[error("the scenario's thread panicked")]
    Panicked,
}

/// The driver's side of pihost: js/compat/pihost-environment.js, evaluated
/// only when a scenario runs, never in an ordinary runtime.
const ENVIRONMENT_MODULE: &str = "pihost:compat/pihost-environment.js";

/// Runs one compat scenario (a folder with `scenario.json` and its
/// extensions) in `engine`, through pihost's loader and runner with the
/// shared driver (`js/compat/driver.js`), and returns the driver's output.
/// The scenario's host table answers through the real host path: a Rust
/// [`ScenarioHost`] behind the JS bridge.
pub async fn run_scenario_in(engine: &mut Engine, dir: &Path) -> Result<serde_json::Value, ScenarioError> {
    let scenario_path = dir.join("scenario.json");
    let text = std::fs::read_to_string(&scenario_path).map_err(|source| ScenarioError::Read {
        path: scenario_path.clone(),
        source,
    })?;
    let scenario: serde_json::Value = serde_json::from_str(&text).map_err(|source| ScenarioError::Parse {
        path: scenario_path.clone(),
        source,
    })?;
    let dir = std::fs::canonicalize(dir).map_err(|source| ScenarioError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let answers = scenario.get("host").cloned().unwrap_or_else(|| serde_json::json!({}));
    engine.put_host(crate::session::FIRST_SESSION, Arc::new(ScenarioHost::new(answers)));
    let request = serde_json::json!({
        "dir": dir,
        "scenario": scenario,
        "examplesDir": pi_examples_dir(),
    })
    .to_string();
    let response = engine
        .call_side_module(ENVIRONMENT_MODULE, "runScenario", &request)
        .await?;
    serde_json::from_str(&response).map_err(|error| {
        ScenarioError::Engine(PihostError::Internal {
            context: "scenario output".to_string(),
            message: error.to_string(),
        })
    })
}

/// How one scenario went.
#[derive(Debug)]
pub enum Outcome {
    /// pihost's output matches the recording.
    Passed,
    /// pihost's output differs from the recorded one; a unified diff.
    Failed(String),
    /// The scenario could not be run or has no recording.
    Broken(String),
}

/// One scenario and how it went.
#[derive(Debug)]
pub struct ScenarioResult {
    /// The scenario folder.
    pub dir: PathBuf,
    /// The comparison with `expected.json`.
    pub outcome: Outcome,
}

/// Scenario folders under each path: the path itself if it has a
/// `scenario.json`, else its direct subfolders that do, sorted.
pub fn find_scenarios(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in paths {
        if path.join("scenario.json").is_file() {
            found.push(path.clone());
            continue;
        }
        let mut children: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .filter(|child| child.join("scenario.json").is_file())
                    .collect()
            })
            .unwrap_or_default();
        children.sort();
        found.extend(children);
    }
    found
}

/// The same value with object keys sorted, so key order is not a difference.
fn sorted_keys(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            serde_json::Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted_keys(v))).collect())
        }
        serde_json::Value::Array(items) => serde_json::Value::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

/// A unified diff of two JSON documents (expected first), empty when equal.
pub fn json_diff(expected: &serde_json::Value, actual: &serde_json::Value, labels: (&str, &str)) -> String {
    let expected = serde_json::to_string_pretty(&sorted_keys(expected)).unwrap_or_default();
    let actual = serde_json::to_string_pretty(&sorted_keys(actual)).unwrap_or_default();
    if expected == actual {
        return String::new();
    }
    similar::TextDiff::from_lines(&expected, &actual)
        .unified_diff()
        .context_radius(4)
        .header(labels.0, labels.1)
        .to_string()
}

/// Where `pi-examples:` scenario entries are read from: pi's own
/// `examples/extensions/` in the reference install (`$PI_REFERENCE_DIR`,
/// else `~/.cache/pi-reference/1.6.0`, where scripts/setup installs it).
pub fn pi_examples_dir() -> PathBuf {
    let reference = std::env::var_os("PI_REFERENCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/pi-reference/1.6.0")
        });
    reference.join("node_modules/@earendil-works/pi-coding-agent/examples/extensions")
}

/// Runs one scenario in a fresh engine on its own thread (scenarios must not
/// share globals, and the QuickJS backend limits runtimes per thread).
pub fn run_scenario(dir: &Path) -> Result<serde_json::Value, ScenarioError> {
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(PihostError::AsyncRuntime)?;
        runtime.block_on(async {
            let options = EngineOptions {
                cwd: dir.clone(),
                agent_dir: dir.join(".no-agent-dir"),
                config_dir_name: crate::discovery::DEFAULT_CONFIG_DIR_NAME.to_string(),
                limits: crate::limits::Limits::default(),
                permissions: crate::Permissions::default(),
                permission_host: None,
            };
            let mut engine = Engine::new(options).await?;
            run_scenario_in(&mut engine, &dir).await
        })
    })
    .join()
    .unwrap_or(Err(ScenarioError::Panicked))
}

/// Runs a scenario and compares it with its `expected.json`.
pub fn check_scenario(dir: &Path) -> ScenarioResult {
    let outcome = match std::fs::read_to_string(dir.join("expected.json")) {
        Err(error) => Outcome::Broken(format!(
            "no expected.json ({error}); record it with the reference: node tests/compat/record.mjs --pi-dir <reference> {}",
            dir.display()
        )),
        Ok(text) => match serde_json::from_str::<serde_json::Value>(&text) {
            Err(error) => Outcome::Broken(format!("expected.json is not valid JSON: {error}")),
            Ok(expected) => match run_scenario(dir) {
                Err(error) => Outcome::Broken(error.to_string()),
                Ok(actual) => {
                    let diff = json_diff(&expected, &actual, ("reference pi (expected.json)", "pihost"));
                    if diff.is_empty() {
                        Outcome::Passed
                    } else {
                        Outcome::Failed(diff)
                    }
                }
            },
        },
    };
    ScenarioResult {
        dir: dir.to_path_buf(),
        outcome,
    }
}

/// The checklist ids each scenario says it covers (`covers` in scenario.json).
pub fn covered_ids(dirs: &[PathBuf]) -> BTreeMap<String, Vec<String>> {
    let mut covered: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for dir in dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let ids = std::fs::read_to_string(dir.join("scenario.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|scenario| scenario.get("covers").cloned())
            .and_then(|covers| serde_json::from_value::<Vec<String>>(covers).ok())
            .unwrap_or_default();
        for id in ids {
            covered.entry(id).or_default().push(name.clone());
        }
    }
    covered
}

/// The host a scenario describes (`scenario.json`'s `host`), in Rust: pihost
/// replays scenarios through its real host path (the Host trait behind the
/// JS bridge) with this host answering, while the reference side answers
/// from the same table in JS (`createCannedHost` in js/compat/driver.js).
pub struct ScenarioHost {
    answers: serde_json::Value,
}

impl ScenarioHost {
    /// A host answering from `answers`, the scenario's `host` table
    /// (`ui.<prompt>`, `setModelResult`, `executeToolResult`, `failProviders`).
    pub fn new(answers: serde_json::Value) -> Self {
        Self { answers }
    }

    fn ui_answer(&self, name: &str) -> serde_json::Value {
        self.answers
            .get("ui")
            .and_then(|ui| ui.get(name))
            .cloned()
            .unwrap_or(serde_json::Value::Null)
    }
}

impl crate::host::Host for ScenarioHost {
    fn request(&self, request: crate::host::HostRequest) -> crate::host::HostFuture {
        use crate::host::HostRequest;
        let answer = match &request {
            HostRequest::SetModel { .. } => self
                .answers
                .get("setModelResult")
                .cloned()
                .unwrap_or(serde_json::Value::Bool(true)),
            HostRequest::UiSelect { .. } => self.ui_answer("select"),
            HostRequest::UiConfirm { .. } => self.ui_answer("confirm"),
            HostRequest::UiInput { .. } => self.ui_answer("input"),
            HostRequest::UiEditor { .. } => self.ui_answer("editor"),
            HostRequest::UiCustom { .. } => self.ui_answer("custom"),
            HostRequest::ExecuteTool { .. } => self
                .answers
                .get("executeToolResult")
                .cloned()
                .unwrap_or_else(|| request.headless_answer()),
            _ => request.headless_answer(),
        };
        Box::pin(async move { Ok(answer) })
    }

    fn provider(&self, change: crate::host::ProviderChange) -> Result<(), crate::host::HostError> {
        use crate::host::ProviderChange;
        let name = match &change {
            ProviderChange::RegisterProvider { name, .. } => Some(name.as_str()),
            ProviderChange::RegisterNativeProvider { id } => id.as_deref(),
            _ => None,
        };
        let refused = self
            .answers
            .get("failProviders")
            .and_then(|names| names.as_array())
            .is_some_and(|names| names.iter().any(|refused| refused.as_str() == name));
        match (refused, name) {
            (true, Some(name)) => Err(crate::host::HostError(format!(
                "provider {name} was refused by the host"
            ))),
            _ => Ok(()),
        }
    }
}
