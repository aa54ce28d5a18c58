// Exports of pi's packages that cannot mean anything inside a host: they
// run pi's own process (its command line, its modes, its terminal) or point
// into pi's installed package, which a host that embeds pi's packages does
// not have. Using one throws its reason; `pihost modules` lists them apart
// from what is not built yet.

const PI_PACKAGE = "pi's installed npm package; pihost carries pi's packages inside itself, so there is no such directory";
const PI_PROCESS_TERMINAL = "it drives the terminal of pi's own process; in pihost the host owns the terminal and extension components draw on pihost's screen (ctx.ui.custom)";

/** Reasons, by module display name and export name. */
export const NOT_IN_A_HOST = {
  "@earendil-works/pi-coding-agent": {
    main: "pi's command-line program: it parses pi's arguments, starts pi's session and owns the process",
    runPrintMode: "runs pi itself in print mode, with pi's own session and process",
    runRpcMode: "runs pi itself as an RPC server on the process's stdin and stdout",
    InteractiveMode: "pi's interactive terminal application; the host is the application here",
    getPackageDir: PI_PACKAGE,
    getDocsPath: PI_PACKAGE,
    getExamplesPath: PI_PACKAGE,
    getReadmePath: PI_PACKAGE,
  },
  "@earendil-works/pi-tui": {
    ProcessTerminal: PI_PROCESS_TERMINAL,
    TuiAltScreen: PI_PROCESS_TERMINAL,
    TuiMainScreen: PI_PROCESS_TERMINAL,
  },
};
