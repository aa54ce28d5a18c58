//! Engine note 50: what a dropped runtime leaves behind. Makes runtimes one
//! after another, each on a fresh thread (note 29), drops them and prints the
//! process's resident memory every five.
//!
//!     cargo run --example runtime_teardown -- empty        a bare deno_core runtime
//!     cargo run --example runtime_teardown -- big-global   its global holds 300,000 objects
//!     cargo run --example runtime_teardown -- big-cleared  the same, the global's reference dropped first
//!     cargo run --example runtime_teardown -- engine       a pihost Engine
//!     cargo run --example runtime_teardown -- one-runtime  one runtime filling its global 40 times
//!
//! `RUNTIMES=n` sets how many (default 40).

const FILL: &str = "globalThis.a = []; for (let i = 0; i < 300000; i++) a.push({ i, s: 'x' + i }); a.length";

fn resident_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

async fn one(mode: &str) {
    match mode {
        "engine" => {
            let options = pihost::EngineOptions::for_cwd(std::path::Path::new("."));
            let engine = pihost::Engine::new(options).await.expect("engine");
            drop(engine);
        }
        "one-runtime" => {
            let mut runtime = deno_core::JsRuntime::new(Default::default());
            for fill in 1..=40 {
                runtime.execute_script("fill", FILL).expect("fill");
                if fill % 5 == 0 {
                    println!("  fill {fill}: {:.1} MiB", resident_mib());
                }
            }
        }
        _ => {
            let mut runtime = deno_core::JsRuntime::new(Default::default());
            if mode != "empty" {
                runtime.execute_script("fill", FILL).expect("fill");
            }
            if mode == "big-cleared" {
                runtime.execute_script("clear", "globalThis.a = null").expect("clear");
            }
            drop(runtime);
        }
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "empty".to_string());
    let runtimes: usize = std::env::var("RUNTIMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if mode == "one-runtime" { 1 } else { 40 });
    println!("{mode}: before {:.1} MiB", resident_mib());
    for made in 1..=runtimes {
        let mode = mode.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("tokio");
            runtime.block_on(one(&mode));
        })
        .join()
        .expect("thread");
        if made % 5 == 0 {
            println!("{made} runtimes made and dropped: {:.1} MiB", resident_mib());
        }
    }
}
