// child_process as extensions use it: spawn with streamed output and Node's
// event order, stdin, exit codes and signals, exec/execFile with their
// callback and promise forms, and a command that does not exist.
import { spawn, exec, execFile, execSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";

function collect(child) {
  return new Promise((resolve) => {
    const events = [];
    let stdout = "";
    let stderr = "";
    child.on("spawn", () => events.push("spawn"));
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => events.push(`error:${error.code}:${error.message}:${error.syscall}:${error.path}`));
    child.on("exit", (code, signal) => events.push(`exit:${code}:${signal}`));
    child.on("close", (code, signal) => {
      events.push(`close:${code}:${signal}`);
      resolve({ events, stdout, stderr, exitCode: child.exitCode, signalCode: child.signalCode, killed: child.killed });
    });
  });
}

export async function run({ dir }) {
  const echo = await collect(spawn("sh", ["-c", "echo out; echo err >&2; exit 3"]));
  const lines = await new Promise((resolve) => {
    const child = spawn("sh", ["-c", "for i in 1 2 3; do echo line $i; done"]);
    const chunks = [];
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stdout.on("end", () => resolve(chunks.join("")));
  });
  const cat = spawn("cat");
  const catResult = collect(cat);
  cat.stdin.write("hello ");
  cat.stdin.end("stdin");
  const sleeper = spawn("sleep", ["5"]);
  const sleeperResult = collect(sleeper);
  const killed = sleeper.kill();
  const missing = await collect(spawn("definitely-not-a-command-pihost"));
  const inCwd = await collect(spawn("pwd", [], { cwd: dir }));
  const withEnv = await collect(spawn("sh", ["-c", "echo $PIHOST_TEST_VALUE"], { env: { PATH: process.env.PATH, PIHOST_TEST_VALUE: "from env" } }));
  const shell = await collect(spawn("echo $((2 + 3))", { shell: true }));
  const execResult = await new Promise((resolve) => exec("echo exec; echo warn >&2", (error, stdout, stderr) => resolve({ error, stdout, stderr })));
  const execFailure = await new Promise((resolve) =>
    exec("exit 4", (error, stdout, stderr) => resolve({ message: error.message, code: error.code, killed: error.killed, signal: error.signal, cmd: error.cmd, stdout, stderr })),
  );
  const execPromise = await promisify(exec)("printf promised");
  const execPromiseFailure = await promisify(exec)("echo partial; exit 2").catch((error) => ({ code: error.code, stdout: error.stdout }));
  const execFileResult = await promisify(execFile)("printf", ["%s-%s", "a", "b"]);
  const buffered = await new Promise((resolve) => execFile("printf", ["xyz"], { encoding: "buffer" }, (error, stdout) => resolve([Buffer.isBuffer(stdout), stdout.toString()])));
  return {
    echo,
    lines,
    cat: await catResult,
    sleeper: { killed, result: await sleeperResult },
    missing,
    inCwd: inCwd.stdout.trim() === dir,
    withEnv: withEnv.stdout,
    shell: shell.stdout,
    exec: { error: execResult.error, stdout: execResult.stdout, stderr: execResult.stderr },
    execFailure,
    execPromise,
    execPromiseFailure,
    execFileResult,
    buffered,
    execSync: execSync("echo sync").toString(),
    spawnSync: (({ status, stdout }) => ({ status, stdout: stdout.toString() }))(spawnSync("sh", ["-c", "echo s; exit 1"])),
  };
}
