//! Loads a folder of extensions again and again in one engine and prints how
//! long each load takes (engine note 3: every uncached load evaluates
//! anew). `cargo run --release --example reload_cost [FOLDER] [ROUNDS]`
//! (default extensions-examples, 60); benches/warm-side-by-side.sh uses it.
//! With `CACHED=1` the loads after the first reuse the factories (pi's
//! cached load, what a second discoverAndLoadExtensions does under jiti's
//! module cache).
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let folder = args.next().unwrap_or_else(|| "extensions-examples".to_string());
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(60);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let cwd = std::env::current_dir().expect("cwd");
        let mut engine = pihost::Engine::new(pihost::EngineOptions::for_cwd(&cwd))
            .await
            .expect("engine");
        let found = engine.discover(&[folder]);
        let cached = std::env::var("CACHED").as_deref() == Ok("1");
        let mut times = Vec::with_capacity(rounds);
        for round in 0..rounds {
            let started = Instant::now();
            engine.load(&found, cached && round > 0).await.expect("load");
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let shown: Vec<String> = times.iter().map(|ms| format!("{ms:.1}")).collect();
        println!("{{\"loadsMs\":[{}]}}", shown.join(","));
    });
}
