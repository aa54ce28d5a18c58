// pihost's side of the compat driver: the implementation under test, in the
// shape js/compat/driver.js expects. compat.rs evaluates this module only
// when a scenario runs; nothing in an ordinary runtime imports it.
import { createExtensionRuntime } from "pihost:runtime/extension-runtime.js";
import { createEventBus } from "pihost:runtime/event-bus.js";
import { loadExtensions as loadExtensionList } from "pihost:runtime/loader.js";
import { ExtensionRunner, emitProjectTrustEvent } from "pihost:runtime/runner.js";
import { wrapRegisteredTool, wrapToolDefinition } from "pihost:runtime/tool-wrapper.js";
import { recordCalls, runScenario as runCompatScenario, SCENARIO_SET_THEME_RESULT } from "pihost:compat/driver.js";
import { ops } from "pihost:runtime/ops.js";
import { createHostSession, useScreenComponents } from "pihost:runtime/host-bridge.js";
import { createHostModelRuntime } from "pihost:pi/coding-agent/host-model-runtime.js";

// The scenario's host is session 0's, the one compat.rs binds.
const hostSession = createHostSession(0, createHostModelRuntime());
const { createHostBinding, createUI, setHostState: updateHostState } = hostSession;
import { createTheme, setThemeInstance } from "pihost:pi/coding-agent/ui/theme.js";

/** The implementation under test, in the shape the compat driver expects. */
const compatEnvironment = {
  async loadExtensions(paths, cwd, eventBus) {
    const runtime = createExtensionRuntime();
    const entries = paths.map((path) => ({ path, ...ops.op_pihost_resolve_entry(path, cwd) }));
    const result = await loadExtensionList(entries, { cwd, eventBus, runtime });
    return { extensions: result.extensions, errors: result.errors, runtime };
  },
  createRunner: (extensions, runtime, cwd, sessionManager) => new ExtensionRunner(extensions, runtime, cwd, sessionManager, {}),
  createEventBus,
  emitProjectTrustEvent: (loaded, event, ctx) => emitProjectTrustEvent(loaded.extensions, event, ctx),
  wrapToolDefinition,
  wrapRegisteredTool,
  // The real host path: the JS bridge to the Rust Host that compat.rs bound
  // for this scenario (compat::ScenarioHost, answering from `answers`),
  // recorded by the same wrapper as the reference side's canned host.
  createHost(answers, log) {
    updateHostState({
      model: answers.model,
      scopedModels: answers.scopedModels ?? [],
      activeTools: answers.activeTools ?? [],
      allTools: answers.allTools ?? [],
      settings: answers.settings ?? {},
      sessionName: answers.sessionName,
      thinkingLevel: answers.thinkingLevel ?? "off",
      commands: answers.commands ?? [],
      isIdle: answers.isIdle ?? true,
      projectTrusted: answers.projectTrusted ?? true,
      pendingMessages: answers.pendingMessages ?? false,
      contextUsage: answers.contextUsage,
      systemPrompt: answers.systemPrompt ?? "",
      callableTools: answers.callableTools ?? [],
      editorText: answers.ui?.editorText ?? "",
      hasUI: Boolean(answers.ui),
      canExecuteTools: answers.executeToolResult !== undefined,
      setThemeResult: SCENARIO_SET_THEME_RESULT,
    });
    return recordCalls(createHostBinding(), log);
  },
  // The recorder runs pi's CLI for a user with the dark theme on a
  // truecolor terminal (tests/compat/record.mjs); pihost's theme is made
  // the same, whatever terminal the tests run in.
  afterLoad() {
    setThemeInstance(createTheme({ mode: "truecolor" }));
  },
  flush: () => new Promise((resolve) => setTimeout(resolve, 0)),
  // pihost's own screen (js/runtime/ui/components.js), attached as
  // main.js's attachTerminal attaches it for a host.
  async attachScreen(size, _base, { reportError }) {
    screen = await import("pihost:runtime/ui/components.js");
    useScreenComponents(screen, { id: 0, hostState: hostSession.hostState });
    screen.setComponentErrorReporter(reportError);
    updateHostState({ terminal: size });
    screen.attachScreen(size);
    return createUI();
  },
  sendKey: (data) => screen.sendInput(data),
  // What pihost's frames say is on the screen now: each component's latest
  // frame (a hidden overlay's says so), until a closed frame takes it off.
  screenView() {
    for (const frame of screen.takeFrames()) {
      if (frame.closed) shownFrames.delete(frame.component);
      else shownFrames.set(frame.component, frame);
    }
    const frames = [...shownFrames.values()];
    const rank = (frame) => SCREEN_ORDER.indexOf(frame.kind === "widget" ? `widget:${frame.placement}` : frame.kind);
    return frames
      .map((frame, index) => ({ frame, index }))
      .sort((a, b) => rank(a.frame) - rank(b.frame) || a.index - b.index)
      .map(({ frame }) => ({
        id: frame.component,
        kind: frame.kind,
        ...(frame.kind === "widget" ? { widget: frame.widget, placement: frame.placement } : {}),
        ...(frame.hidden ? { hidden: true } : {}),
        lines: frame.lines,
      }));
  },
};

/** Top to bottom as pi lays out its screen, overlays last. */
const SCREEN_ORDER = ["header", "widget:aboveEditor", "editor", "custom", "widget:belowEditor", "footer", "overlay"];
let screen;
/** The latest frame of each component on pihost's screen, in the order they first drew. */
const shownFrames = new Map();

/**
 * Runs a compat scenario: { dir, scenario, examplesDir }
 * (pi's examples/extensions, for "pi-examples:" entries). Resolves to the
 * JSON of the driver's output (js/compat/driver.js).
 */
export async function runScenario({ dir, scenario, examplesDir }) {
  return JSON.stringify(await runCompatScenario(scenario, dir, { ...compatEnvironment, examplesDir }));
}

