// Facts about the terminal pi runs in that pi-tui reads from the process.

/** Whether this is macOS's Terminal.app, whose Shift+Enter needs the native modifier state. */
export function isAppleTerminalSession() {
  return process.platform === "darwin" && process.env.TERM_PROGRAM === "Apple_Terminal";
}
