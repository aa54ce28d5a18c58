//! Times the first runtime creation and the first load in a fresh process,
//! the costs a one-shot `pihost inspect` pays.
use std::time::Instant;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for round in 0..3 {
            let started = Instant::now();
            let mut engine = pihost::Engine::new(pihost::EngineOptions::for_cwd(root))
                .await
                .expect("engine");
            let created = started.elapsed();
            let found = engine.discover(&["extensions-examples".to_string()]);
            let loaded_at = Instant::now();
            engine.load(&found, false).await.expect("load");
            println!(
                "round {round}: runtime {:.1} ms, load {:.1} ms",
                created.as_secs_f64() * 1000.0,
                loaded_at.elapsed().as_secs_f64() * 1000.0
            );
        }
    });
}
