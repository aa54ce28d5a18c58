//! An extension's pi-ai model call (`complete`, `stream`, …) as an MCP
//! sampling request to the client, and the client's answer as pi's
//! `AssistantMessage`. MCP sampling carries text and images; pi's thinking
//! blocks are left out, and tool calls and tool results travel as text
//! (tool use in sampling needs a client capability few clients offer).

use serde_json::{Value, json};

/// `maxTokens` is required by MCP; pi's calls often leave it to the model.
const DEFAULT_MAX_TOKENS: u64 = 4096;

/// `sampling/createMessage` params for pi's model, context and options. The
/// context is pi-ai's transcript form: the system prompt is a leading
/// `system` message (pi's `Context.systemPrompt` is read too).
pub(super) fn request(model: &Value, context: &Value, options: Option<&Value>) -> Value {
    let all = context
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let (system, rest) = match all.split_first() {
        Some((first, rest)) if first.get("role").and_then(Value::as_str) == Some("system") => {
            (first.get("content").and_then(Value::as_str), rest)
        }
        _ => (context.get("systemPrompt").and_then(Value::as_str), all),
    };
    let messages: Vec<Value> = rest.iter().filter_map(message).collect();
    let max_tokens = options
        .and_then(|options| options.get("maxTokens"))
        .and_then(Value::as_u64)
        .or_else(|| model.get("maxTokens").and_then(Value::as_u64))
        .unwrap_or(DEFAULT_MAX_TOKENS);
    let mut params = json!({ "messages": messages, "maxTokens": max_tokens });
    if let Some(id) = model.get("id").and_then(Value::as_str) {
        params["modelPreferences"] = json!({ "hints": [{ "name": id }] });
    }
    if let Some(system) = system.filter(|text| !text.is_empty()) {
        params["systemPrompt"] = Value::String(system.to_string());
    }
    if let Some(temperature) = options
        .and_then(|options| options.get("temperature"))
        .filter(|value| value.is_number())
    {
        params["temperature"] = temperature.clone();
    }
    params
}

fn message(message: &Value) -> Option<Value> {
    let role = message.get("role").and_then(Value::as_str)?;
    let content = message.get("content");
    let blocks: Vec<Value> = match content {
        Some(Value::String(text)) => vec![text_block(text)],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|block| content_block(role, message, block))
            .collect(),
        _ => Vec::new(),
    };
    if blocks.is_empty() {
        return None;
    }
    let role = if role == "assistant" { "assistant" } else { "user" };
    Some(json!({ "role": role, "content": blocks }))
}

fn text_block(text: &str) -> Value {
    json!({ "type": "text", "text": text })
}

fn content_block(role: &str, message: &Value, block: &Value) -> Option<Value> {
    let text = block.get("text").and_then(Value::as_str);
    match block.get("type").and_then(Value::as_str)? {
        "text" if role == "toolResult" => {
            let tool = message.get("toolName").and_then(Value::as_str).unwrap_or("tool");
            Some(text_block(&format!("[result of {tool}] {}", text.unwrap_or_default())))
        }
        "text" => Some(text_block(text.unwrap_or_default())),
        "image" => Some(json!({
            "type": "image",
            "data": block.get("data").cloned().unwrap_or(Value::Null),
            "mimeType": block.get("mimeType").cloned().unwrap_or(Value::Null),
        })),
        "toolCall" => {
            let name = block.get("name").and_then(Value::as_str).unwrap_or("tool");
            let arguments = block.get("arguments").cloned().unwrap_or(Value::Null);
            Some(text_block(&format!("[call {name} {arguments}]")))
        }
        _ => None,
    }
}

fn zero_usage() -> Value {
    json!({
        "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
        "cost": { "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0 },
    })
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}

fn assistant(model: &Value, content: Vec<Value>, stop_reason: &str) -> Value {
    json!({
        "role": "assistant",
        "content": content,
        "api": model.get("api").cloned().unwrap_or(Value::Null),
        "provider": model.get("provider").cloned().unwrap_or(Value::Null),
        "model": model.get("id").cloned().unwrap_or(Value::Null),
        "usage": zero_usage(),
        "stopReason": stop_reason,
        "timestamp": now_ms(),
    })
}

/// The client's `CreateMessageResult` as pi's `AssistantMessage`.
pub(super) fn assistant_message(model: &Value, answer: &Value) -> Value {
    let blocks: Vec<Value> = match answer.get("content") {
        Some(Value::Array(blocks)) => blocks.clone(),
        Some(block) => vec![block.clone()],
        None => Vec::new(),
    };
    let content = blocks
        .iter()
        .filter_map(|block| match block.get("type").and_then(Value::as_str) {
            Some("text") => Some(text_block(
                block.get("text").and_then(Value::as_str).unwrap_or_default(),
            )),
            _ => None,
        })
        .collect();
    let stop_reason = match answer.get("stopReason").and_then(Value::as_str) {
        Some("maxTokens") => "length",
        Some("toolUse") => "toolUse",
        _ => "stop",
    };
    assistant(model, content, stop_reason)
}

/// A failed sampling request, as pi reports a failed model call.
pub(super) fn failed_message(model: &Value, error: &str) -> Value {
    let mut message = assistant(model, Vec::new(), "error");
    message["errorMessage"] = Value::String(error.to_string());
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pi_context_becomes_sampling_messages_and_the_answer_an_assistant_message() {
        let model = json!({ "id": "m1", "provider": "p", "api": "a", "maxTokens": 100 });
        let context = json!({
            "messages": [
                { "role": "system", "content": "be brief", "timestamp": 0 },
                { "role": "user", "content": "hello" },
                { "role": "assistant", "content": [{ "type": "thinking", "thinking": "hm" }, { "type": "text", "text": "hi" }] },
            ],
        });
        let params = request(&model, &context, None);
        assert_eq!(params["systemPrompt"], "be brief");
        assert_eq!(params["maxTokens"], 100);
        assert_eq!(params["messages"][1]["content"].as_array().map(Vec::len), Some(1));
        let answer = assistant_message(
            &model,
            &json!({ "role": "assistant", "content": { "type": "text", "text": "done" }, "model": "x", "stopReason": "maxTokens" }),
        );
        assert_eq!(answer["content"][0]["text"], "done");
        assert_eq!(answer["stopReason"], "length");
        assert_eq!(answer["model"], "m1");
    }
}
