//! What a load produced, as serde types: the registrations of each extension,
//! the load errors and the shared runtime's queues. Field names follow pi's
//! own (camelCase in JSON); `pihost inspect --json` prints this.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// What one load produced: every extension that loaded, with its
/// registrations, and every one that failed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InspectReport {
    /// The project directory the load ran against.
    pub cwd: PathBuf,
    /// pi's agent directory the load ran against.
    pub agent_dir: PathBuf,
    /// The extensions that loaded, in load order.
    pub extensions: Vec<ExtensionReport>,
    /// The extensions that failed to load, in load order.
    pub errors: Vec<LoadError>,
    /// Flag values after load: the first registered default of each flag (A9).
    pub flag_values: BTreeMap<String, serde_json::Value>,
    /// Providers registered during load, waiting for a host to bind (A7).
    pub pending_providers: Vec<PendingProvider>,
    /// Wall time in milliseconds of the call that produced the report: the
    /// load alone (`Engine::load`), discovery plus load (`Engine::inspect`),
    /// or runtime creation, discovery and load (`handle::inspect_blocking`, the CLI).
    pub total_load_ms: f64,
    /// The process's use of the on-disk transpile cache so far, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transpile_cache: Option<crate::transpile::disk_cache::CacheCounts>,
    /// How the runtime that loaded started, when the report's call started
    /// it (`handle::inspect_blocking`, the CLI's `inspect`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_start: Option<RuntimeStart>,
}

/// The start of the runtime a load ran in.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeStart {
    /// Wall time in milliseconds from asking for the runtime to its being
    /// ready for the load (the engine's thread, the runtime, pihost's own
    /// JavaScript).
    pub ms: f64,
    /// Whether the runtime was restored from the build's startup snapshot
    /// (src/startup_snapshot.rs) rather than built from source.
    pub from_startup_snapshot: bool,
}

/// One loaded extension and what its factory registered.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionReport {
    /// The path as discovered or as the user wrote it (D6).
    pub path: String,
    /// The absolute path of the entry file (pi's `Extension.resolvedPath`).
    pub resolved_path: PathBuf,
    /// How long loading this extension took, in milliseconds.
    pub load_time_ms: f64,
    /// Where that time went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<LoadTiming>,
    /// Tools registered with `pi.registerTool`.
    pub tools: Vec<ToolReport>,
    /// Commands registered with `pi.registerCommand`.
    pub commands: Vec<CommandReport>,
    /// Flags registered with `pi.registerFlag`.
    pub flags: Vec<FlagReport>,
    /// Shortcuts registered with `pi.registerShortcut`.
    pub shortcuts: Vec<ShortcutReport>,
    /// The `customType`s given to `pi.registerMessageRenderer`.
    pub message_renderers: Vec<String>,
    /// The `customType`s given to `pi.registerEntryRenderer`.
    pub entry_renderers: Vec<String>,
    /// How many resolvers `pi.registerToolRenderer` got (functions, so only counted).
    pub tool_renderers: usize,
    /// Whether the extension called `pi.registerMarkdownTransformer`.
    pub markdown_transformer: bool,
    /// Number of handlers per event name, sorted by name.
    pub handlers: BTreeMap<String, usize>,
    /// What a sandbox refused the extension while it loaded, first touch of each target once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub denied: Vec<crate::permissions::Denial>,
    /// The policy key whose grant the extension has (`Permissions::extensions`):
    /// it runs in a runtime of its own. None for an extension in the session's runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isolated: Option<String>,
}

/// A registered tool.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolReport {
    /// The tool's name, as the model calls it.
    pub name: String,
    /// The name shown to the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The description the model reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The parameter JSON Schema as JSON (TypeBox's symbol-keyed marks do not cross).
    pub parameters: serde_json::Value,
    /// The JSON Schema of the `structuredContent` of its results, when it declares one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<serde_json::Value>,
    /// How the model reaches it (pi's `ToolExposure`: `direct`, `model-only`,
    /// `codemode`, `deferred` or `hidden`), when it says; pi's default is `direct`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposure: Option<String>,
}

