//! What running an extension in a guest runtime of its own costs (a policy
//! grant, src/platform/guests.rs): the same extension loaded in a sandbox
//! in the main runtime and as a guest, each in a fresh engine, alternating;
//! its load, a tool call, an event with one handler, and a command that
//! reads `ctx.cwd` ten times (each read a synchronous crossing for a guest).
//! Prints the medians in a table. `cargo run --release --example isolation_cost`
use std::time::Instant;

use serde_json::json;

const EXTENSION: &str = r#"export default function (pi) {
  pi.registerTool({ name: "echo", label: "echo", description: "echoes", parameters: { type: "object", properties: {} },
    async execute(_id, params) { return { content: [{ type: "text", text: "echo" }], details: params }; } });
  pi.on("tool_call", async () => undefined);
  pi.registerCommand("cwd", { handler: async (_args, ctx) => { let cwd; for (let i = 0; i < 10; i++) cwd = ctx.cwd; return cwd; } });
}
"#;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Microseconds per call of `$call`, after a warm-up.
macro_rules! per_call {
    ($iterations:expr, $call:expr) => {{
        for _ in 0..50 {
            $call.await.expect("warm-up call");
        }
        let started = Instant::now();
        for _ in 0..$iterations {
            $call.await.expect("timed call");
        }
        started.elapsed().as_secs_f64() * 1e6 / f64::from($iterations)
    }};
}

fn main() {
    let folder = tempfile::tempdir().expect("temp dir");
    let entry = folder.path().join("echo.ts");
    std::fs::write(&entry, EXTENSION).expect("write");
    let runs = std::env::var("RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(5);
    let mut rows: [Vec<Vec<f64>>; 2] = [vec![Vec::new(); 4], vec![Vec::new(); 4]];
    for _ in 0..runs {
        for (column, isolated) in [false, true].into_iter().enumerate() {
            // Each engine on a thread of its own, as `Pihost` runs them:
            // engines made one after another on one thread are engine
            // note 29's trouble, not what is measured here.
            let entry = entry.clone();
            let folder = folder.path().to_path_buf();
            let measured = std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("tokio");
                runtime.block_on(async {
                let mut options = pihost::EngineOptions::for_cwd(&folder);
                options.permissions.sandbox = std::env::var_os("NO_SANDBOX").is_none();
                if isolated && std::env::var_os("NO_GUESTS").is_none() {
                    let grant = pihost::permissions::ExtensionGrant {
                        allow_env: Some(Vec::new()),
                        ..Default::default()
                    };
                    options
                        .permissions
                        .extensions
                        .insert(entry.display().to_string(), grant);
                }
                let mut engine = pihost::Engine::new(options).await.expect("engine");
                let found = engine.discover(&[entry.display().to_string()]);
                let started = Instant::now();
                let report = engine.load(&found, false).await.expect("load");
                let load_ms = started.elapsed().as_secs_f64() * 1000.0;
                assert!(report.errors.is_empty(), "{:?}", report.errors);
                let host = std::sync::Arc::new(pihost::host::HeadlessHost);
                engine
                    .bind(host, &pihost::host::HostState::default())
                    .await
                    .expect("bind");
                let args = json!({ "text": "hi" });
                let event =
                    json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "ls" } });
                [
                    load_ms,
                    per_call!(2000u32, engine.execute_tool("echo", "1", &args, None)),
                    per_call!(2000u32, engine.emit(&event)),
                    per_call!(1000u32, engine.run_command("cwd", "")),
                ]
                })
            })
            .join()
            .expect("the measuring thread");
            for (row, value) in measured.into_iter().enumerate() {
                rows[column][row].push(value);
            }
        }
    }
    println!("{:<40} {:>12} {:>12} {:>7}", "", "main runtime", "guest", "ratio");
    for (row, label) in [
        "load (ms)",
        "execute_tool (us)",
        "emit tool_call, 1 handler (us)",
        "command reading ctx.cwd 10x (us)",
    ]
    .into_iter()
    .enumerate()
    {
        let main = median(rows[0][row].clone());
        let guest = median(rows[1][row].clone());
        println!("{label:<40} {main:>12.1} {guest:>12.1} {:>6.1}x", guest / main);
    }
}
