// The page exportToHtml writes (session-html-export.js): the session's data
// as base64 JSON, and a small script that shows the current branch's
// messages. Everything from the session is put in with textContent, never
// as markup.

const STYLE = `
body { margin: 0; background: #1e1f24; color: #d8d9de; font: 14px/1.5 system-ui, sans-serif; }
main { max-width: 56rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.1rem; font-weight: 600; margin: 0 0 1rem; }
.entry { margin: 0 0 1rem; padding: 0.75rem 1rem; border-radius: 6px; background: #2a2b31; }
.entry.user { background: #343541; }
.entry.toolResult { background: #24262b; }
.entry.error { border-left: 3px solid #e06c75; }
.role { font-size: 0.75rem; text-transform: uppercase; letter-spacing: 0.05em; color: #8b8d98; margin-bottom: 0.25rem; }
pre { margin: 0.25rem 0 0; white-space: pre-wrap; word-break: break-word; font: 13px/1.45 ui-monospace, monospace; }
.call { color: #98c379; }
details summary { cursor: pointer; color: #8b8d98; }
`;

// Runs in the browser, on the data above it.
const SCRIPT = `
(() => {
  const encoded = document.getElementById("session-data").textContent.trim();
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const data = JSON.parse(new TextDecoder().decode(bytes));
  const byId = new Map(data.entries.map((entry) => [entry.id, entry]));
  const branch = [];
  for (let id = data.leafId; id && byId.has(id); id = byId.get(id).parentId) branch.unshift(byId.get(id));
  const main = document.querySelector("main");
  const add = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  const textOf = (content) => typeof content === "string" ? content
    : (content || []).map((block) => block.type === "text" ? block.text : block.type === "image" ? "[image " + block.mimeType + "]" : "").join("");
  main.append(add("h1", "Session " + (data.header && data.header.id ? data.header.id : "") + (data.header && data.header.cwd ? " in " + data.header.cwd : "")));
  if (data.systemPrompt) {
    const details = add("details");
    details.append(add("summary", "System prompt"), add("pre", data.systemPrompt));
    main.append(details);
  }
  for (const entry of branch) {
    let role, body;
    if (entry.type === "message") {
      const message = entry.message;
      role = message.role === "toolResult" ? "tool result: " + message.toolName : message.role;
      body = add("div", undefined, "entry " + message.role + (message.isError ? " error" : ""));
      body.append(add("div", role, "role"));
      const text = message.role === "system" ? textOf(message.content) : message.role === "bashExecution" ? "$ " + message.command + "\\n" + (message.output || "") : textOf(message.content);
      if (text) body.append(add("pre", text));
      if (Array.isArray(message.content)) {
        for (const block of message.content) {
          if (block.type === "toolCall") body.append(add("pre", block.name + " " + JSON.stringify(block.arguments, null, 2), "call"));
          if (block.type === "thinking" && block.thinking) {
            const details = add("details");
            details.append(add("summary", "thinking"), add("pre", block.thinking));
            body.append(details);
          }
        }
      }
    } else if (entry.type === "compaction" || entry.type === "branch_summary") {
      body = add("div", undefined, "entry");
      body.append(add("div", entry.type === "compaction" ? "compaction summary" : "branch summary", "role"), add("pre", entry.summary || ""));
    } else if (entry.type === "custom_message" && entry.display !== false) {
      body = add("div", undefined, "entry");
      body.append(add("div", entry.customType, "role"), add("pre", textOf(entry.content)));
    }
    if (body) main.append(body);
  }
})();
`;

/** The whole page around `encodedSessionData` (base64 of the session's JSON). */
export function sessionViewerPage(encodedSessionData) {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>Session Export</title>
  <style>${STYLE}</style>
</head>
<body>
  <main></main>
  <script id="session-data" type="application/json">${encodedSessionData}</script>
  <script>${SCRIPT}</script>
</body>
</html>
`;
}