/// A registered slash command.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct CommandReport {
    /// The command's name, without the `/`.
    pub name: String,
    /// The description shown in the command list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A registered CLI flag.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct FlagReport {
    /// The flag's name, as `--name` on pi's command line.
    pub name: String,
    /// `boolean` or `string` (JSON `type`).
    #[serde(rename = "type")]
    pub flag_type: String,
    /// The help text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The value `pi.getFlag` answers when the flag was not set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
}

/// A registered keyboard shortcut.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
pub struct ShortcutReport {
    /// The key, as the extension wrote it (`ctrl+shift+p`, …).
    pub shortcut: String,
    /// What the shortcut does, for help listings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// An extension that failed to load, with pi's error text.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoadError {
    /// The path as the user wrote it (D6, L4).
    pub path: String,
    /// pi's text: `Failed to load extension: …` or `Extension does not export a valid factory function: …`.
    pub error: String,
    /// The stack, mapped to the original `.ts` lines, when the error had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// How long the failed attempt took, in milliseconds, when the loader timed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_time_ms: Option<f64>,
    /// What a sandbox refused the extension before it failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub denied: Vec<crate::permissions::Denial>,
    /// Where the failed attempt's time went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<LoadTiming>,
}

/// Where one extension's load time went, by stage, in milliseconds
/// (`pihost inspect --timing`). Modules an earlier extension already loaded
/// cost this one nothing, so a shared dependency counts for the first
/// extension that imports it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoadTiming {
    /// Resolving import specifiers to files.
    pub resolve_ms: f64,
    /// Reading files.
    pub read_ms: f64,
    /// Transpiling, or taking transpiled modules from the caches.
    pub transpile_ms: f64,
    /// Rewriting imports (jiti's lenient imports, Node built-ins).
    pub rewrite_ms: f64,
    /// The engine compiling modules (or reading their bytecode).
    pub compile_ms: f64,
    /// Evaluating the modules: the rest of the import.
    pub evaluate_ms: f64,
    /// Running the factory.
    pub factory_ms: f64,
    /// How many modules the loader handed the engine.
    pub modules: usize,
    /// Their size in bytes.
    pub bytes: usize,
    /// The slowest of them to read, transpile, rewrite and compile, slowest first (at most five).
    pub slowest_modules: Vec<ModuleTiming>,
}

/// One module's share of an extension's load.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModuleTiming {
    /// The file (or pihost module) loaded.
    pub path: String,
    /// Its size as the engine got it, in bytes.
    pub bytes: usize,
    /// Reading, transpiling, rewriting and compiling it, in milliseconds.
    pub ms: f64,
}

/// A provider registered while loading; pi applies it when a host binds (A7).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingProvider {
    /// The provider's name, or a provider object's `id`; `None` for an
    /// object without one.
    #[serde(default)]
    pub name: Option<String>,
    /// The extension that registered it.
    pub extension_path: String,
}

/// The part of a load that JS reports; the engine adds the rest.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JsLoadReport {
    pub extensions: Vec<ExtensionReport>,
    pub errors: Vec<LoadError>,
    pub flag_values: BTreeMap<String, serde_json::Value>,
    pub pending_providers: Vec<PendingProvider>,
}

impl JsLoadReport {
    /// The full report: what JS said plus where the engine looked and the wall time.
    pub(crate) fn into_report(
        self,
        cwd: &std::path::Path,
        agent_dir: &std::path::Path,
        elapsed: std::time::Duration,
    ) -> InspectReport {
        InspectReport {
            cwd: cwd.to_path_buf(),
            agent_dir: agent_dir.to_path_buf(),
            extensions: self.extensions,
            errors: self.errors,
            flag_values: self.flag_values,
            pending_providers: self.pending_providers,
            total_load_ms: elapsed.as_secs_f64() * 1000.0,
            transpile_cache: crate::transpile::disk_cache::counts(),
            runtime_start: None,
        }
    }
}
