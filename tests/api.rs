//! The API object (SEMANTICS A1–A9), each test named after its id. Fixtures
//! report what they saw through command descriptions.

mod support;

use support::*;

fn facts(report: &pihost::InspectReport) -> serde_json::Value {
    serde_json::from_str(&command_description(report, "report")).expect("facts are JSON")
}

const REPORT: &str = "pi.registerCommand('report', { description: JSON.stringify(facts), handler() {} });";

#[test]
fn a1_registrations_write_only_into_the_extensions_own_record() {
    let project = Project::new();
    let first = project.write(
        "a.ts",
        "export default (pi) => {\n  pi.registerTool({ name: 'tool_a', label: 'A', description: 'first', parameters: { type: 'object', properties: {} }, execute: async () => ({ content: [] }) });\n  pi.registerCommand('cmd-a', { description: 'from a', handler() {} });\n  pi.registerShortcut('ctrl+a', { description: 'short a', handler() {} });\n  pi.registerFlag('flag-a', { type: 'boolean', default: true, description: 'flag' });\n  pi.registerMessageRenderer('note', () => undefined);\n  pi.registerEntryRenderer('card', () => undefined);\n  pi.registerToolRenderer(() => undefined);\n  pi.registerMarkdownTransformer((text) => text);\n  pi.on('tool_call', () => undefined);\n};\n",
    );
    let second = project.write(
        "b.ts",
        "export default (pi) => { pi.registerCommand('cmd-b', { handler() {} }); pi.on('input', () => undefined); };\n",
    );
    let report = project.inspect(&[&first, &second]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let a = &report.extensions[0];
    let b = &report.extensions[1];
    assert_eq!(a.tools.len(), 1);
    assert_eq!(a.tools[0].name, "tool_a");
    assert_eq!(a.tools[0].label.as_deref(), Some("A"));
    assert_eq!(
        a.commands.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["cmd-a"]
    );
    assert_eq!(a.shortcuts[0].shortcut, "ctrl+a");
    assert_eq!(a.flags[0].default, Some(serde_json::json!(true)));
    assert_eq!(a.message_renderers, ["note"]);
    assert_eq!(a.entry_renderers, ["card"]);
    assert_eq!(a.tool_renderers, 1);
    assert!(a.markdown_transformer);
    assert_eq!(a.handlers.get("tool_call"), Some(&1));
    assert!(b.tools.is_empty() && b.shortcuts.is_empty() && b.flags.is_empty());
    assert_eq!(
        b.commands.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["cmd-b"]
    );
    assert_eq!(b.handlers.keys().collect::<Vec<_>>(), ["input"]);
}

#[test]
fn a2_actions_throw_before_binding_and_set_model_rejects() {
    let project = Project::new();
    let path = project.write(
        "actions.ts",
        &format!(
            "export default async (pi) => {{\n  const facts = {{}};\n  for (const name of ['sendMessage', 'sendUserMessage', 'appendEntry', 'setSessionName', 'getSessionName', 'setLabel', 'getActiveTools', 'getAllTools', 'getSettings', 'setActiveTools', 'getCommands', 'getThinkingLevel', 'setThinkingLevel']) {{\n    try {{ pi[name]('x', 'y'); facts[name] = 'no error'; }} catch (error) {{ facts[name] = error.message; }}\n  }}\n  const pending = pi.setModel({{ id: 'm' }});\n  facts.setModelIsPromise = pending instanceof Promise;\n  try {{ await pending; }} catch (error) {{ facts.setModel = error.message; }}\n  {REPORT}\n}};\n"
        ),
    );
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let facts = facts(&report);
    let text = "Extension runtime not initialized. Action methods cannot be called during extension loading.";
    for name in [
        "sendMessage",
        "sendUserMessage",
        "appendEntry",
        "setSessionName",
        "getSessionName",
        "setLabel",
        "getActiveTools",
        "getAllTools",
        "getSettings",
        "setActiveTools",
        "getCommands",
        "getThinkingLevel",
        "setThinkingLevel",
    ] {
        assert_eq!(facts[name], text, "{name}");
    }
    assert_eq!(facts["setModelIsPromise"], true);
    assert_eq!(facts["setModel"], "Extension runtime not initialized");
}

#[test]
fn a3_register_tool_is_legal_while_loading() {
    let project = Project::new();
    let path = project.write(
        "tool.ts",
        "import { Type } from 'typebox';\nexport default (pi) => pi.registerTool({ name: 'early', description: 'registered during load', parameters: Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer({ minimum: 1 })) }), execute: async () => ({ content: [] }) });\n",
    );
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(
        report.extensions[0].tools[0].parameters,
        serde_json::json!({"type": "object", "required": ["path"], "properties": {"path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}}})
    );
}

#[test]
fn a4_validation_errors_have_pis_exact_texts() {
    let project = Project::new();
    let path = project.write(
        "validation.ts",
        &format!(
            "export default (pi) => {{\n  const facts = {{}};\n  const attempt = (key, fn) => {{ try {{ fn(); facts[key] = 'no error'; }} catch (error) {{ facts[key] = error.message; }} }};\n  attempt('toolArray', () => pi.registerTool({{ name: 'arr', parameters: [] }}));\n  attempt('toolMissing', () => pi.registerTool({{ name: 'none' }}));\n  attempt('commandName', () => pi.registerCommand('', {{ handler() {{}} }}));\n  attempt('commandHandler', () => pi.registerCommand('nohandler', {{ description: 'x' }}));\n  attempt('flagDefault', () => pi.registerFlag('count', {{ type: 'number', default: 'three' }}));\n  {REPORT}\n}};\n"
        ),
    );
    let report = project.inspect(&[&path]);
    let facts = facts(&report);
    assert_eq!(
        facts,
        serde_json::json!({
            "toolArray": format!("Tool \"arr\" registered by extension \"{path}\" must define an object parameter schema."),
            "toolMissing": format!("Tool \"none\" registered by extension \"{path}\" must define an object parameter schema."),
            "commandName": format!("Command registered by extension \"{path}\" must have a non-empty string name. Use pi.registerCommand(\"name\", {{ description, handler }})."),
            "commandHandler": format!("Command \"/nohandler\" registered by extension \"{path}\" must define handler()."),
            "flagDefault": "Invalid default for flag \"count\": expected number, got string",
        })
    );
}

#[test]
fn a5_on_returns_an_unsubscribe_and_the_last_one_removes_the_event() {
    let project = Project::new();
    let path = project.write(
        "events.ts",
        "export default (pi) => {\n  const handler = () => undefined;\n  const first = pi.on('turn_end', handler);\n  const second = pi.on('turn_end', handler);\n  pi.on('agent_end', handler)();\n  first();\n  first();\n  pi.on('input', handler);\n  const gone = pi.on('context', handler);\n  gone();\n  void second;\n};\n",
    );
    let report = project.inspect(&[&path]);
    let handlers = &report.extensions[0].handlers;
    assert_eq!(
        handlers.iter().map(|(k, v)| (k.as_str(), *v)).collect::<Vec<_>>(),
        [("input", 1), ("turn_end", 1)]
    );
}

#[test]
fn a6_a_failed_load_discards_its_queued_changes_and_its_api_goes_dead() {
    let project = Project::new();
    let failing = project.write(
        "a-failing.ts",
        "export default (pi) => {\n  globalThis.capturedApi = pi;\n  pi.registerFlag('lost', { type: 'string', default: 'never' });\n  pi.registerProvider('lost-provider', { baseUrl: 'http://localhost' });\n  pi.events.on('ping', () => { globalThis.pinged = 'failed extension'; });\n  throw new Error('factory failed');\n};\n",
    );
    let after = project.write(
        "b-after.ts",
        &format!(
            "export default (pi) => {{\n  const facts = {{}};\n  try {{ globalThis.capturedApi.registerCommand('late', {{ handler() {{}} }}); }} catch (error) {{ facts.dead = error.message; }}\n  pi.events.emit('ping', {{}});\n  facts.pinged = globalThis.pinged ?? 'nobody';\n  pi.registerFlag('kept', {{ type: 'string', default: 'yes' }});\n  {REPORT}\n}};\n"
        ),
    );
    let report = project.inspect(&[&failing, &after]);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].error, "Failed to load extension: factory failed");
    assert_eq!(
        facts(&report),
        serde_json::json!({
            "dead": format!("Extension \"{failing}\" failed to load and its API is no longer active."),
            "pinged": "nobody",
        })
    );
    assert_eq!(
        report.flag_values,
        [("kept".to_string(), serde_json::json!("yes"))].into()
    );
    assert!(report.pending_providers.is_empty(), "{:#?}", report.pending_providers);
}

#[test]
fn a7_providers_queue_during_load_and_unregister_filters_the_queue() {
    let project = Project::new();
    let path = project.write(
        "providers.ts",
        "export default (pi) => {\n  pi.registerProvider('keep', { baseUrl: 'http://localhost:1', api: 'openai-completions', models: [] });\n  pi.registerProvider('drop', { baseUrl: 'http://localhost:2' });\n  pi.unregisterProvider('drop');\n  pi.registerProvider({ id: 'native', stream() {} });\n  let missing = 'no error';\n  try { pi.registerProvider('no-config'); } catch (error) { missing = error.message; }\n  pi.registerCommand('report', { description: missing, handler() {} });\n};\n",
    );
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let names: Vec<Option<&str>> = report.pending_providers.iter().map(|p| p.name.as_deref()).collect();
    assert_eq!(names, [Some("keep"), Some("native")]);
    assert!(report.pending_providers.iter().all(|p| p.extension_path == path));
    assert_eq!(
        command_description(&report, "report"),
        "Provider config is required when registering by name"
    );
}

#[test]
fn a8_exec_runs_a_process_in_the_load_cwd_with_timeout_and_abort() {
    let project = Project::new();
    std::fs::create_dir_all(project.path("sub")).expect("mkdir");
    let sub = project
        .path("sub")
        .canonicalize()
        .expect("canonical")
        .display()
        .to_string();
    let path = project.write(
        "exec.ts",
        &format!(
            "export default async (pi) => {{\n  const facts = {{}};\n  facts.plain = await pi.exec('sh', ['-c', 'printf out; printf err >&2; exit 3']);\n  facts.cwd = (await pi.exec('pwd', [])).stdout.trim();\n  facts.explicitCwd = (await pi.exec('pwd', [], {{ cwd: {sub:?} }})).stdout.trim();\n  const started = Date.now();\n  const timedOut = await pi.exec('sleep', ['5'], {{ timeout: 100 }});\n  facts.timeout = {{ killed: timedOut.killed, code: timedOut.code, fast: Date.now() - started < 4000 }};\n  const listeners = [];\n  const signal = {{ aborted: false, addEventListener: (_type, fn) => listeners.push(fn), removeEventListener() {{}} }};\n  const running = pi.exec('sleep', ['5'], {{ signal }});\n  setTimeout(() => listeners.forEach((fn) => fn()), 50);\n  const aborted = await running;\n  facts.abort = {{ killed: aborted.killed, code: aborted.code }};\n  facts.missing = await pi.exec('definitely-not-a-program-pihost', []);\n  {REPORT}\n}};\n"
        ),
    );
    let report = project.inspect(&[&path]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    let facts = facts(&report);
    assert_eq!(
        facts["plain"],
        serde_json::json!({"stdout": "out", "stderr": "err", "code": 3, "killed": false, "truncated": false})
    );
    let root = project.root.path().canonicalize().expect("canonical");
    assert_eq!(facts["cwd"], root.display().to_string());
    assert_eq!(facts["explicitCwd"], root.join("sub").display().to_string());
    assert_eq!(
        facts["timeout"],
        serde_json::json!({"killed": true, "code": 143, "fast": true})
    );
    assert_eq!(facts["abort"], serde_json::json!({"killed": true, "code": 143}));
    assert_eq!(facts["missing"]["code"], 1);
    assert_eq!(
        facts["missing"]["stderr"],
        "spawn definitely-not-a-program-pihost ENOENT"
    );
}

#[test]
fn a9_get_flag_sees_only_own_flags_and_the_first_default_wins() {
    let project = Project::new();
    let first = project.write(
        "a-first.ts",
        "export default (pi) => { pi.registerFlag('shared', { type: 'string', default: 'first' }); };\n",
    );
    let second = project.write(
        "b-second.ts",
        &format!(
            "export default (pi) => {{\n  const facts = {{ foreignBefore: pi.getFlag('shared') ?? 'undefined' }};\n  pi.registerFlag('shared', {{ type: 'string', default: 'second' }});\n  facts.ownAfter = pi.getFlag('shared');\n  facts.unknown = pi.getFlag('nope') ?? 'undefined';\n  pi.registerFlag('local', {{ type: 'boolean', default: false }});\n  pi.registerFlag('local', {{ type: 'boolean', default: true }});\n  facts.localAfterTwo = pi.getFlag('local');\n  {REPORT}\n}};\n"
        ),
    );
    let report = project.inspect(&[&first, &second]);
    assert!(report.errors.is_empty(), "{:#?}", report.errors);
    assert_eq!(
        facts(&report),
        serde_json::json!({"foreignBefore": "undefined", "ownAfter": "first", "unknown": "undefined", "localAfterTwo": false})
    );
    assert_eq!(report.flag_values["shared"], "first");
    assert_eq!(report.flag_values["local"], false);
}
