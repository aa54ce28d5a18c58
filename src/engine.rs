//! One JavaScript isolate with pihost's runtime in it, and the calls that
//! cross into it. The isolate is `!Send`: an [`Engine`] lives on the thread
//! that made it, inside a current-thread async runtime.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use deno_core::{JsRuntime, ModuleSpecifier, PollEventLoopOptions, RuntimeOptions, v8};

use crate::discovery::{self, DiscoveredExtension, DiscoveryOptions};
use crate::error::PihostError;
use crate::modules::PihostModuleLoader;
use crate::report::{InspectReport, JsLoadReport};

/// Where extensions are looked for and which directories they run against.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// The project directory: `<cwd>/.pi/extensions` is searched and `pi.exec` runs here.
    pub cwd: PathBuf,
    /// pi's agent directory: `<agent_dir>/extensions` is searched.
    pub agent_dir: PathBuf,
    /// The name of pi's config directory (`.pi`), a setting in pi too (D1).
    pub config_dir_name: String,
}

impl EngineOptions {
    /// Options for `cwd` with pi's defaults: the agent directory from
    /// `PI_CODING_AGENT_DIR`, else `~/.pi/agent`.
    pub fn for_cwd(cwd: &Path) -> Self {
        let config_dir_name = discovery::DEFAULT_CONFIG_DIR_NAME.to_string();
        let env_value = std::env::var(discovery::AGENT_DIR_ENV).ok();
        let agent_dir = discovery::agent_dir_from_env(env_value.as_deref(), &discovery::home_dir(), &config_dir_name);
        Self {
            cwd: discovery::resolve_user_path(&cwd.display().to_string(), &current_dir()),
            agent_dir,
            config_dir_name,
        }
    }
}

fn current_dir() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// What pihost provides of one of pi's virtual modules.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ModuleStatus {
    pub implemented: Vec<String>,
    pub not_implemented: Vec<String>,
}

