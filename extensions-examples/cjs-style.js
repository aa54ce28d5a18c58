/**
 * cjs-style.js — a plain CommonJS extension.
 *
 * Demonstrates: `module.exports = function (pi) {...}` counts as the default
 * export; `require` of a `node:` built-in works; the tool's parameters are a
 * hand-written JSON Schema object (no TypeBox). Also registers the flag
 * "cjs-debug" (default true) that flags.ts, loaded later, cannot read.
 *
 * Checklist: L3 (CommonJS module.exports as the factory), L7 (CommonJS and
 * require), A1, A9 (a flag owned by another extension).
 */
"use strict";

const path = require("node:path");

const echoParameters = {
  type: "object",
  properties: {
    text: { type: "string", description: "Text to echo back" },
    repeat: { type: "integer", minimum: 1, maximum: 3, default: 1 },
    separator: { type: "string", enum: [" ", ", ", " | "] },
  },
  required: ["text"],
  additionalProperties: false,
};

module.exports = function cjsStyle(pi) {
  pi.registerTool({
    name: "cjs_echo",
    label: "CJS echo",
    description: "Echoes text back (registered from " + path.extname(__filename) + " CommonJS)",
    parameters: echoParameters,
    execute: async function (_toolCallId, params) {
      const parts = [];
      for (let i = 0; i < (params.repeat || 1); i++) parts.push(params.text);
      return { content: [{ type: "text", text: parts.join(params.separator || " ") }], details: {} };
    },
  });

  pi.registerFlag("cjs-debug", { type: "boolean", default: true, description: "Owned by cjs-style.js" });
};
