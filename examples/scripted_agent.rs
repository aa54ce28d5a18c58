//! A tiny agent that embeds pihost: no LLM, a scripted "model" that asks for
//! tool calls. It loads `extensions-examples/`, lets extensions block calls
//! (tool_call) and rewrite results (tool_result), executes extension tools
//! through pihost and simulates a built-in one, and prints the session.
//!
//!   cargo run --example scripted_agent
//!
//! examples/python_agent.py drives `pihost serve` through the same script and
//! prints the same transcript (tests/example_agents.rs checks both).

use std::sync::Arc;

use pihost::events::{ToolCallEvent, ToolResultEvent};
use pihost::host::{HostState, RecordingHost};
use pihost::{EngineOptions, Pihost};
use serde_json::{Value, json};

/// What the scripted model asks for, turn by turn: (tool, arguments).
pub fn script() -> Vec<(&'static str, Value)> {
    vec![
        ("greet", json!({ "name": "Ada" })),
        ("write", json!({ "path": "Cargo.lock", "content": "overwritten" })),
        ("read", json!({ "path": "README.md" })),
    ]
}

/// The built-in tools this agent has itself (extension tools run in pihost).
fn builtin_tool(name: &str, args: &Value) -> Option<Vec<Value>> {
    match name {
        "read" => Some(vec![
            json!({ "type": "text", "text": format!("(contents of {})", args["path"].as_str().unwrap_or("?")) }),
        ]),
        "write" => Some(vec![json!({ "type": "text", "text": "written" })]),
        _ => None,
    }
}

fn text_of(content: &[Value]) -> String {
    content
        .iter()
        .filter_map(|block| block["text"].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the script against the extensions in `project_root/extensions-examples`
/// and returns the transcript, one line per event.
pub async fn run(project_root: &std::path::Path) -> Result<Vec<String>, pihost::PihostError> {
    let mut options = EngineOptions::for_cwd(project_root);
    options.agent_dir = project_root.join("extensions-examples/.no-agent-dir");
    let pihost = Pihost::start(options).await?;
    let report = pihost.load(&["extensions-examples".to_string()]).await?;
    let mut transcript = vec![format!(
        "loaded {} extensions, {} failed to load",
        report.extensions.len(),
        report.errors.len()
    )];
    pihost
        .bind(Arc::new(RecordingHost::new()), &HostState::default())
        .await?;
    for (turn, (tool, args)) in script().into_iter().enumerate() {
        let call_id = format!("call-{}", turn + 1);
        transcript.push(format!("model asks for {tool} {args}"));
        let call = ToolCallEvent {
            tool_name: tool.to_string(),
            tool_call_id: call_id.clone(),
            input: args.clone(),
            ..Default::default()
        };
        match pihost.emit_tool_call(&call).await {
            Ok(Some(decision)) if decision.block == Some(true) => {
                transcript.push(format!("  blocked: {}", decision.reason.unwrap_or_default()));
                continue;
            }
            Err(error) => {
                transcript.push(format!("  blocked: {error}"));
                continue;
            }
            Ok(_) => {}
        }
        let (content, details) = match builtin_tool(tool, &args) {
            Some(content) => (content, None),
            None => {
                let result = pihost
                    .execute_tool(tool, &call_id, &args, None)
                    .await?
                    .unwrap_or(Value::Null);
                let content = result["content"].as_array().cloned().unwrap_or_default();
                (content, result.get("details").cloned())
            }
        };
        transcript.push(format!("  result: {}", text_of(&content)));
        let event = ToolResultEvent {
            tool_name: tool.to_string(),
            tool_call_id: call_id,
            input: args,
            content,
            details,
            ..Default::default()
        };
        if let Some(patch) = pihost.emit_tool_result(&event).await? {
            transcript.push(format!(
                "  rewritten by extensions: details {}",
                patch.details.unwrap_or(Value::Null)
            ));
        }
    }
    pihost.shutdown().await?;
    Ok(transcript)
}

#[allow(dead_code, reason = "the binary entry point; tests call run()")]
fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    match runtime.block_on(run(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))) {
        Ok(transcript) => transcript.iter().for_each(|line| println!("{line}")),
        Err(error) => {
            eprintln!("scripted_agent: {error}");
            std::process::exit(1);
        }
    }
}
