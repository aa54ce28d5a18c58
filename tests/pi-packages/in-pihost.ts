// The pi-package goldens replayed inside pihost: the same case tables the
// Node differentials run against js/pi/*.js, here run against the virtual
// modules an extension imports (the facades, in the isolate), and compared
// with what the reference recorded; builtin-tools-goldens runs pi's built-in
// tools over a fresh fixture; ui-goldens checks the theme (ctx.ui.theme) and
// the UI exports. tests/pi_packages.rs calls these tools.
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as tui from "@earendil-works/pi-tui";
import * as typebox from "typebox";
import * as value from "typebox/value";
import * as compile from "typebox/compile";
import * as ai from "@earendil-works/pi-ai";
import * as aiModels from "@earendil-works/pi-ai/models";
import * as aiProviders from "@earendil-works/pi-ai/providers/all";
import * as agent from "@earendil-works/pi-coding-agent";
import * as core from "@earendil-works/pi-agent-core";
import { runAsyncCases } from "./pi-tui-async-cases.mjs";
import { runCases } from "./pi-tui-cases.mjs";
import { buildCases, runCase } from "./pi-packages-cases.mjs";
import { compareAll } from "./builtin-tools-cases.mjs";
import { runCases as runUiCases } from "./ui-cases.mjs";
import { runSelectorAsyncCases } from "./selector-async-cases.mjs";
import { buildCases as buildPiAiCases, hookEnv, runCase as runPiAiCase } from "./pi-ai-cases.mjs";

const NOT_IMPLEMENTED = Symbol.for("pihost.notImplemented");

// The case tables skip names a module lacks; a facade has every name, so
// its stubs are taken out first, as they are absent under Node.
function implemented(namespace) {
  return Object.fromEntries(Object.entries(namespace).filter(([, item]) => !item?.[NOT_IMPLEMENTED]));
}

function recorded(file) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  return JSON.parse(readFileSync(join(root, "reference-data", file), "utf8"));
}

function goldens(file) {
  return recorded(file).cases;
}

function report(results, knownDivergences = []) {
  const failures = results.filter((result) => !result.ok);
  return {
    content: [
      {
        type: "text",
        text: JSON.stringify({ passed: results.length - failures.length, failures: failures.slice(0, 20).map((f) => f.detail), knownDivergences }),
      },
    ],
    details: {},
  };
}

const show = (item) => JSON.stringify(item);

/**
 * A codemode script's stack frames come from the engine: pihost's sandbox
 * runs scripts on this engine's QuickJS, whose frames carry V8's positions
 * and leave out built-ins (docs/engine-notes.md, note 47), where pi's
 * QuickJS VM gives its own. Frame lines (`\n    at …`, also inside JSON
 * text) are the only part such cases may differ in.
 */
