//! Engine note 45's check: awaited calls into the isolate, one after another.
//! Each call whose answer is a promise (here `execute_tool` of an async tool)
//! used to make deno_core watch the promise with two new native functions,
//! and the engine's table of native functions only grows, indexed by
//! QuickJS's 16-bit "magic": after about 50,000 calls a settled promise ran
//! the wrong native function (deno_core's `op_panic`: the process aborted) or
//! none (the call never settled). pihost now reports outcomes through one op.
//! Prints the count every 10,000 calls and stops at the first call that does
//! not settle within 5 s.
//!
//!   cargo run --release --example awaited_calls
use serde_json::json;

fn main() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/serve");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let options = pihost::EngineOptions::for_cwd(&fixtures);
        let mut engine = pihost::Engine::new(options).await.expect("engine");
        let found = engine.discover(&[fixtures.join("stream.ts").display().to_string()]);
        engine.load(&found, false).await.expect("load");
        engine
            .bind(
                std::sync::Arc::new(pihost::host::HeadlessHost),
                &pihost::host::HostState::default(),
            )
            .await
            .expect("bind");
        let args = json!({ "count": 1 });
        let started = std::time::Instant::now();
        for count in 1..=1_000_000u32 {
            let call = engine.execute_tool("stream", "call", &args, None);
            if tokio::time::timeout(std::time::Duration::from_secs(5), call)
                .await
                .is_err()
            {
                println!("call {count} did not settle within 5 s");
                return;
            }
            if count % 10_000 == 0 {
                println!("{count} calls settled in {:.1} s", started.elapsed().as_secs_f64());
            }
        }
    });
}
