// The `Deno` namespace that Deno's platform JavaScript calls into (deno_node's
// fs, process and child_process, deno_web, deno_fs, …). Extensions never see
// it: build/platform_sources.rs binds it inside each of Deno's files from
// deno_core's `internals`, and globalThis has no `Deno`, as in Node.
//
// Every member is a getter that loads the module providing it on first use,
// so building the namespace costs nothing until the platform is touched.

import { watchFs } from "pihost:platform/fs-events.js";

const FS = "ext:deno_fs/30_fs.js";
const OS = "ext:deno_os/30_os.js";
const SIGNALS = "ext:deno_os/40_signals.js";
const NET = "ext:deno_net/01_net.js";
const TLS = "ext:deno_net/02_tls.js";
const PROCESS = "ext:deno_process/40_process.js";
const IO = "ext:deno_io/12_io.js";
const CONSOLE = "ext:deno_web/01_console.js";
const HTTP_CLIENT = "ext:deno_fetch/22_http_client.js";

/** `name: [module, export]` for every member that comes from a module. */
const MEMBERS = {
  ...fromModule(FS, [
    "chdir",
    "chmod",
    "chmodSync",
    "chown",
    "chownSync",
    "copyFile",
    "copyFileSync",
    "create",
    "createSync",
    "cwd",
    "FsFile",
    "link",
    "linkSync",
    "lstat",
    "lstatSync",
    "makeTempDir",
    "makeTempDirSync",
    "makeTempFile",
    "makeTempFileSync",
    "mkdir",
    "mkdirSync",
    "open",
    "openSync",
    "readDir",
    "readDirSync",
    "readFile",
    "readFileSync",
    "readLink",
    "readLinkSync",
    "readTextFile",
    "readTextFileSync",
    "realPath",
    "realPathSync",
    "remove",
    "removeSync",
    "rename",
    "renameSync",
    "stat",
    "statSync",
    "symlink",
    "symlinkSync",
    "truncate",
    "truncateSync",
    "umask",
    "utime",
    "utimeSync",
    "writeFile",
    "writeFileSync",
    "writeTextFile",
    "writeTextFileSync",
  ]),
  ...fromModule(OS, [
    "env",
    "gid",
    "hostname",
    "loadavg",
    "networkInterfaces",
    "osRelease",
    "osUptime",
    "systemMemoryInfo",
    "uid",
  ]),
  ...fromModule(SIGNALS, ["addSignalListener", "removeSignalListener"]),
  ...fromModule(NET, ["connect", "listen", "resolveDns"]),
  listenDatagram: [NET, "createListenDatagram"],
  ...fromModule(TLS, ["connectTls", "listenTls", "startTls"]),
  ...fromModule(PROCESS, ["ChildProcess", "Command", "kill", "Process", "run"]),
  ...fromModule(IO, ["stdin", "stdout", "stderr", "read", "readSync", "write", "writeSync", "SeekMode"]),
  ...fromModule(CONSOLE, ["inspect"]),
  ...fromModule(HTTP_CLIENT, ["HttpClient", "createHttpClient"]),
};

function fromModule(specifier, names) {
  return Object.fromEntries(names.map((name) => [name, [specifier, name]]));
}

/**
 * Builds the namespace. `facts` is what pihost knows of the machine
 * (`op_pihost_os_info`); `errors` are the registered error classes.
 */
export function createDenoNamespace(core, { facts, errors, unavailable }) {
  const namespace = {
    core,
    errors,
    internal: Symbol("Deno.internal"),
    build: core.build,
    version: { pihost: facts.pihostVersion },
    args: [],
    mainModule: undefined,
    noColor: true,
    pid: facts.pid,
    execPath: () => facts.nodeExecPath,
    ppid: facts.ppid,
    // Extensions have no terminal of their own.
    consoleSize: () => {
      throw new errors.NotSupported("pihost: extensions have no terminal");
    },
    cpuUsage: () => core.ops.op_pihost_cpu_usage(),
    memoryUsage: () => core.ops.op_pihost_memory_usage(),
    isatty: () => false,
    // pihost never lets an extension end the host process.
    exit: (code) => unavailable.exit(code),
    watchFs: (paths, options) => watchFs(core, paths, options),
    serve: () => unavailable.api("Deno.serve"),
    upgradeWebSocket: () => unavailable.api("Deno.upgradeWebSocket"),
    test: () => unavailable.api("Deno.test"),
  };
  for (const [name, [specifier, exported]] of Object.entries(MEMBERS)) {
    Object.defineProperty(namespace, name, {
      __proto__: null,
      configurable: true,
      enumerable: true,
      get() {
        const value = core.loadExtScript(specifier)[exported];
        Object.defineProperty(namespace, name, { __proto__: null, value, writable: true, configurable: true, enumerable: true });
        return value;
      },
    });
  }
  Object.defineProperty(namespace, "exitCode", {
    __proto__: null,
    configurable: true,
    enumerable: true,
    get: () => core.loadExtScript(OS).getExitCode(),
    set: (code) => core.loadExtScript(OS).setExitCode(code),
  });
  namespace[namespace.internal] = { core };
  return namespace;
}
