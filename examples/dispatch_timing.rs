//! The pihost side of the dispatch benchmark (benches/dispatch-side-by-side.sh):
//! the fixtures in benches/fixtures/dispatch, dispatched through
//! `Engine::emit` / `execute_tool` as an embedder would, timed the same way as
//! benches/dispatch-reference.mjs. Prints one JSON line of microseconds per call.
use std::time::Instant;

use serde_json::json;

async fn time<F, Fut>(iterations: u32, mut run: F) -> f64
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for _ in 0..iterations.min(200) {
        run().await;
    }
    let started = Instant::now();
    for _ in 0..iterations {
        run().await;
    }
    started.elapsed().as_secs_f64() * 1e6 / f64::from(iterations)
}

fn main() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/dispatch");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let options = pihost::EngineOptions::for_cwd(&fixtures);
        let engine = std::cell::RefCell::new(pihost::Engine::new(options).await.expect("engine"));
        let found = engine.borrow().discover(&[fixtures.display().to_string()]);
        engine.borrow_mut().load(&found, false).await.expect("load");
        let tool_call = json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "ls -la" } });
        let messages: Vec<_> = (0..200)
            .map(|i| json!({ "role": if i % 2 == 1 { "assistant" } else { "user" }, "content": format!("message {i} ").repeat(8), "timestamp": i }))
            .collect();
        let context = json!({ "type": "context", "messages": messages });
        let no_handlers = json!({ "type": "turn_start", "turnIndex": 0 });
        let args = json!({ "text": "hi" });
        let results = json!({
            "tool_call_10_handlers": time(20000, || async { engine.borrow_mut().emit(&tool_call).await.expect("emit"); }).await,
            "context_200_messages_5_handlers": time(2000, || async { engine.borrow_mut().emit(&context).await.expect("emit"); }).await,
            "no_handlers": time(20000, || async { engine.borrow_mut().emit(&no_handlers).await.expect("emit"); }).await,
            "execute_tool": time(20000, || async { engine.borrow_mut().execute_tool("echo_1", "1", &args, None).await.expect("tool"); }).await,
        });
        println!("{results}");
    });
}
