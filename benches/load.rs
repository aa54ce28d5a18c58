//! Load benchmarks (issue 2): creating a runtime, a cold load of
//! `extensions-examples/` (new runtime each time), a warm load (same runtime,
//! second time, modules evaluated anew) and a cached load (factories reused).
//!
//!   cargo bench --bench load

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use pihost::discovery::DiscoveredExtension;
use pihost::{Engine, EngineOptions};

fn options() -> EngineOptions {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let agent_dir = std::env::temp_dir().join("pihost-bench-empty-agent");
    let _ = std::fs::create_dir_all(&agent_dir);
    EngineOptions {
        cwd: root,
        agent_dir,
        config_dir_name: ".pi".to_string(),
        limits: pihost::Limits::default(),
        permissions: pihost::Permissions::default(),
        permission_host: None,
    }
}

fn examples(engine: &Engine) -> Vec<DiscoveredExtension> {
    engine.discover(&["extensions-examples".to_string()])
}

/// Runs `work` on a new thread with its own async runtime. The QuickJS
/// backend fails after about 200 runtimes on one thread (engine note 6), and
/// criterion makes more than that; a thread per runtime is also how an
/// embedder runs engines.
fn on_fresh_thread<T: Send + 'static>(work: impl AsyncFnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("tokio");
        runtime.block_on(work())
    })
    .join()
    .expect("bench thread")
}

fn bench_load(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    let mut group = c.benchmark_group("load");
    group.sample_size(20);

    group.bench_function("thread_spawn_baseline", |b| b.iter(|| on_fresh_thread(async || ())));

    group.bench_function("runtime_creation", |b| {
        b.iter(|| {
            on_fresh_thread(async || {
                Engine::new(options()).await.expect("engine");
            })
        })
    });

    group.bench_function("cold_load_examples", |b| {
        b.iter(|| {
            on_fresh_thread(async || {
                let mut engine = Engine::new(options()).await.expect("engine");
                let found = examples(&engine);
                engine.load(&found, false).await.expect("load").extensions.len()
            })
        })
    });

    let mut engine = runtime.block_on(Engine::new(options())).expect("engine");
    let found = examples(&engine);
    runtime.block_on(engine.load(&found, false)).expect("first load");
    group.bench_function("warm_load_examples", |b| {
        b.iter(|| runtime.block_on(engine.load(&found, false)).expect("load"))
    });

    let mut cached_engine = runtime.block_on(Engine::new(options())).expect("engine");
    runtime.block_on(cached_engine.load(&found, true)).expect("first load");
    group.bench_function("cached_load_examples", |b| {
        b.iter(|| runtime.block_on(cached_engine.load(&found, true)).expect("load"))
    });
    group.finish();
}

criterion_group!(benches, bench_load);
criterion_main!(benches);
