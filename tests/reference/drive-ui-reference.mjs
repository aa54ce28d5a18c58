// Runs one tool or command of an extension under the reference pi with a
// UI, the way its interactive mode shows a ctx.ui.custom component: pi's
// own loader, theme and keybindings, a pi-tui TuiMainScreen over a terminal
// that draws nowhere, the component in the editor's place with focus, and
// the keys fed through the TUI's input path. Prints what the component drew
// after opening and after each key (as pi-tui writes it: cursor markers
// resolved), so tests/ui.rs can require the same frames from pihost.
//
//   <reference node> tests/reference/drive-ui-reference.mjs --pi-dir DIR --extension PATH
//       (--tool NAME --args JSON | --command NAME --args TEXT) --keys JSON --width N [--height N]
//
// --keys is a JSON list of raw sequences. Output: { result, error?, frames: [{ lines }] }.
// The output is produced live from the reference; do not commit recordings.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { nullTerminal, written } from "./reference-screen.mjs";

function parseArgs(argv) {
  const options = { height: 24 };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    switch (argv[i]) {
      case "--pi-dir": options.piDir = value; break;
      case "--extension": options.extension = value; break;
      case "--tool": options.tool = value; break;
      case "--command": options.command = value; break;
      case "--args": options.args = value; break;
      case "--keys": options.keys = JSON.parse(value); break;
      case "--width": options.width = Number(value); break;
      case "--height": options.height = Number(value); break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return options;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 40));

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const modules = path.join(path.resolve(options.piDir), "node_modules");
  const load = (file) => import(pathToFileURL(path.join(modules, file)).href);
  const { default: chalk } = await load("chalk/source/index.js");
  chalk.level = 3;
  const { VIRTUAL_MODULES } = await load("@earendil-works/pi-coding-agent/dist/core/extensions/virtual-modules.js");
  const { discoverAndLoadExtensions } = await load("@earendil-works/pi-coding-agent/dist/core/extensions/loader.js");
  const { theme } = await load("@earendil-works/pi-coding-agent/dist/modes/interactive/theme/theme.js");
  const { KeybindingsManager } = await load("@earendil-works/pi-coding-agent/dist/core/keybindings.js");
  const tuiModule = VIRTUAL_MODULES["@earendil-works/pi-tui"];
  VIRTUAL_MODULES["@earendil-works/pi-coding-agent"].initTheme("dark");
  const agentDir = path.join(process.cwd(), "agent");
  const keybindings = KeybindingsManager.create(agentDir);
  tuiModule.setKeybindings(keybindings);

  let sendInput;
  const terminal = nullTerminal({ columns: options.width, rows: options.height }, (onInput) => (sendInput = onInput));
  const tui = new tuiModule.TuiMainScreen(terminal);
  tui.start();

  const frames = [];
  let shown;
  const record = () => {
    if (!shown) return;
    const lines = shown.render(options.width).map(written);
    const last = frames.at(-1)?.lines;
    if (last && last.length === lines.length && last.every((line, index) => line === lines[index])) return;
    frames.push({ lines });
  };

  const ui = {
    custom: (factory) =>
      new Promise((resolve, reject) => {
        let closed = false;
        let component;
        const close = (result) => {
          if (closed) return;
          closed = true;
          if (component) tui.removeChild(component);
          shown = undefined;
          resolve(result);
          component?.dispose?.();
        };
        Promise.resolve(factory(tui, theme, keybindings, close)).then((made) => {
          if (closed) return;
          component = made;
          shown = made;
          tui.addChild(made);
          tui.setFocus(made);
          record();
        }, reject);
      }),
    notify() {},
    setStatus() {},
    setWidget() {},
    setTitle() {},
    get theme() {
      return theme;
    },
  };
  const ctx = { mode: "tui", hasUI: true, cwd: process.cwd(), ui, isIdle: () => true, signal: undefined };

  const loaded = await discoverAndLoadExtensions([options.extension], process.cwd(), agentDir);
  const extension = loaded.extensions[0];
  if (!extension) throw new Error(`the extension did not load: ${JSON.stringify(loaded.errors)}`);
  const call = options.tool
    ? extension.tools.get(options.tool).definition.execute("call-1", JSON.parse(options.args ?? "{}"), undefined, () => {}, ctx)
    : extension.commands.get(options.command).handler(options.args ?? "", ctx);
  let outcome;
  const finished = Promise.resolve(call).then(
    (result) => (outcome = { result }),
    (error) => (outcome = { error: error?.message ?? String(error) }),
  );
  await settle();
  for (const key of options.keys) {
    if (outcome || !shown) break;
    sendInput(key);
    await settle();
    record();
  }
  await Promise.race([finished, settle()]);
  process.stdout.write(`${JSON.stringify({ ...outcome, frames })}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`drive-ui-reference: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
