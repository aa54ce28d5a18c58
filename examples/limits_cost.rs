//! What the limits cost: `emit` dispatch with the watchdog on and off
//! (interleaved rounds, so machine noise hits both alike), and how long a
//! termination takes past its deadline. `cargo run --release --example limits_cost`.

use std::time::{Duration, Instant};

use pihost::{Engine, EngineOptions, Limits};
use serde_json::json;

const EXTENSION: &str = r#"
export default function (pi) {
  pi.on("tool_call", async (event) => (event.toolName === "bash" ? { block: true, reason: "no" } : undefined));
  pi.registerCommand("spin", { handler: async () => { for (;;) {} } });
}
"#;

async fn engine(dir: &std::path::Path, limits: Limits) -> Engine {
    let mut options = EngineOptions::for_cwd(dir);
    options.agent_dir = dir.join("agent");
    options.limits = limits;
    let mut engine = Engine::new(options).await.expect("engine");
    let path = dir.join("ext.ts").display().to_string();
    let found = engine.discover(&[path]);
    engine.load(&found, false).await.expect("load");
    engine
}

async fn emits(engine: &mut Engine, count: usize) -> Duration {
    let event = json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": {} });
    let started = Instant::now();
    for _ in 0..count {
        engine.emit(&event).await.expect("emit");
    }
    started.elapsed()
}

fn main() {
    let dir = std::env::temp_dir().join("pihost-limits-cost");
    std::fs::create_dir_all(dir.join("agent")).expect("dir");
    std::fs::write(dir.join("ext.ts"), EXTENSION).expect("write");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let mut watched = engine(&dir, Limits::default()).await;
        let mut unwatched = engine(&dir, Limits::none()).await;
        let (count, rounds) = (2_000, 5);
        emits(&mut watched, 200).await;
        emits(&mut unwatched, 200).await;
        let (mut on, mut off) = (Duration::ZERO, Duration::ZERO);
        for _ in 0..rounds {
            on += emits(&mut watched, count).await;
            off += emits(&mut unwatched, count).await;
        }
        let per = |total: Duration| total.as_secs_f64() * 1e6 / (count * rounds) as f64;
        println!(
            "emit(tool_call): {:.1} µs with the limits, {:.1} µs without, ratio {:.3}",
            per(on),
            per(off),
            on.as_secs_f64() / off.as_secs_f64()
        );
        let limit = Duration::from_millis(200);
        let mut stopped = engine(&dir, Limits { cpu: Some(limit), ..Limits::default() }).await;
        let mut late = Vec::new();
        for _ in 0..5 {
            let started = Instant::now();
            let error = stopped.run_command("spin", "").await.expect_err("terminated");
            late.push(started.elapsed().saturating_sub(limit));
            assert!(error.to_string().contains("terminated"), "{error}");
        }
        late.sort();
        println!(
            "termination of a `for (;;) {{}}` with a 200 ms limit: answered {:.1} ms after the deadline (median of 5; min {:.1}, max {:.1})",
            late[2].as_secs_f64() * 1e3,
            late[0].as_secs_f64() * 1e3,
            late[4].as_secs_f64() * 1e3
        );
    });
}
