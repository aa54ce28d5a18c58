//! The pihost command line: `pihost inspect` shows what pi extensions
//! register, or exactly why they failed, the way pi itself loads them.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use pihost::engine::{EngineOptions, inspect_blocking};
use pihost::report::InspectReport;

#[derive(Parser)]
#[command(name = "pihost", version, about = "Run unmodified pi coding-agent extensions")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    },
    /// Run compat scenarios (folders with scenario.json and expected.json,
    /// or folders of them) and report pass or fail for each.
    Compat {
        /// Scenario folders, or folders holding scenario folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
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
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("PIHOST_LOG"))
        .with_writer(std::io::stderr)
        .init();
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("pihost: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Modules { markdown, json } => module_status(markdown, json),
        Command::Compat { dirs } => run_compat(&dirs),
        Command::Inspect {
            paths,
            cwd,
            agent_dir,
            json,
        } => {
            let cwd = match cwd {
                Some(cwd) => cwd,
                None => std::env::current_dir().context("cannot read the current directory")?,
            };
            if !cwd.is_dir() {
                anyhow::bail!("--cwd {} is not a directory", cwd.display());
            }
            let mut options = EngineOptions::for_cwd(&cwd);
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
                write!(stdout, "{}", render_table(&report))?;
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
        writeln!(stdout, "{:<26} {:>11} {:>8}", "module", "implemented", "not yet")?;
        for (id, module) in &status {
            writeln!(
                stdout,
                "{:<26} {:>11} {:>8}",
                id,
                module.implemented.len(),
                module.not_implemented.len()
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
         `pihost: <module>.<name> is not implemented yet`. Both `@earendil-works/` and\n\
         `@mariozechner/` prefixes name the same modules.\n\n\
         | module | implemented | not yet |\n|---|---:|---:|\n",
    );
    for (id, module) in status {
        out.push_str(&format!(
            "| `{id}` | {} | {} |\n",
            module.implemented.len(),
            module.not_implemented.len()
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
    out
}

fn names<T>(items: &[T], name: impl Fn(&T) -> String) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.iter().map(name).collect::<Vec<_>>().join(", ")
    }
}

fn render_table(report: &InspectReport) -> String {
    let mut out = String::new();
    let loaded = report.extensions.len();
    let failed = report.errors.len();
    out.push_str(&format!(
        "{loaded} extension{} loaded, {failed} failed, in {:.1} ms (cwd {})\n",
        if loaded == 1 { "" } else { "s" },
        report.total_load_ms,
        report.cwd.display()
    ));
    for extension in &report.extensions {
        out.push_str(&format!("\n{}  ({:.2} ms)\n", extension.path, extension.load_time_ms));
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
        }
    }
    out
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
