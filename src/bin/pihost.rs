//! The pihost command line: `pihost inspect` shows what pi extensions
//! register, or exactly why they failed, the way pi itself loads them.

#[path = "pihost/tty.rs"]
mod tty;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use pihost::engine::EngineOptions;
use pihost::handle::inspect_blocking;
use pihost::report::InspectReport;

#[derive(Parser)]
#[command(name = "pihost", version, about = "Run unmodified pi coding-agent extensions")]
struct Cli {
    #[command(subcommand)]
    command: Verb,
}

#[derive(Subcommand)]
enum Verb {
    /// Discover and load extensions, then list what each registers and every load error.
    Inspect {
        /// Extension files or directories, as `pi -e` would take them.
        paths: Vec<String>,
        /// Project directory: its `.pi/extensions` is searched and relative paths start here.
        #[arg(long)]
        cwd: Option<PathBuf>,
        /// pi's agent directory (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent).
        #[arg(long)]
        agent_dir: Option<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Show where each extension's load time went (resolve, read,
        /// transpile, rewrite, compile, evaluate, factory) and its slowest
        /// modules; the JSON report always has them.
        #[arg(long)]
        timing: bool,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        permissions: PermissionArgs,
    },
    /// Run compat scenarios (folders with scenario.json and expected.json,
    /// or folders of them) and report pass or fail for each.
    Compat {
        /// Scenario folders, or folders holding scenario folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Load extensions, bind a recording host, dispatch one event (JSON, or -
    /// for stdin) with its merge rule, and print the result, every host call
    /// and every extension error as JSON.
    Emit {
        /// The event, e.g. '{"type":"tool_call","toolName":"bash","input":{"command":"ls"}}', or - to read stdin.
        #[arg(long)]
        event: String,
        #[command(flatten)]
        session: SessionArgs,
        #[command(flatten)]
        ui: UiArgs,
    },
    /// Load extensions and execute one registered tool.
    Tool {
        /// The tool's name.
        name: String,
        /// Its arguments as JSON, or - to read stdin.
        #[arg(long, default_value = "{}")]
        args: String,
        /// The tool call id the tool sees.
        #[arg(long, default_value = "call-1")]
        tool_call_id: String,
        #[command(flatten)]
        session: SessionArgs,
        #[command(flatten)]
        ui: UiArgs,
    },
    /// Load extensions and run one command by its invocation name.
    Command {
        /// The command's invocation name, without the slash.
        name: String,
        /// The argument text the command gets.
        #[arg(long, default_value = "")]
        args: String,
        #[command(flatten)]
        session: SessionArgs,
        #[command(flatten)]
        ui: UiArgs,
    },
    /// Speak newline-delimited JSON-RPC 2.0 on stdin/stdout, for agents in
    /// any language (see docs/protocol.md). Logs go to stderr.
    Serve {
        /// Default project directory (initialize may name another).
        #[arg(long)]
        cwd: Option<PathBuf>,
        /// Print the protocol's JSON Schema (generated from pihost's Rust
        /// types; docs/protocol.schema.json is this output) and exit.
        #[arg(long)]
        schema: bool,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        permissions: PermissionArgs,
        /// Default dispatch timeout of a session (initialize's dispatchTimeoutMs overrides it); 0 is none.
        #[arg(long, default_value_t = pihost::protocol::DEFAULT_SERVE_DISPATCH_TIMEOUT_MS)]
        timeout_ms: u64,
        /// How many sessions (`params.session`, each a runtime of its own) may be open at once.
        #[arg(long, default_value_t = pihost::serve::DEFAULT_MAX_SESSIONS as u64, value_parser = clap::value_parser!(u64).range(1..))]
        max_sessions: u64,
        /// Sessions with the same options share one runtime (the shared mode:
        /// modules evaluated once, ~1 ms and well under 1 MiB a further small
        /// session) instead of each having its own; not for permissions that
        /// restrict anything.
        #[arg(long)]
        shared_sessions: bool,
    },
    /// Serve the extensions' tools over the Model Context Protocol on
    /// stdin/stdout (revision 2025-11-25; see docs/mcp.md), for MCP clients
    /// such as Claude Code, Codex or Cursor. Logs go to stderr.
    Mcp {
        /// Extension files or directories, besides what pi discovers for the project.
        paths: Vec<String>,
        /// Project directory (default: the current directory).
        #[arg(long)]
        cwd: Option<PathBuf>,
        /// pi's agent directory.
        #[arg(long)]
        agent_dir: Option<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        permissions: PermissionArgs,
        /// Give up on a tool call after this many milliseconds (its signal is aborted); 0 is none.
        #[arg(long, default_value_t = pihost::protocol::DEFAULT_SERVE_DISPATCH_TIMEOUT_MS)]
        timeout_ms: u64,
        /// How long the client may take to answer an elicitation or sampling request, in milliseconds.
        #[arg(long, default_value_t = 600_000)]
        client_timeout_ms: u64,
    },
    /// List pi's virtual modules (what extensions import from pi) and which
    /// of their exports pihost implements.
    Modules {
        /// Print the full list of names not implemented yet, as Markdown
        /// (docs/not-implemented.md is this output).
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// Print the status as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Make, as a build or install step, what every first start would
    /// otherwise make for itself, and keep it beside the binary: the startup
    /// snapshot (or in $PIHOST_STARTUP_SNAPSHOT_DIR) and the platform's
    /// compiled code.
    Prepare,
}

/// Options shared by the one-shot commands (emit, tool, command).
#[derive(clap::Args)]
struct SessionArgs {
    /// Extension files or directories.
    #[arg(long = "extension", short = 'e')]
    paths: Vec<String>,
    /// Project directory.
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// pi's agent directory.
    #[arg(long)]
    agent_dir: Option<PathBuf>,
    /// Answer a host request, e.g. --answer ui.confirm=true --answer 'ui.select="b"'. Giving
    /// any ui.* answer gives the extensions a UI (ctx.hasUI is true).
    #[arg(long = "answer")]
    answers: Vec<String>,
    /// Host state the extensions' getters read, as JSON (model, activeTools, …).
    #[arg(long)]
    state: Option<String>,
    /// Give up on the dispatch after this many milliseconds (a tool is aborted through its signal); 0 is
    /// none. Default 60000, and none with --tty (a person may take their time).
    #[arg(long)]
    timeout_ms: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    permissions: PermissionArgs,
}

/// A UI for `emit`, `tool` and `command`: pihost draws the extensions'
/// components itself and sends them keys, scripted (`--keys`) or typed in
/// the terminal (`--tty`).
#[derive(clap::Args)]
struct UiArgs {
    /// Run with a UI as pi's interactive mode does, in this terminal: the extensions' components
    /// are drawn on its alternate screen at its size, laid out as pi lays out its screen, and what
    /// you type goes to the focused one. ctrl+c goes to the component; a second ctrl+c in a row,
    /// or ctrl+\, aborts the run (exit code 130). When the call ends the terminal is restored and
    /// the same JSON as without --tty (less the frames) is printed; an editor an extension set
    /// (ctx.ui.setEditorComponent) keeps the run going after the call, until it goes or you abort,
    /// and what you submit in it is a ui.editorSubmit host call. Needs a terminal on stdin and
    /// stdout.
    #[arg(long, conflicts_with = "keys")]
    tty: bool,
    /// Run with a UI as pi's interactive mode does (ctx.mode "tui") and send these keys, one at a
    /// time, to whichever component has focus: pi-tui key names separated by commas
    /// ("down,down,enter", "ctrl+c", "a"), or a JSON list of raw sequences ('["\u001b[B","\r"]').
    /// A component still open when the keys run out is closed and its ctx.ui.custom promise
    /// rejects ("the keys ran out"); keys left when the call has finished go on to an editor an
    /// extension set (ctx.ui.setEditorComponent) while it has focus; --keys '' gives a screen and
    /// no keys.
    #[arg(long)]
    keys: Option<String>,
    /// The width components are drawn at.
    #[arg(long, default_value_t = 80, requires = "keys")]
    width: u16,
    /// The height of the screen (overlays' percentages are of it).
    #[arg(long, default_value_t = 24, requires = "keys")]
    height: u16,
}

impl UiArgs {
    fn mode(&self) -> anyhow::Result<Option<UiMode>> {
        if self.tty {
            tty::require_terminal()?;
            return Ok(Some(UiMode::Terminal));
        }
        Ok(self.script()?.map(UiMode::Scripted))
    }

    fn script(&self) -> anyhow::Result<Option<UiScript>> {
        let Some(keys) = &self.keys else { return Ok(None) };
        let keys = if keys.trim_start().starts_with('[') {
            let raw: Vec<String> =
                serde_json::from_str(keys).context("--keys: a JSON list must hold raw key sequences (strings)")?;
            Keys::Raw(raw)
        } else {
            Keys::Names(
                keys.split(',')
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(str::to_string)
                    .collect(),
            )
        };
        if self.width == 0 || self.height == 0 {
            anyhow::bail!("--width and --height must be at least 1");
        }
        Ok(Some(UiScript {
            keys,
            size: pihost::ui::TerminalSize {
                columns: self.width,
                rows: self.height,
            },
        }))
    }
}

/// The keys of a scripted UI, as given.
enum Keys {
    /// pi-tui key names, translated to what a terminal sends.
    Names(Vec<String>),
    /// Raw sequences, sent as they are.
    Raw(Vec<String>),
}

impl Keys {
    fn as_given(&self) -> &[String] {
        match self {
            Keys::Names(keys) | Keys::Raw(keys) => keys,
        }
    }
}

struct UiScript {
    keys: Keys,
    size: pihost::ui::TerminalSize,
}

/// How the components of a one-shot command are shown, when they are.
enum UiMode {
    /// `--keys`: drawn into frames the JSON output lists, with keys given up front.
    Scripted(UiScript),
    /// `--tty`: drawn in the terminal, with keys typed into it.
    Terminal,
}

/// The default of `--timeout-ms` for emit, tool and command.
const DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// What one extension may take before it is stopped (0 turns a limit off).
#[derive(clap::Args)]
struct LimitArgs {
    /// Terminate a synchronous run of extension code (a factory, a handler, a tool, a timer callback) after this many milliseconds.
    #[arg(long, default_value_t = pihost::limits::DEFAULT_CPU_LIMIT.as_millis() as u64)]
    cpu_limit_ms: u64,
    /// The heap limit of the runtime, in MiB.
    #[arg(long, default_value_t = pihost::limits::DEFAULT_MAX_HEAP_MB as u64)]
    max_heap_mb: u64,
    /// Fail an extension whose module and factory have not settled after this many milliseconds, and load the next.
    #[arg(long, default_value_t = pihost::limits::DEFAULT_LOAD_TIMEOUT.as_millis() as u64)]
    load_timeout_ms: u64,
}

impl LimitArgs {
    fn limits(&self) -> pihost::Limits {
        pihost::Limits {
            cpu: pihost::Limits::millis(self.cpu_limit_ms),
            max_heap_mb: (self.max_heap_mb > 0).then_some(self.max_heap_mb as usize),
            load_timeout: pihost::Limits::millis(self.load_timeout_ms),
        }
    }
}

/// What extensions may touch, in Deno's spelling. Without `--sandbox`
/// everything is allowed but what a `--deny-*` names (pi's behaviour).
#[derive(clap::Args)]
struct PermissionArgs {
    /// Deny every file, process, network, environment and system touch not granted below.
    #[arg(long)]
    sandbox: bool,
    /// Grant everything.
    #[arg(long, short = 'A')]
    allow_all: bool,
    /// Ask the host about every touch not granted (a permission.request host call; on the CLI,
    /// answer it with --answer 'permission.request="allowOnce"', "allowAlways" or "deny").
    #[arg(long)]
    prompt: bool,
    /// How long a prompt may wait for its answer before the touch is denied.
    #[arg(long, value_name = "MS")]
    prompt_timeout_ms: Option<u64>,
    /// Files and folders extensions may read (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PATHS")]
    allow_read: Option<Vec<String>>,
    /// Files and folders extensions may write (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PATHS")]
    allow_write: Option<Vec<String>>,
    /// Programs extensions may run (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PROGRAMS")]
    allow_run: Option<Vec<String>>,
    /// Hosts (HOST[:PORT]) extensions may reach or listen on (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "HOSTS")]
    allow_net: Option<Vec<String>>,
    /// Environment variables extensions may read and set (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "NAMES")]
    allow_env: Option<Vec<String>>,
    /// System facts extensions may read (hostname, osRelease, …; all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "NAMES")]
    allow_sys: Option<Vec<String>>,
    /// Files and folders extensions may never read (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PATHS")]
    deny_read: Option<Vec<String>>,
    /// Files and folders extensions may never write (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PATHS")]
    deny_write: Option<Vec<String>>,
    /// Programs extensions may never run (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PROGRAMS")]
    deny_run: Option<Vec<String>>,
    /// Hosts extensions may never reach (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "HOSTS")]
    deny_net: Option<Vec<String>>,
    /// Environment variables extensions may never read (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "NAMES")]
    deny_env: Option<Vec<String>>,
    /// System facts extensions may never read (all without a list).
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "NAMES")]
    deny_sys: Option<Vec<String>>,
    /// In a sandbox, hide environment variables matching these patterns (`*` is any run of
    /// characters) from extensions and the programs they run, unless --allow-env names them.
    /// Default: credentials by convention (*_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD, AWS_*, …;
    /// README, "Sandbox"); `--secret-env=` hides nothing.
    #[arg(long, num_args = 0..=1, require_equals = true, value_delimiter = ',', default_missing_value = "", value_name = "PATTERNS")]
    secret_env: Option<Vec<String>>,
    /// In a sandbox, run the programs extensions start confined by the kernel (Landlock) to the
    /// file and network grants: best-effort (default: where the kernel can, saying once where it
    /// cannot), require (refuse programs that cannot be confined fully) or off.
    #[arg(long, value_enum, default_value = "best-effort")]
    confine: ConfineArg,
    /// Which decisions about touches the audit stream (permission.decision) reports: refusals
    /// (default: every refusal and every answer to a prompt) or all (what grants allowed too).
    #[arg(long, value_enum, default_value = "refusals")]
    audit: AuditArg,
    /// Also write the audit stream to FILE, a line of JSON per decision (appended).
    #[arg(long, value_name = "FILE")]
    audit_file: Option<PathBuf>,
    /// Per-extension grants ({"extensions": {"./ext.ts" or "package-name": {"allowRead": [...], …}}});
    /// default: <cwd>/.pi/pihost-permissions.json when it exists. Each extension granted more than
    /// the session runs in a runtime of its own.
    #[arg(long, value_name = "FILE")]
    permissions_file: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum AuditArg {
    Refusals,
    All,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ConfineArg {
    BestEffort,
    Require,
    Off,
}

impl PermissionArgs {
    fn permissions(&self, cwd: &Path) -> anyhow::Result<pihost::Permissions> {
        // `--allow-read` alone arrives as one empty value: everything.
        let list = |values: &Option<Vec<String>>| {
            values
                .as_ref()
                .map(|values| values.iter().filter(|value| !value.is_empty()).cloned().collect())
        };
        Ok(pihost::Permissions {
            sandbox: self.sandbox,
            allow_all: self.allow_all,
            prompt: self.prompt,
            prompt_timeout_ms: self.prompt_timeout_ms,
            allow_read: list(&self.allow_read),
            allow_write: list(&self.allow_write),
            allow_run: list(&self.allow_run),
            allow_net: list(&self.allow_net),
            allow_env: list(&self.allow_env),
            allow_sys: list(&self.allow_sys),
            deny_read: list(&self.deny_read),
            deny_write: list(&self.deny_write),
            deny_run: list(&self.deny_run),
            deny_net: list(&self.deny_net),
            deny_env: list(&self.deny_env),
            deny_sys: list(&self.deny_sys),
            secret_env: list(&self.secret_env),
            confine: match self.confine {
                ConfineArg::BestEffort => pihost::confine::ConfineMode::BestEffort,
                ConfineArg::Require => pihost::confine::ConfineMode::Require,
                ConfineArg::Off => pihost::confine::ConfineMode::Off,
            },
            audit: match self.audit {
                AuditArg::Refusals => pihost::permissions::AuditScope::Refusals,
                AuditArg::All => pihost::permissions::AuditScope::All,
            },
            // Relative to where pihost was started, like --permissions-file.
            audit_file: self.audit_file.as_deref().map(std::path::absolute).transpose()?,
            extensions: self.policy(cwd)?,
        })
    }

    /// The per-extension grants: the file named, or the project's own.
    fn policy(
        &self,
        cwd: &Path,
    ) -> anyhow::Result<std::collections::BTreeMap<String, pihost::permissions::ExtensionGrant>> {
        let file = match &self.permissions_file {
            Some(file) => file.clone(),
            None => {
                let default = cwd.join(pihost::permissions::POLICY_FILE);
                if !default.exists() {
                    return Ok(Default::default());
                }
                default
            }
        };
        Ok(pihost::permissions::read_policy_file(&file)?)
    }
}

/// The session options of `serve` and `mcp`: the cwd (default: the
/// current directory), limits and permissions from the flags.
fn served_options(
    cwd: Option<PathBuf>,
    limits: &LimitArgs,
    permissions: &PermissionArgs,
) -> anyhow::Result<EngineOptions> {
    let cwd = match cwd {
        Some(cwd) => cwd,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let mut options = EngineOptions::for_cwd(&cwd);
    options.limits = limits.limits();
    options.permissions = permissions.permissions(&cwd)?;
    Ok(options)
}

fn main() -> ExitCode {
    // Started as the launcher of a confined program, this process becomes that program.
    pihost::confine::run_launcher_if_asked();
    let cli = Cli::parse();
    // SAFETY: first in main, before any thread starts and before any runtime.
    // `prepare` compiles the platform's code into a folder of its own.
    let staged = unsafe {
        if matches!(cli.command, Verb::Prepare) {
            pihost::engine_cache::stage_platform_bytecode()
        } else {
            pihost::engine_cache::scope_bytecode_cache_to_this_build();
            Ok(None)
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("PIHOST_LOG"))
        .with_writer(std::io::stderr)
        .init();
    // Every verb's stdout is its report (or serve's protocol): what
    // extensions print goes to stderr, where it cannot corrupt either.
    pihost::route_extension_stdout_to_stderr(true);
    let outcome = run(cli, staged);
    // A first start keeps the runtime's snapshot for the starts after it.
    pihost::startup_snapshot::finish_making();
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("pihost: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// `staged`: the folder `prepare` compiles the platform's code into.
fn run(cli: Cli, staged: std::io::Result<Option<PathBuf>>) -> anyhow::Result<ExitCode> {
    match cli.command {
        Verb::Modules { markdown, json } => module_status(markdown, json),
        Verb::Prepare => prepare(staged),
        Verb::Compat { dirs } => run_compat(&dirs),
        Verb::Serve { schema: true, .. } => {
            let schema = serde_json::to_string_pretty(&pihost::protocol::schema())?;
            println!("{schema}");
            Ok(ExitCode::SUCCESS)
        }
        Verb::Serve {
            cwd,
            limits,
            permissions,
            timeout_ms,
            max_sessions,
            shared_sessions,
            ..
        } => {
            let options = served_options(cwd, &limits, &permissions)?;
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            let policy = pihost::serve::SessionPolicy {
                max_sessions: usize::try_from(max_sessions).unwrap_or(usize::MAX),
                share_runtimes: shared_sessions,
            };
            runtime.block_on(pihost::serve::serve_with(options, timeout_ms, policy));
            Ok(ExitCode::SUCCESS)
        }
        Verb::Mcp {
            paths,
            cwd,
            agent_dir,
            limits,
            permissions,
            timeout_ms,
            client_timeout_ms,
        } => {
            let mut engine = served_options(cwd, &limits, &permissions)?;
            if let Some(agent_dir) = agent_dir {
                engine.agent_dir = pihost::discovery::resolve_user_path(&agent_dir.display().to_string(), &engine.cwd);
            }
            let options = pihost::mcp::McpOptions {
                engine,
                paths,
                dispatch_timeout: pihost::Limits::millis(timeout_ms),
                client_timeout: std::time::Duration::from_millis(client_timeout_ms),
            };
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            runtime.block_on(pihost::mcp::serve_mcp(options));
            Ok(ExitCode::SUCCESS)
        }
        Verb::Emit { event, session, ui } => {
            let event: serde_json::Value = parse_json_argument("--event", &event)?;
            one_shot(
                session,
                ui.mode()?,
                Box::new(move |pihost| Box::pin(async move { pihost.emit(&event).await })),
            )
        }
        Verb::Tool {
            name,
            args,
            tool_call_id,
            session,
            ui,
        } => {
            let args: serde_json::Value = parse_json_argument("--args", &args)?;
            one_shot(
                session,
                ui.mode()?,
                Box::new(move |pihost| {
                    Box::pin(async move { pihost.execute_tool(&name, &tool_call_id, &args, None).await })
                }),
            )
        }
        Verb::Command {
            name,
            args,
            session,
            ui,
        } => one_shot(
            session,
            ui.mode()?,
            Box::new(move |pihost| Box::pin(async move { pihost.run_command(&name, &args).await })),
        ),
        Verb::Inspect {
            paths,
            cwd,
            agent_dir,
            json,
            timing,
            limits,
            permissions,
        } => {
            let cwd = match cwd {
                Some(cwd) => cwd,
                None => std::env::current_dir().context("cannot read the current directory")?,
            };
            if !cwd.is_dir() {
                anyhow::bail!("--cwd {} is not a directory", cwd.display());
            }
            let mut options = EngineOptions::for_cwd(&cwd);
            options.limits = limits.limits();
            options.permissions = permissions.permissions(&cwd)?;
            if let Some(agent_dir) = agent_dir {
                options.agent_dir =
                    pihost::discovery::resolve_user_path(&agent_dir.display().to_string(), &options.cwd);
            }
            let report = inspect_blocking(options, &paths)?;
            let mut stdout = std::io::stdout().lock();
            if json {
                serde_json::to_writer_pretty(&mut stdout, &report)?;
                writeln!(stdout)?;
            } else {
                write!(stdout, "{}", render_table(&report, timing))?;
            }
            // A failed extension is the answer, not a failure of the command;
            // say so in the exit code all the same, so scripts can tell.
            Ok(if report.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// `pihost prepare`: the startup snapshot, then (when the engine's cache
/// was `staged` for it) the platform's bytecode, both kept beside the binary.
fn prepare(staged: std::io::Result<Option<PathBuf>>) -> anyhow::Result<ExitCode> {
    let snapshot = pihost::engine::prepare_startup_snapshot()?;
    println!("startup snapshot   {}", snapshot.display());
    let Some(staging) = staged.context("cannot make a folder beside the binary for the platform's bytecode")? else {
        println!("platform bytecode  not prepared: V82JSC_BC_CACHE_DIR or V82JSC_NO_BC_CACHE is set");
        return Ok(ExitCode::SUCCESS);
    };
    let prepared = pihost::prepare::platform_bytecode(&staging)?;
    println!(
        "platform bytecode  {} ({} compiled units)",
        prepared.folder.display(),
        prepared.units
    );
    for line in &prepared.not_compiled {
        println!("  not compiled ahead: {line}");
    }
    Ok(ExitCode::SUCCESS)
}

fn parse_json_argument(flag: &str, text: &str) -> anyhow::Result<serde_json::Value> {
    let text = if text == "-" {
        let mut input = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut input).context("cannot read stdin")?;
        input
    } else {
        text.to_string()
    };
    serde_json::from_str(&text).with_context(|| format!("{flag} is not valid JSON"))
}

/// One call against a loaded, bound engine (emit, tool or command).
type Operation = Box<
    dyn FnOnce(
        pihost::Pihost,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Option<serde_json::Value>, pihost::PihostError>>>,
    >,
>;

/// What a scripted UI run adds to the one-shot output.
struct UiRun {
    frames: Vec<pihost::ui::Frame>,
    unused_keys: Vec<String>,
    closed_components: Vec<u64>,
}

/// Runs `operation` while sending `keys` one at a time to whichever
/// component has focus; when they run out, components still open are
/// closed (their promises reject) so the call can finish.
async fn drive_ui(
    pihost: &pihost::Pihost,
    keys: &[String],
    operation: std::pin::Pin<Box<dyn std::future::Future<Output = CallOutcome>>>,
) -> (CallOutcome, usize, Vec<u64>) {
    let mut operation = operation;
    let mut sent = 0;
    for (index, key) in keys.iter().enumerate() {
        tokio::select! {
            outcome = &mut operation => {
                return match type_into_editor(pihost, &keys[index..]).await {
                    Ok(typed) => (outcome, sent + typed, Vec::new()),
                    Err(error) => (Err(error), sent, Vec::new()),
                };
            },
            ready = pihost.wait_for_component() => if let Err(error) = ready {
                return (Err(error), sent, Vec::new());
            },
        }
        if let Err(error) = pihost.send_key(key).await {
            return (Err(error), sent, Vec::new());
        }
        sent += 1;
    }
    let mut closed = Vec::new();
    loop {
        tokio::select! {
            outcome = &mut operation => return (outcome, sent, closed),
            ready = pihost.wait_for_component() => if let Err(error) = ready {
                return (Err(error), sent, closed);
            },
        }
        match pihost.close_components(KEYS_RAN_OUT).await {
            // Only a component of no ctx.ui.custom call has focus: nothing
            // of the call waits on keys, so it finishes (or times out) alone.
            Ok(ids) if ids.is_empty() => return (operation.await, sent, closed),
            Ok(ids) => closed.extend(ids),
            Err(error) => return (Err(error), sent, closed),
        }
    }
}

/// Keys left when the call has finished go on to the extension's editor
/// (`ctx.ui.setEditorComponent`) while it has focus, as they would in pi,
/// where the editor outlives the call that set it; answers how many it took.
/// With no editor focused they are left unused, as before.
async fn type_into_editor(pihost: &pihost::Pihost, keys: &[String]) -> Result<usize, pihost::PihostError> {
    let mut typed = 0;
    for key in keys {
        let focused = pihost.focused_component().await?;
        if focused.map(|focused| focused.kind) != Some(pihost::ui::FrameKind::Editor) {
            break;
        }
        pihost.send_key(key).await?;
        typed += 1;
    }
    Ok(typed)
}

/// Why a component still open after the last key is closed.
const KEYS_RAN_OUT: &str = "pihost: the keys given with --keys ran out while this component was still open";

/// What one call answered: a result (`None` is pi's `undefined`) or its failure.
pub(crate) type CallOutcome = Result<Option<serde_json::Value>, pihost::PihostError>;

/// Loads, binds a recording host, runs one operation (under a scripted UI
/// or in the terminal when `ui` says so), and prints { result, error?,
/// frames?, aborted?, hostCalls, errors, loadErrors } as JSON.
fn one_shot(session: SessionArgs, ui: Option<UiMode>, operation: Operation) -> anyhow::Result<ExitCode> {
    let cwd = match session.cwd {
        Some(cwd) => cwd,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    if !cwd.is_dir() {
        anyhow::bail!("--cwd {} is not a directory", cwd.display());
    }
    let mut options = EngineOptions::for_cwd(&cwd);
    options.limits = session.limits.limits();
    options.permissions = session.permissions.permissions(&cwd)?;
    if let Some(agent_dir) = &session.agent_dir {
        options.agent_dir = pihost::discovery::resolve_user_path(&agent_dir.display().to_string(), &options.cwd);
    }
    let host = std::sync::Arc::new(pihost::host::RecordingHost::new());
    options.permission_host = Some(pihost::PermissionHost(host.clone()));
    let mut has_ui = false;
    for answer in &session.answers {
        let (method, value) = answer
            .split_once('=')
            .with_context(|| format!("--answer {answer}: expected METHOD=JSON"))?;
        let value: serde_json::Value =
            serde_json::from_str(value).with_context(|| format!("--answer {answer}: the value is not JSON"))?;
        has_ui |= method.starts_with("ui.");
        host.answer(method, value);
    }
    let mut state: pihost::host::HostState = match &session.state {
        Some(text) => serde_json::from_str(text).context("--state is not valid host state JSON")?,
        None => pihost::host::HostState::default(),
    };
    if has_ui {
        state.has_ui = Some(true);
    }
    let in_terminal = matches!(ui, Some(UiMode::Terminal));
    let timeout_ms = session
        .timeout_ms
        .unwrap_or(if in_terminal { 0 } else { DEFAULT_TIMEOUT_MS });
    // Under --tty the frames go to the terminal, not into hostCalls.
    let (frame_sender, frame_receiver) = tokio::sync::mpsc::unbounded_channel();
    let bound_host: std::sync::Arc<dyn pihost::host::Host> = if in_terminal {
        std::sync::Arc::new(tty::TtyHost {
            recorder: host.clone(),
            frames: frame_sender,
        })
    } else {
        host.clone()
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async move {
        let pihost = pihost::Pihost::start(options).await?;
        pihost.set_dispatch_timeout(pihost::Limits::millis(timeout_ms));
        let mut errors = pihost.errors();
        let report = pihost.load(&session.paths).await?;
        pihost.bind(bound_host, &state).await?;
        let mut aborted = None;
        let (outcome, ui_run) = match &ui {
            None => (operation(pihost.clone()).await.map_err(|error| error.to_string()), None),
            Some(UiMode::Terminal) => {
                let terminal = tty::Terminal::enter()?;
                let size = tty::Terminal::size()?;
                pihost.attach_screen(size, pihost::ui::FrameDelivery::Push).await?;
                let run = tty::drive(&pihost, &terminal, size, frame_receiver, operation(pihost.clone())).await;
                // The terminal is back before anything is printed.
                drop(terminal);
                let run = run?;
                aborted = run.aborted;
                let outcome = match run.outcome {
                    Some(outcome) => outcome.map_err(|error| error.to_string()),
                    None => {
                        Err("the call had not finished two seconds after the abort closed its components".to_string())
                    }
                };
                (outcome, None)
            }
            Some(UiMode::Scripted(script)) => {
                pihost.attach_terminal(script.size).await?;
                let sequences = match &script.keys {
                    Keys::Names(names) => pihost.key_sequences(names).await.context("--keys")?,
                    Keys::Raw(raw) => raw.clone(),
                };
                let (outcome, sent, closed_components) = drive_ui(&pihost, &sequences, operation(pihost.clone())).await;
                let run = UiRun {
                    frames: pihost.take_frames().await?,
                    unused_keys: script.keys.as_given()[sent..].to_vec(),
                    closed_components,
                };
                (outcome.map_err(|error| error.to_string()), Some(run))
            }
        };
        let mut reported = Vec::new();
        while let Ok(error) = errors.try_recv() {
            reported.push(error);
        }
        let mut output = serde_json::json!({
            "hostCalls": host.calls(),
            "errors": reported,
            "loadErrors": report.errors,
        });
        if let Some(run) = ui_run {
            output["frames"] = serde_json::to_value(&run.frames)?;
            if !run.unused_keys.is_empty() {
                output["unusedKeys"] = serde_json::to_value(&run.unused_keys)?;
            }
            if !run.closed_components.is_empty() {
                output["closedComponents"] = serde_json::to_value(&run.closed_components)?;
            }
        }
        if let Some(how) = &aborted {
            output["aborted"] = serde_json::Value::String(how.clone());
        }
        let failed = match outcome {
            Ok(Some(result)) => {
                output["result"] = result;
                false
            }
            Ok(None) => false,
            Err(error) => {
                output["error"] = serde_json::Value::String(error);
                true
            }
        };
        let mut stdout = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut stdout, &output)?;
        writeln!(stdout)?;
        Ok(if aborted.is_some() {
            // What a shell reports for a run ended by ctrl+c.
            ExitCode::from(130)
        } else if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        })
    })
}

fn run_compat(dirs: &[PathBuf]) -> anyhow::Result<ExitCode> {
    use pihost::compat::{Outcome, check_scenario, find_scenarios};
    let scenarios = find_scenarios(dirs);
    if scenarios.is_empty() {
        anyhow::bail!(
            "no scenario.json under {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let (mut passed, mut failed) = (0, 0);
    for dir in &scenarios {
        let result = check_scenario(dir);
        let name = dir.display();
        match result.outcome {
            Outcome::Passed => {
                passed += 1;
                println!("pass  {name}");
            }
            Outcome::Failed(diff) => {
                failed += 1;
                println!("FAIL  {name}\n{diff}");
            }
            Outcome::Broken(message) => {
                failed += 1;
                println!("FAIL  {name}: {message}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn module_status(markdown: bool, json: bool) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let status = runtime.block_on(async {
        let mut engine = pihost::Engine::new(EngineOptions::for_cwd(&cwd)).await?;
        engine.virtual_module_status().await
    })?;
    let mut stdout = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut stdout, &status)?;
        writeln!(stdout)?;
    } else if markdown {
        write!(stdout, "{}", render_missing_markdown(&status))?;
    } else {
        writeln!(
            stdout,
            "{:<26} {:>11} {:>8} {:>14}",
            "module", "implemented", "not yet", "not in a host"
        )?;
        for (id, module) in &status {
            writeln!(
                stdout,
                "{:<26} {:>11} {:>8} {:>14}",
                id,
                module.implemented.len(),
                module.not_implemented.len(),
                module.not_in_a_host.len()
            )?;
        }
        writeln!(
            stdout,
            "\n`pihost modules --markdown` lists every name not implemented yet."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn render_missing_markdown(status: &std::collections::BTreeMap<String, pihost::engine::ModuleStatus>) -> String {
    let mut out = String::from(
        "# Exports of pi's packages that pihost does not implement yet\n\n\
         Generated by `pihost modules --markdown`; do not edit. Every name links, so no\n\
         extension fails at import; using one of these throws\n\
         `pihost: <module>.<name> is not implemented yet`, or for an export that cannot\n\
         mean anything inside a host (the last section)\n\
         `pihost: <module>.<name> cannot work inside a host: <reason>`. Both\n\
         `@earendil-works/` and `@mariozechner/` prefixes name the same modules.\n\n\
         | module | implemented | not yet | not in a host |\n|---|---:|---:|---:|\n",
    );
    for (id, module) in status {
        out.push_str(&format!(
            "| `{id}` | {} | {} | {} |\n",
            module.implemented.len(),
            module.not_implemented.len(),
            module.not_in_a_host.len()
        ));
    }
    for (id, module) in status {
        if module.not_implemented.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## `{id}`\n\n"));
        let names: Vec<String> = module.not_implemented.iter().map(|name| format!("`{name}`")).collect();
        out.push_str(&names.join(", "));
        out.push('\n');
    }
    if status.values().any(|module| !module.not_in_a_host.is_empty()) {
        out.push_str("\n## Not meaningful inside a host\n\n");
        for (id, module) in status {
            for export in &module.not_in_a_host {
                out.push_str(&format!("- `{id}` `{}`: {}.\n", export.name, export.reason));
            }
        }
    }
    out
}

fn names<T>(items: &[T], name: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.iter().map(name).collect::<Vec<_>>().join(", ")
    }
}

fn render_table(report: &InspectReport, timing: bool) -> String {
    let mut out = String::new();
    let loaded = report.extensions.len();
    let failed = report.errors.len();
    out.push_str(&format!(
        "{loaded} extension{} loaded, {failed} failed, in {:.1} ms (cwd {})\n",
        if loaded == 1 { "" } else { "s" },
        report.total_load_ms,
        report.cwd.display()
    ));
    if timing {
        render_timing_summary(&mut out, report);
    }
    for extension in &report.extensions {
        out.push_str(&format!("\n{}  ({:.2} ms)\n", extension.path, extension.load_time_ms));
        if timing && let Some(stages) = &extension.timing {
            render_timing(&mut out, stages);
        }
        let rows = [
            ("tools", names(&extension.tools, |tool| tool.name.clone())),
            (
                "commands",
                names(&extension.commands, |command| format!("/{}", command.name)),
            ),
            (
                "flags",
                names(&extension.flags, |flag| match &flag.default {
                    Some(default) => format!("--{}={default}", flag.name),
                    None => format!("--{} ({})", flag.name, flag.flag_type),
                }),
            ),
            (
                "shortcuts",
                names(&extension.shortcuts, |shortcut| shortcut.shortcut.clone()),
            ),
            (
                "events",
                if extension.handlers.is_empty() {
                    "-".to_string()
                } else {
                    extension
                        .handlers
                        .iter()
                        .map(|(event, count)| {
                            if *count == 1 {
                                event.clone()
                            } else {
                                format!("{event}×{count}")
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            ),
            ("renderers", {
                let mut parts: Vec<String> = extension
                    .message_renderers
                    .iter()
                    .map(|t| format!("message:{t}"))
                    .collect();
                parts.extend(extension.entry_renderers.iter().map(|t| format!("entry:{t}")));
                if extension.tool_renderers > 0 {
                    parts.push(format!("tool×{}", extension.tool_renderers));
                }
                if extension.markdown_transformer {
                    parts.push("markdown".to_string());
                }
                if parts.is_empty() {
                    "-".to_string()
                } else {
                    parts.join(", ")
                }
            }),
        ];
        for (label, value) in rows {
            if value != "-" {
                out.push_str(&format!("  {label:<10} {value}\n"));
            }
        }
        if let Some(policy) = &extension.isolated {
            out.push_str(&format!(
                "  {:<10} in a runtime of its own, with the grant of {policy:?}\n",
                "isolated"
            ));
        }
        render_denials(&mut out, &extension.denied);
    }
    if !report.pending_providers.is_empty() {
        out.push_str("\nproviders waiting for a host:\n");
        for provider in &report.pending_providers {
            out.push_str(&format!(
                "  {}  (from {})\n",
                provider.name.as_deref().unwrap_or("<unnamed>"),
                provider.extension_path
            ));
        }
    }
    if !report.errors.is_empty() {
        out.push_str("\nerrors:\n");
        for error in &report.errors {
            out.push_str(&format!("  {}\n    {}\n", error.path, error.error));
            if let Some(location) = error.stack.as_deref().and_then(first_user_frame) {
                out.push_str(&format!("    at {location}\n"));
            }
            if timing && let Some(stages) = &error.timing {
                render_timing(&mut out, stages);
            }
            render_denials(&mut out, &error.denied);
        }
    }
    out
}

/// The slowest extensions, and what the transpile cache did.
fn render_timing_summary(out: &mut String, report: &InspectReport) {
    let mut loads: Vec<(&str, f64)> = report
        .extensions
        .iter()
        .map(|extension| (extension.path.as_str(), extension.load_time_ms))
        .chain(
            report
                .errors
                .iter()
                .filter_map(|error| Some((error.path.as_str(), error.load_time_ms?))),
        )
        .collect();
    loads.sort_by(|a, b| b.1.total_cmp(&a.1));
    if !loads.is_empty() {
        out.push_str("slowest    ");
        let slowest: Vec<String> = loads
            .iter()
            .take(5)
            .map(|(path, ms)| format!("{path} {ms:.1} ms"))
            .collect();
        out.push_str(&slowest.join(" · "));
        out.push('\n');
    }
    if let Some(start) = report.runtime_start {
        let how = if start.from_startup_snapshot {
            "from the startup snapshot"
        } else {
            "from source (no startup snapshot kept yet, or PIHOST_STARTUP_SNAPSHOT=off)"
        };
        out.push_str(&format!("runtime    started in {:.1} ms, {how}\n", start.ms));
    }
    match report.transpile_cache {
        Some(cache) => out.push_str(&format!(
            "transpile  {} from the disk cache, {} transpiled{}\n",
            cache.hits,
            cache.misses,
            if cache.damaged > 0 {
                format!(" ({} damaged entries rebuilt)", cache.damaged)
            } else {
                String::new()
            }
        )),
        None => out.push_str("transpile  no disk cache (PIHOST_TRANSPILE_CACHE=off)\n"),
    }
}

/// One extension's load time by stage, and its slowest modules.
fn render_timing(out: &mut String, timing: &pihost::report::LoadTiming) {
    out.push_str(&format!(
        "  {:<10} resolve {:.1} · read {:.1} · transpile {:.1} · rewrite {:.1} · compile {:.1} · evaluate {:.1} · factory {:.1} ms ({} modules, {})\n",
        "timing",
        timing.resolve_ms,
        timing.read_ms,
        timing.transpile_ms,
        timing.rewrite_ms,
        timing.compile_ms,
        timing.evaluate_ms,
        timing.factory_ms,
        timing.modules,
        human_bytes(timing.bytes),
    ));
    for module in &timing.slowest_modules {
        out.push_str(&format!(
            "  {:<10} {:.1} ms  {} ({})\n",
            "module",
            module.ms,
            module.path,
            human_bytes(module.bytes)
        ));
    }
}

fn human_bytes(bytes: usize) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.0} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// What a sandbox refused, one line each, with the flag that would grant it.
fn render_denials(out: &mut String, denied: &[pihost::permissions::Denial]) {
    for denial in denied {
        out.push_str(&format!(
            "  {:<10} {} (--allow-{})\n",
            "denied", denial.target, denial.kind
        ));
    }
}

/// The first stack frame that points into a file the user owns.
fn first_user_frame(stack: &str) -> Option<String> {
    stack
        .lines()
        .filter_map(|line| line.trim().strip_prefix("at "))
        .map(|frame| frame.trim_start_matches("async "))
        .find(|frame| frame.contains("file://") || frame.contains('/') && !frame.contains("pihost:"))
        .map(|frame| frame.replace("file://", ""))
}