const withoutStackFrames = (text) => text.replace(/(?:\\+n| ?\n)? {4}at [^\\"]*/g, "");

export default function (pi) {
  pi.registerTool({
    name: "pi-tui-goldens",
    parameters: { type: "object" },
    async execute() {
      for (const name of ["WT_SESSION", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"]) delete process.env[name];
      const expected = goldens("pi-tui-goldens.json");
      const actual = { ...runCases(implemented(tui)), ...(await runAsyncCases(implemented(tui))) };
      const results = [];
      for (const [id, want] of Object.entries(expected)) {
        const got = actual[id];
        if (got?.missing) continue;
        results.push({ ok: show(want) === show(got), detail: `${id}\n  pi:     ${show(want)}\n  pihost: ${show(got)}` });
      }
      return report(results);
    },
  });
  pi.registerTool({
    name: "pi-packages-goldens",
    parameters: { type: "object" },
    async execute() {
      const expected = goldens("pi-packages-goldens.json");
      // Code's modules import `typebox/value`, which pi's virtual map answers wherever the file is.
      const codeFolder = await mkdtemp(join(tmpdir(), "pihost-code-cases-"));
      let codeFiles = 0;
      const importCode = async (code) => {
        const file = join(codeFolder, `code-${codeFiles++}.mjs`);
        await writeFile(file, code);
        return import(pathToFileURL(file).href);
      };
      const cases = buildCases({ typebox: implemented(typebox), value, compile, ai, agent, importCode });
      const results = [];
      const divergences = [];
      try {
        for (const { name, run } of cases) {
          const got = await runCase(run);
          const ok = show(expected[name]) === show(got);
          if (!ok && name.startsWith("codemode ") && withoutStackFrames(show(expected[name])) === withoutStackFrames(show(got))) {
            divergences.push(name);
            continue;
          }
          results.push({ ok, detail: `${name}\n  pi:     ${show(expected[name])}\n  pihost: ${show(got)}` });
        }
      } finally {
        await rm(codeFolder, { recursive: true, force: true });
      }
      return report(results, divergences);
    },
  });
  pi.registerTool({
    name: "pi-ai-goldens",
    parameters: { type: "object" },
    async execute() {
      // Model calls are answered through the host hook, swapped in per case
      // and restored after it (hookEnv in pi-ai-cases.mjs).
      const expected = goldens("pi-ai-goldens.json");
      const cases = buildPiAiCases({ ai, aiModels, aiProviders, core: implemented(core), env: hookEnv() });
      const results = [];
      for (const { name, run } of cases) {
        const got = await runPiAiCase(run);
        results.push({ ok: show(expected[name]) === show(got), detail: `${name}\n  pi:     ${show(expected[name])}\n  pihost: ${show(got)}` });
      }
      for (const name of Object.keys(expected)) {
        if (!cases.some((entry) => entry.name === name)) results.push({ ok: false, detail: `${name}\n  golden without a case` });
      }
      return report(results);
    },
  });
  pi.registerTool({
    name: "ui-goldens",
    parameters: { type: "object" },
    async execute(_toolCallId, _params, _signal, _onUpdate, ctx) {
      // The goldens hold pi's dark theme in truecolor; initTheme makes the current theme anew from this.
      process.env.PI_TRUE_COLOR = "1";
      const expected = goldens("ui-goldens.json");
      implemented(agent).initTheme?.("dark");
      // Without ctx.ui.theme the cases on the theme object come out missing and are skipped.
      const actual = runUiCases({ agent: implemented(agent), tui: implemented(tui), theme: ctx?.ui?.theme });
      Object.assign(actual, await runSelectorAsyncCases({ agent: implemented(agent), tui: implemented(tui) }));
      const results = [];
      let skipped = 0;
      for (const [id, want] of Object.entries(expected)) {
        const got = actual[id];
        if (got?.missing) {
          skipped++;
          continue;
        }
        results.push({ ok: show(want) === show(got), detail: `${id}\n  pi:     ${show(want)}\n  pihost: ${show(got)}` });
      }
      const failures = results.filter((result) => !result.ok);
      return {
        content: [{ type: "text", text: JSON.stringify({ passed: results.length - failures.length, skipped, failures: failures.slice(0, 20).map((f) => f.detail) }) }],
        details: {},
      };
    },
  });
  pi.registerTool({
    name: "builtin-tools-goldens",
    parameters: { type: "object" },
    async execute() {
      // The tools write into their fixture, so each run gets a fresh one.
      const dir = join(tmpdir(), `pihost-builtin-tools-${Date.now()}-${Math.random().toString(16).slice(2)}`);
      await mkdir(dir, { recursive: true });
      try {
        const { passed, failures, divergences } = await compareAll(implemented(agent), dir, recorded("builtin-tools-goldens.json"));
        return {
          content: [{ type: "text", text: JSON.stringify({ passed: passed.length, failures: failures.slice(0, 20), knownDivergences: divergences }) }],
          details: {},
        };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  });
}
