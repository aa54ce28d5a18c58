//! Loads extensions-examples/ again and again in one engine and prints how
//! long each load takes (engine note 3: every uncached load evaluates anew).
use std::time::Instant;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut engine = pihost::Engine::new(pihost::EngineOptions::for_cwd(root))
            .await
            .expect("engine");
        let found = engine.discover(&["extensions-examples".to_string()]);
        for round in 0..60 {
            let started = Instant::now();
            engine.load(&found, false).await.expect("load");
            if round % 5 == 0 {
                println!("load {round}: {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
            }
        }
    });
}
