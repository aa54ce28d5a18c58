//! Sessions on one machine (issue 24): what each session costs in the
//! isolated mode (a `Pihost` per session: a runtime on a thread of its own),
//! for one small extension and for pi's own examples. Sessions are started
//! one after another and all kept alive; then every session dispatches the
//! same event at once. The shared mode (many sessions in one runtime) is not
//! built yet.
//!
//!   cargo bench --bench sessions                  20 sessions per set
//!   SESSIONS=200 cargo bench --bench sessions     more (each takes a thread)
//!   SETS=small cargo bench --bench sessions       one set (small, examples)
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

async fn start_session(options: EngineOptions, paths: &[String]) -> Pihost {
    let session = Pihost::start(options).await.expect("a session starts");
    session.load(paths).await.expect("its extensions load");
    session
        .bind(Arc::new(HeadlessHost), &HostState::default())
        .await
        .expect("it binds");
    session
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
    let agent_dir = std::env::temp_dir().join("pihost-bench-sessions-agent");
    let _ = std::fs::create_dir_all(&agent_dir);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio");
    let tool_call =
        json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "ls -la" } });
    for set in sets(&root)
        .into_iter()
        .filter(|set| benchmarking || std::env::var_os("SETS").is_some() || set.name == "small")
    {
        runtime.block_on(async {
            let before = resident_mib();
            let started = Instant::now();
            let first = start_session(options(&root, &agent_dir), &set.paths).await;
            let first_ms = started.elapsed().as_secs_f64() * 1e3;
            let after_first = resident_mib();
            let mut sessions = vec![first];
            let mut starts = Vec::new();
            for _ in 1..count {
                let started = Instant::now();
                sessions.push(start_session(options(&root, &agent_dir), &set.paths).await);
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
            println!("\nset `{}` ({} sessions, isolated mode)", set.name, count);
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
            for session in &sessions {
                let _ = session.shutdown().await;
            }
        });
    }
}
