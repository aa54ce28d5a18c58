//! What the platform from Deno's crates costs (issue 11's budget), in one
//! process: creating a runtime (the first in the process, then more, each on
//! a fresh thread as embedders run them), the memory an idle runtime holds,
//! and the first `import "node:http"` of a runtime.
//!
//!   cargo run --release --example platform_cost
use std::time::{Duration, Instant};

fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| statm.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map(|pages| pages * 4096)
        .unwrap_or(0)
}

fn on_fresh_thread<T: Send + 'static>(work: impl AsyncFnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio");
        runtime.block_on(work())
    })
    .join()
    .expect("the thread ran")
}

fn options() -> pihost::EngineOptions {
    pihost::EngineOptions::for_cwd(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
}

async fn create() -> Duration {
    let started = Instant::now();
    let engine = pihost::Engine::new(options()).await.expect("engine");
    let elapsed = started.elapsed();
    drop(engine);
    elapsed
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// An extension whose tool imports `node:http` and says how long it took
/// (benches/fixtures/platform/import-http.mjs).
async fn first_http_import() -> f64 {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut engine = pihost::Engine::new(options()).await.expect("engine");
    let found = engine.discover(&[root
        .join("benches/fixtures/platform/import-http.mjs")
        .display()
        .to_string()]);
    let report = engine.load(&found, false).await.expect("load");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    engine
        .bind(
            std::sync::Arc::new(pihost::host::RecordingHost::new()),
            &pihost::host::HostState::default(),
        )
        .await
        .expect("bind");
    let result = engine
        .execute_tool("import_http", "1", &serde_json::json!({}), None)
        .await
        .expect("tool")
        .expect("a result");
    result["content"][0]["text"]
        .as_str()
        .and_then(|text| text.parse().ok())
        .expect("milliseconds")
}

fn main() {
    let first = on_fresh_thread(create);
    let later: Vec<f64> = (0..15).map(|_| millis(on_fresh_thread(create))).collect();
    println!(
        "runtime creation: first in the process {:.1} ms, later median {:.1} ms (15 runs)",
        millis(first),
        median(later)
    );

    // Idle runtimes held on parked threads: the growth of the process's
    // resident set per runtime.
    const IDLE: usize = 10;
    let before = resident_bytes();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let released = std::sync::Arc::new(std::sync::Mutex::new(released));
    let (ready, all_ready) = std::sync::mpsc::channel();
    let holders: Vec<_> = (0..IDLE)
        .map(|_| {
            let ready = ready.clone();
            let released = released.clone();
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("tokio");
                let engine = runtime.block_on(pihost::Engine::new(options())).expect("engine");
                ready.send(()).expect("main waits");
                let _ = released.lock().map(|receiver| receiver.recv());
                drop(engine);
            })
        })
        .collect();
    for _ in 0..IDLE {
        all_ready.recv().expect("a runtime");
    }
    let after = resident_bytes();
    println!(
        "idle runtime: {:.1} MB each ({IDLE} held at once)",
        (after.saturating_sub(before)) as f64 / IDLE as f64 / 1_048_576.0
    );
    for _ in 0..IDLE {
        let _ = release.send(());
    }
    for holder in holders {
        let _ = holder.join();
    }

    let imports: Vec<f64> = (0..5).map(|_| on_fresh_thread(first_http_import)).collect();
    println!(
        "first import of node:http in a runtime: median {:.1} ms (5 runtimes)",
        median(imports)
    );
}
