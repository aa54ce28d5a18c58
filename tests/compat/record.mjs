// Records the compat goldens: runs every scenario through the shared driver
// (js/compat/driver.js) against the reference pi's own loader and runner, and
// writes the driver's output as expected.json next to the scenario.
//
//   <reference node> tests/compat/record.mjs --pi-dir <pi-reference-dir> [SCENARIO_DIR...]
//
// e.g. ~/.cache/pi-reference/1.6.0/node_modules/.bin/node tests/compat/record.mjs \
//          --pi-dir ~/.cache/pi-reference/1.6.0
//
// Without SCENARIO_DIR it records every folder under tests/compat/scenarios/
// that holds a scenario.json. Each scenario runs in a fresh child process
// (this file again, with `--one DIR`), so globals, module caches and event
// listeners never leak from one scenario into the next. The goldens are data:
// regenerate them with this command, never edit them by hand.
//
// Options: --verbose shows what each scenario's process printed (extensions'
// console output, the reference's warnings) even when it succeeded.
// Exit status: 0 when every scenario was recorded, 1 when any run crashed,
// 2 on bad usage.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");
const driverPath = path.join(repoRoot, "js/compat/driver.js");
const scenariosRoot = path.join(here, "scenarios");
const CHILD_TIMEOUT_MS = 120_000;
/** The pi settings the recorded CLI runs with (see recordOne). */
const CLI_SETTINGS = { theme: "dark", terminal: { trueColor: true } };

function usage(message) {
  if (message) process.stderr.write(`record: ${message}\n`);
  process.stderr.write("usage: record.mjs --pi-dir <pi-reference-dir> [--verbose] [SCENARIO_DIR...]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const options = { piDir: undefined, one: undefined, verbose: false, dirs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const value = argv[++i];
      if (value === undefined) usage(`${arg} needs a value`);
      return value;
    };
    if (arg === "--pi-dir") options.piDir = next();
    else if (arg.startsWith("--pi-dir=")) options.piDir = arg.slice("--pi-dir=".length);
    else if (arg === "--one") options.one = next();
    else if (arg === "--verbose" || arg === "-v") options.verbose = true;
    else if (arg === "-h" || arg === "--help") usage();
    else if (arg.startsWith("--")) usage(`unknown option ${arg}`);
    else options.dirs.push(arg);
  }
  if (!options.piDir) usage("--pi-dir is required");
  return options;
}

/** The pi-coding-agent package inside a reference install (or the package itself). */
function packageDir(piDir) {
  const candidates = [path.join(piDir, "node_modules/@earendil-works/pi-coding-agent"), piDir];
  for (const candidate of candidates) {
    if (fs.existsSync(path.join(candidate, "dist/core/extensions/runner.js"))) return candidate;
  }
  throw new Error(`no pi-coding-agent package with dist/core/extensions/runner.js under ${piDir}`);
}

const importFrom = (file) => import(pathToFileURL(file).href);

// --- child: one scenario -------------------------------------------------

