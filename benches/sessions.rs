//! Sessions on one machine (issue 24): what each session costs, for one
//! small extension and for pi's own examples, in both modes: isolated (a
//! `Pihost` per session: a runtime on a thread of its own) and shared (one
//! runtime, every further session opened with `Pihost::open_session`, its
//! factories from pi's cache). Sessions are started one after another and all
//! kept alive; then every session dispatches the same event at once.
//!
//!   cargo bench --bench sessions                  20 sessions per set and mode
//!   SESSIONS=200 cargo bench --bench sessions     more (isolated: each takes a thread)
//!   SETS=small cargo bench --bench sessions       one set (small, examples)
//!   MODES=shared cargo bench --bench sessions     one mode (isolated, shared)
//!   CHURN=1000 cargo bench --bench sessions       shared mode: then open and
//!                                                 close that many more, one at a time
//!
//! Prints one table per set: the first session's start (start + load +
//! bind) and resident memory, the median start of the others and the
//! resident memory each adds, and the emits per second with every session
//! dispatching `tool_call` together. pi's examples come from the reference
//! install (`scripts/install-reference`; `PI_REFERENCE_DIR` names another);
//! without it that set is skipped.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use pihost::host::{HeadlessHost, HostState};
use pihost::{EngineOptions, Pihost};
use serde_json::json;

/// The process's resident memory now, in MiB (`VmRSS`).
fn resident_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

fn options(cwd: &Path, agent_dir: &Path) -> EngineOptions {
    EngineOptions {
        cwd: cwd.to_path_buf(),
        agent_dir: agent_dir.to_path_buf(),
        config_dir_name: ".pi".to_string(),
        limits: pihost::Limits::default(),
        permissions: pihost::Permissions::default(),
        permission_host: None,
    }
}

/// One extension set: its name and the paths a session loads.
struct Set {
    name: &'static str,
    paths: Vec<String>,
}

fn sets(root: &Path) -> Vec<Set> {
    let mut sets = vec![Set {
        name: "small",
        paths: vec![root.join("benches/fixtures/dispatch/ext1.ts").display().to_string()],
    }];
    let reference = std::env::var_os("PI_REFERENCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/pi-reference/1.6.0")
        });
    let examples = reference.join("node_modules/@earendil-works/pi-coding-agent/examples/extensions");
    if examples.is_dir() {
        sets.push(Set {
            name: "examples",
            paths: vec![examples.display().to_string()],
        });
    } else {
        eprintln!(
            "skipping pi's examples: no reference install at {}",
            reference.display()
        );
    }
    let wanted = std::env::var("SETS").ok();
    sets.retain(|set| {
        wanted
            .as_deref()
            .is_none_or(|list| list.split(',').any(|name| name == set.name))
    });
    sets
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Isolated,
    Shared,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Isolated => "isolated",
            Mode::Shared => "shared",
        }
    }
}

fn modes() -> Vec<Mode> {
    let wanted = std::env::var("MODES").ok();
    [Mode::Isolated, Mode::Shared]
        .into_iter()
        .filter(|mode| {
            wanted
                .as_deref()
                .is_none_or(|list| list.split(',').any(|name| name == mode.name()))
        })
        .collect()
}

/// A session loaded and bound: isolated, a new engine; shared, a session
/// opened in `first`'s runtime (or the first one), its factories cached.
async fn start_session(mode: Mode, first: Option<&Pihost>, options: EngineOptions, paths: &[String]) -> Pihost {
    let session = match first {
        Some(first) if mode == Mode::Shared => first.open_session().await.expect("a session opens"),
        _ => Pihost::start(options).await.expect("a session starts"),
    };
    let report = session
        .load_extensions(&session.discover(paths), mode == Mode::Shared)
        .await
        .expect("its extensions load");
    assert!(report.errors.is_empty() || set_may_fail(paths), "{:#?}", report.errors);
    session
        .bind(Arc::new(HeadlessHost), &HostState::default())
        .await
        .expect("it binds");
    session
}

/// pi's examples include some that fail to load on purpose in pihost too.
fn set_may_fail(paths: &[String]) -> bool {
    paths.iter().any(|path| path.contains("examples"))
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // `cargo test --all-targets` runs this too, without `--bench`: then two
    // small sessions only, as a check that it still works.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let count: usize = std::env::var("SESSIONS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(if benchmarking { 20 } else { 2 })
        .max(2);
    // Shared mode: that many more sessions opened and closed after the others.
    let churn: usize = std::env::var("CHURN")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(0);
    let agent_dir = std::env::temp_dir().join("pihost-bench-sessions-agent");
    let _ = std::fs::create_dir_all(&agent_dir);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio");
    let tool_call =
        json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "ls -la" } });
    let sets: Vec<Set> = sets(&root)
        .into_iter()
        .filter(|set| benchmarking || std::env::var_os("SETS").is_some() || set.name == "small")
        .collect();
    for mode in modes() {
        for set in &sets {
            runtime.block_on(async {
                let before = resident_mib();
                let started = Instant::now();
                let first = start_session(mode, None, options(&root, &agent_dir), &set.paths).await;
                let first_ms = started.elapsed().as_secs_f64() * 1e3;
                let after_first = resident_mib();
                let mut sessions = vec![first];
                let mut starts = Vec::new();
                for _ in 1..count {
                    let started = Instant::now();
                    let session = start_session(mode, sessions.first(), options(&root, &agent_dir), &set.paths).await;
                    sessions.push(session);
                    starts.push(started.elapsed().as_secs_f64() * 1e3);
                }
                let after_all = resident_mib();
                // Every session dispatches at once, a few rounds.
                let rounds = 20;
                let started = Instant::now();
                for _ in 0..rounds {
                    let mut calls = tokio::task::JoinSet::new();
                    for session in &sessions {
                        let (session, event) = (session.clone(), tool_call.clone());
                        calls.spawn(async move { session.emit(&event).await.map(|_| ()) });
                    }
                    while let Some(result) = calls.join_next().await {
                        result.expect("the task").expect("the emit");
                    }
                }
                let emits_per_second = (rounds * sessions.len()) as f64 / started.elapsed().as_secs_f64();
                let per_session = (after_all - after_first) / (count - 1) as f64;
                println!("\nset `{}` ({} sessions, {} mode)", set.name, count, mode.name());
                println!("| | value |\n|---|---:|");
                println!("| first session: start + load + bind | {first_ms:.0} ms |");
                println!(
                    "| first session: resident memory it added | {:.1} MiB |",
                    after_first - before
                );
                println!(
                    "| each further session: start + load + bind (median) | {:.0} ms |",
                    median(&mut starts)
                );
                println!("| each further session: resident memory (mean) | {per_session:.1} MiB |");
                println!("| all sessions emitting tool_call together | {emits_per_second:.0} emits/s |");
                if mode == Mode::Shared && churn > 0 {
                // Sessions opened, loaded, bound and closed again and again in the runtime.
                let before_churn = resident_mib();
                let started = Instant::now();
                for _ in 0..churn {
                    let session = start_session(mode, sessions.first(), options(&root, &agent_dir), &set.paths).await;
                    session.shutdown().await.expect("the session closes");
                }
                let each_ms = started.elapsed().as_secs_f64() * 1e3 / churn as f64;
                println!(
                    "| {churn} more sessions opened and closed, one at a time: resident memory after | {:+.1} MiB ({each_ms:.1} ms each) |",
                    resident_mib() - before_churn
                );
            }
            // The first last: in the shared mode it stops the runtime.
                for session in sessions.iter().rev() {
                    let _ = session.shutdown().await;
                }
            });
        }
    }
}