/// The isolate and the runtime functions pihost calls in it.
pub struct Engine {
    runtime: JsRuntime,
    /// The namespace of `js/runtime/main.js`, whose functions Rust calls.
    exports: v8::Global<v8::Object>,
    options: EngineOptions,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct LoadRequest<'a> {
    cwd: &'a Path,
    use_cache: bool,
    entries: Vec<LoadEntry<'a>>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct LoadEntry<'a> {
    path: &'a str,
    resolved_path: &'a Path,
    module_url: String,
}

fn internal(context: &str, error: impl std::fmt::Display) -> PihostError {
    PihostError::Internal {
        context: context.to_string(),
        message: error.to_string(),
    }
}

impl Engine {
    /// Creates an isolate and starts pihost's runtime in it.
    pub async fn new(options: EngineOptions) -> Result<Self, PihostError> {
        let mut runtime = JsRuntime::try_new(RuntimeOptions {
            module_loader: Some(Rc::new(PihostModuleLoader::new())),
            extensions: vec![crate::ops::pihost_ops::init()],
            ..Default::default()
        })
        .map_err(|error| PihostError::RuntimeStart(error.to_string()))?;
        let main_url = ModuleSpecifier::parse("pihost:runtime/main.js").map_err(|error| internal("main url", error))?;
        let module_id = runtime
            .load_main_es_module(&main_url)
            .await
            .map_err(|error| internal("loading runtime/main.js", error))?;
        let evaluation = runtime.mod_evaluate(module_id);
        runtime
            .run_event_loop(PollEventLoopOptions::default())
            .await
            .map_err(|error| internal("starting runtime/main.js", error))?;
        evaluation
            .await
            .map_err(|error| internal("evaluating runtime/main.js", error))?;
        let namespace = runtime
            .get_module_namespace(module_id)
            .map_err(|error| internal("runtime/main.js exports", error))?;
        Ok(Self {
            runtime,
            exports: namespace,
            options,
        })
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes the project directory later loads run against; a cached load
    /// under a new cwd starts with an empty factory cache (L6).
    pub fn set_cwd(&mut self, cwd: PathBuf) {
        self.options.cwd = cwd;
    }

    /// Forgets every cached extension factory, as pi's clearExtensionCache() (L6).
    pub async fn clear_extension_cache(&mut self) -> Result<(), PihostError> {
        self.call_json("clearExtensionCache", "null").await.map(|_| ())
    }

    /// Which export names of each of pi's virtual modules pihost implements,
    /// and which are stubs that throw `not implemented yet` when used.
    pub async fn virtual_module_status(&mut self) -> Result<BTreeMap<String, ModuleStatus>, PihostError> {
        let ids: BTreeSet<&str> = crate::modules::virtual_map::specifiers().map(|(_, id)| id).collect();
        let ids = serde_json::to_string(&ids).map_err(|error| internal("module ids", error))?;
        let response = self.call_json("describeVirtualModules", &ids).await?;
        serde_json::from_str(&response).map_err(|error| internal("module status", error))
    }

    fn export_function(&mut self, name: &str) -> Result<v8::Global<v8::Function>, PihostError> {
        deno_core::scope!(scope, &mut self.runtime);
        let namespace = v8::Local::new(scope, &self.exports);
        let key = v8::String::new(scope, name).ok_or_else(|| internal(name, "cannot make the key"))?;
        let value = namespace
            .get(scope, key.into())
            .ok_or_else(|| internal("runtime/main.js", format!("no export {name}")))?;
        let function = v8::Local::<v8::Function>::try_from(value)
            .map_err(|_| internal("runtime/main.js", format!("{name} is not a function")))?;
        Ok(v8::Global::new(scope, function))
    }

    /// Finds extensions as pi does (D1–D7): project, agent directory, then `configured_paths`.
    pub fn discover(&self, configured_paths: &[String]) -> Vec<DiscoveredExtension> {
        discovery::discover(&DiscoveryOptions {
            cwd: self.options.cwd.clone(),
            agent_dir: self.options.agent_dir.clone(),
            config_dir_name: self.options.config_dir_name.clone(),
            configured_paths: configured_paths.to_vec(),
        })
    }

    /// Discovers and loads extensions, and reports what each registered.
    pub async fn inspect(&mut self, configured_paths: &[String]) -> Result<InspectReport, PihostError> {
        let started = Instant::now();
        let discovered = self.discover(configured_paths);
        let mut report = self.load(&discovered, false).await?;
        report.total_load_ms = started.elapsed().as_secs_f64() * 1000.0;
        Ok(report)
    }

    /// Loads `extensions` in order (L4, L5). With `use_cache`, factories are
    /// reused across loads for the same cwd (L6).
    pub async fn load(
        &mut self,
        extensions: &[DiscoveredExtension],
        use_cache: bool,
    ) -> Result<InspectReport, PihostError> {
        let started = Instant::now();
        let entries = extensions
            .iter()
            .map(|extension| {
                // pi imports the canonical file, so symlinked extensions share a module.
                let canonical =
                    std::fs::canonicalize(&extension.resolved_path).unwrap_or_else(|_| extension.resolved_path.clone());
                let module_url = ModuleSpecifier::from_file_path(&canonical)
                    .map(String::from)
                    .unwrap_or_else(|_| format!("file://{}", canonical.display()));
                LoadEntry {
                    path: &extension.path,
                    resolved_path: &extension.resolved_path,
                    module_url,
                }
            })
            .collect();
        let request = LoadRequest {
            cwd: &self.options.cwd,
            use_cache,
            entries,
        };
        let request = serde_json::to_string(&request).map_err(|error| internal("load request", error))?;
        let response = self.call_json("loadExtensions", &request).await?;
        let report: JsLoadReport = serde_json::from_str(&response).map_err(|error| internal("load report", error))?;
        Ok(InspectReport {
            cwd: self.options.cwd.clone(),
            agent_dir: self.options.agent_dir.clone(),
            extensions: report.extensions,
            errors: report.errors,
            flag_values: report.flag_values,
            pending_providers: report.pending_providers,
            total_load_ms: started.elapsed().as_secs_f64() * 1000.0,
        })
    }

    /// Calls a runtime function with one JSON string and awaits the JSON
    /// string it resolves to, running the event loop meanwhile.
    async fn call_json(&mut self, name: &str, argument: &str) -> Result<String, PihostError> {
        let context = name;
        let function = self.export_function(name)?;
        let argument = {
            deno_core::scope!(scope, &mut self.runtime);
            let value = v8::String::new(scope, argument).ok_or_else(|| internal(context, "argument too large"))?;
            v8::Global::new(scope, v8::Local::<v8::Value>::from(value))
        };
        let call = self.runtime.call_with_args(&function, &[argument]);
        let result = self
            .runtime
            .with_event_loop_promise(call, PollEventLoopOptions::default())
            .await
            .map_err(|error| internal(context, error))?;
        deno_core::scope!(scope, &mut self.runtime);
        let result = v8::Local::new(scope, result);
        Ok(result.to_rust_string_lossy(scope))
    }
}

/// Discovers and loads extensions in a fresh engine on the current thread.
pub fn inspect_blocking(options: EngineOptions, configured_paths: &[String]) -> Result<InspectReport, PihostError> {
    let started = Instant::now();
    let async_runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(PihostError::AsyncRuntime)?;
    let mut report = async_runtime.block_on(async {
        let mut engine = Engine::new(options).await?;
        engine.inspect(configured_paths).await
    })?;
    report.total_load_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(report)
}