async function recordOne(piDir, dir) {
  const pkg = packageDir(piDir);
  const core = path.join(pkg, "dist/core");
  const themeDir = path.join(pkg, "dist/modes/interactive/theme");
  const optional = (file) => (fs.existsSync(file) ? importFrom(file) : Promise.resolve({}));
  const [driver, loader, runnerModule, eventBus, wrapper, extensionWrapper, themes, themeSchema, settings, tui] =
    await Promise.all([
      importFrom(driverPath),
      importFrom(path.join(core, "extensions/loader.js")),
      importFrom(path.join(core, "extensions/runner.js")),
      importFrom(path.join(core, "event-bus.js")),
      importFrom(path.join(core, "tools/tool-definition-wrapper.js")),
      importFrom(path.join(core, "extensions/wrapper.js")),
      importFrom(path.join(themeDir, "theme.js")),
      optional(path.join(themeDir, "theme-schema.js")),
      importFrom(path.join(core, "settings-manager.js")),
      // The pi-tui that pi's theme module imports.
      optional(path.join(path.dirname(pkg), "pi-tui/dist/index.js")),
    ]);
  // What pi's CLI (dist/main.js) sets up around the extensions, for a user
  // whose settings pick the dark theme on a truecolor terminal (pihost ships
  // only "dark"): the theme validator first, then, once the extensions are
  // loaded, the terminal capabilities and the theme, so ctx.ui.theme works
  // in every mode, headless too; a factory still runs before any theme.
  // pi 0.82.1's CLI knows neither the validator nor capability settings.
  themes.setThemeJsonValidator?.(themeSchema.validateThemeJson);
  // On a terminal chalk styles text (bold, italic, …); piped, as here, it
  // would not.
  const chalkEntry = createRequire(path.join(pkg, "package.json")).resolve("chalk");
  (await importFrom(chalkEntry)).default.level = 3;
  const cliSettings = settings.SettingsManager.inMemory(CLI_SETTINGS);
  const env = {
    loadExtensions: (paths, cwd, bus) => loader.loadExtensions(paths, cwd, bus),
    createRunner: (extensions, runtime, cwd, sessionManager) =>
      new runnerModule.ExtensionRunner(extensions, runtime, cwd, sessionManager, {}),
    createEventBus: () => eventBus.createEventBus(),
    emitProjectTrustEvent: (result, event, ctx) => runnerModule.emitProjectTrustEvent(result, event, ctx),
    wrapToolDefinition: (definition, ctxFactory) => wrapper.wrapToolDefinition(definition, ctxFactory),
    wrapRegisteredTool: (registeredTool, runner) => extensionWrapper.wrapRegisteredTool(registeredTool, runner),
    flush: () => new Promise((resolve) => setTimeout(resolve, 0)),
    examplesDir: path.join(pkg, "examples/extensions"),
    afterLoad: () => {
      tui.setCapabilityOverrides?.(cliSettings.getTerminalCapabilityOverrides());
      themes.initTheme(cliSettings.getTheme(), false);
    },
    currentTheme: () => themes.theme,
    // A screen as pi's interactive mode shows extension components on
    // (tests/reference/reference-screen.mjs), with pi's keybindings.
    async attachScreen(size, base) {
      const [{ VIRTUAL_MODULES }, { KeybindingsManager }, { createReferenceScreen }] = await Promise.all([
        importFrom(path.join(core, "extensions/virtual-modules.js")),
        importFrom(path.join(core, "keybindings.js")),
        importFrom(path.join(repoRoot, "tests/reference/reference-screen.mjs")),
      ]);
      const tuiModule = VIRTUAL_MODULES["@earendil-works/pi-tui"];
      const keybindings = KeybindingsManager.create(path.join(dir, ".no-agent-dir"));
      tuiModule.setKeybindings(keybindings);
      screen = createReferenceScreen({
        ...size,
        tuiModule,
        theme: () => themes.theme,
        keybindings,
        editorTheme: () => themes.getEditorTheme(),
      });
      return screen.ui(base);
    },
    sendKey: (data) => screen.sendKey(data),
    screenView: () => screen.view(),
  };
  let screen;
  const scenario = JSON.parse(fs.readFileSync(path.join(dir, "scenario.json"), "utf8"));
  const output = await driver.runScenario(scenario, dir, env);
  fs.writeFileSync(path.join(dir, "expected.json"), `${JSON.stringify(output, null, 2)}\n`);
}

// --- parent: every scenario, one process each ----------------------------

function listScenarios() {
  if (!fs.existsSync(scenariosRoot)) return [];
  return fs
    .readdirSync(scenariosRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(scenariosRoot, entry.name, "scenario.json")))
    .map((entry) => path.join(scenariosRoot, entry.name))
    .sort();
}

function indent(text) {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

function recordAll(options) {
  const dirs = options.dirs.length > 0 ? options.dirs.map((dir) => path.resolve(dir)) : listScenarios();
  if (dirs.length === 0) {
    process.stderr.write(`record: no scenarios found under ${scenariosRoot}\n`);
    return 1;
  }
  const self = fileURLToPath(import.meta.url);
  let failed = 0;
  for (const dir of dirs) {
    const name = path.basename(dir);
    if (!fs.existsSync(path.join(dir, "scenario.json"))) {
      process.stdout.write(`${name}: failed (no scenario.json)\n`);
      failed++;
      continue;
    }
    // A scenario of an older pi ("piVersion": "0.82.1", for (0.82) ids) is
    // recorded with that version's install, beside the default one
    // (scripts/install-reference 0.82.1).
    const scenario = JSON.parse(fs.readFileSync(path.join(dir, "scenario.json"), "utf8"));
    const piDir = scenario.piVersion ? path.join(path.dirname(options.piDir), scenario.piVersion) : options.piDir;
    if (!fs.existsSync(piDir)) {
      process.stdout.write(`${name}: failed (pi ${scenario.piVersion} is not installed at ${piDir})\n`);
      failed++;
      continue;
    }
    const child = spawnSync(process.execPath, [self, "--pi-dir", piDir, "--one", dir], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    const printed = `${child.stdout ?? ""}${child.stderr ?? ""}`;
    const ok = child.status === 0;
    const why = child.error ? ` (${child.error.message})` : child.signal ? ` (killed by ${child.signal})` : "";
    process.stdout.write(`${name}: ${ok ? "ok" : `failed${why}`}\n`);
    if ((!ok || options.verbose) && printed.trim()) process.stdout.write(`${indent(printed)}\n`);
    if (!ok) failed++;
  }
  process.stdout.write(`${dirs.length - failed}/${dirs.length} scenarios recorded\n`);
  return failed > 0 ? 1 : 0;
}

const options = parseArgs(process.argv.slice(2));
const piDir = path.resolve(options.piDir.replace(/^~(?=$|\/)/, process.env.HOME ?? "~"));
if (options.one) {
  recordOne(piDir, path.resolve(options.one)).then(
    // Extensions may leave handles open; the golden is written, so leave now.
    () => process.exit(0),
    (error) => {
      process.stderr.write(`record: ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
} else {
  process.exitCode = recordAll({ ...options, piDir });
}
