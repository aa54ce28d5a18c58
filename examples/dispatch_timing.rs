//! The pihost side of the dispatch benchmark (benches/dispatch-side-by-side.sh):
//! the fixtures in benches/fixtures/dispatch, dispatched through
//! `Engine::emit` / `execute_tool` as an embedder would, timed the same way as
//! benches/dispatch-reference.mjs. Prints one JSON line of microseconds per call.
use std::time::Instant;

use serde_json::json;

/// Microseconds per run of `$call` (an await on `$engine`), after a warm-up.
macro_rules! time {
    ($iterations:expr, $call:expr) => {{
        let iterations: u32 = $iterations;
        for _ in 0..iterations.min(200) {
            $call.await.expect("warm-up call");
        }
        let started = Instant::now();
        for _ in 0..iterations {
            $call.await.expect("timed call");
        }
        started.elapsed().as_secs_f64() * 1e6 / f64::from(iterations)
    }};
}

fn main() {
    // FIXTURES=dir times another set of extensions (to see what a handler costs, against a set without it).
    let fixtures = std::env::var_os("FIXTURES").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/dispatch"),
        std::path::PathBuf::from,
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let options = pihost::EngineOptions::for_cwd(&fixtures);
        let mut engine = pihost::Engine::new(options).await.expect("engine");
        let found = engine.discover(&[fixtures.display().to_string()]);
        engine.load(&found, false).await.expect("load");
        let host = std::sync::Arc::new(pihost::host::HeadlessHost);
        engine.bind(host, &pihost::host::HostState::default()).await.expect("bind");
        let tool_call = json!({ "type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": { "command": "ls -la" } });
        let messages: Vec<_> = (0..200)
            .map(|i| json!({ "role": if i % 2 == 1 { "assistant" } else { "user" }, "content": format!("message {i} ").repeat(8), "timestamp": i }))
            .collect();
        let context = json!({ "type": "context", "messages": messages });
        let provider_request = json!({ "type": "before_provider_request", "payload": { "model": "m", "messages": messages } });
        let no_handlers = json!({ "type": "turn_start", "turnIndex": 0 });
        let args = json!({ "text": "hi" });
        // CASES=name,… times only those (to profile one case); all by default.
        let wanted = std::env::var("CASES").ok();
        let wanted = |case: &str| wanted.as_deref().is_none_or(|list| list.split(',').any(|name| name == case));
        let mut results = serde_json::Map::new();
        if wanted("tool_call_10_handlers") {
            results.insert("tool_call_10_handlers".into(), json!(time!(20000, engine.emit(&tool_call))));
        }
        if wanted("context_200_messages_5_handlers") {
            results.insert("context_200_messages_5_handlers".into(), json!(time!(2000, engine.emit(&context))));
        }
        if wanted("provider_request_200_messages_no_handlers") {
            results.insert(
                "provider_request_200_messages_no_handlers".into(),
                json!(time!(2000, engine.emit(&provider_request))),
            );
        }
        if wanted("no_handlers") {
            results.insert("no_handlers".into(), json!(time!(20000, engine.emit(&no_handlers))));
        }
        if wanted("execute_tool") {
            results.insert("execute_tool".into(), json!(time!(20000, engine.execute_tool("echo_1", "1", &args, None))));
        }
        println!("{}", serde_json::Value::Object(results));
    });
}
