// Values in mcp.json that name where the real value comes from, as pi
// resolves API keys: `!command` runs a shell command and takes its output;
// other values are templates where `$NAME` and `${NAME}` are environment
// variables, `$$` a literal `$` and `$!` a literal `!`. A value that cannot
// be resolved is an error naming what was missing, so a server is not
// started with an empty token.
import { execSync, spawnSync } from "node:child_process";
import { hostEnv } from "../../host-env.js";
import { getShellConfig } from "../shell.js";

const COMMAND_TIMEOUT_MS = 10_000;
const NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*/;
const WHOLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A template as literal text and environment variable references, in order. */
function templateParts(value) {
  const parts = [];
  const literal = (text) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.literal !== undefined) last.literal += text;
    else parts.push({ literal: text });
  };
  let index = 0;
  while (index < value.length) {
    const dollar = value.indexOf("$", index);
    if (dollar === -1) {
      literal(value.slice(index));
      break;
    }
    literal(value.slice(index, dollar));
    const next = value[dollar + 1];
    if (next === "$" || next === "!") {
      literal(next);
      index = dollar + 2;
      continue;
    }
    if (next === "{") {
      const close = value.indexOf("}", dollar + 2);
      if (close === -1) {
        literal("$");
        index = dollar + 1;
        continue;
      }
      const name = value.slice(dollar + 2, close);
      if (WHOLE_NAME.test(name)) parts.push({ env: name });
      else literal(value.slice(dollar, close + 1));
      index = close + 1;
      continue;
    }
    const name = NAME_PREFIX.exec(value.slice(dollar + 1))?.[0];
    if (name) {
      parts.push({ env: name });
      index = dollar + 1 + name.length;
      continue;
    }
    literal("$");
    index = dollar + 1;
  }
  return parts;
}

const envValue = (name, env) => env?.[name] || hostEnv()[name] || undefined;

/** The environment variables a value reads (none for a `!command`). */
export function getConfigValueEnvVarNames(value) {
  if (value.startsWith("!")) return [];
  return [...new Set(templateParts(value).flatMap((part) => (part.env === undefined ? [] : [part.env])))];
}

export function isCommandConfigValue(value) {
  return value.startsWith("!");
}

/** Whether a value counts as configured (pi's test, nothing run): a command, a literal, or a template whose variables are set. */
export function isConfigValueConfigured(value) {
  return getConfigValueEnvVarNames(value).every((name) => envValue(name) !== undefined);
}

/** The trimmed output of a shell command, or undefined when it fails or prints nothing. */
function commandOutput(command) {
  if (globalThis.process?.platform === "win32") {
    try {
      const { shell, args } = getShellConfig();
      const result = spawnSync(shell, [...args, command], {
        encoding: "utf-8",
        timeout: COMMAND_TIMEOUT_MS,
        stdio: ["ignore", "pipe", "ignore"],
        windowsHide: true,
      });
      if (!result.error) return result.status === 0 ? (result.stdout ?? "").trim() || undefined : undefined;
      if (result.error.code !== "ENOENT") return undefined;
    } catch {
      // No usable shell configured: cmd.exe below.
    }
  }
  try {
    return execSync(command, { encoding: "utf-8", timeout: COMMAND_TIMEOUT_MS, stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The value `value` stands for; `description` names it in the error when it
 * cannot be resolved. `env` (names to values) is read before the host's.
 */
export function resolveConfigValueOrThrow(value, description, env) {
  if (value.startsWith("!")) {
    const output = commandOutput(value.slice(1));
    if (output !== undefined) return output;
    throw new Error(`Failed to resolve ${description} from shell command: ${value.slice(1)}`);
  }
  const parts = templateParts(value);
  const missing = [];
  let resolved = "";
  for (const part of parts) {
    if (part.literal !== undefined) {
      resolved += part.literal;
      continue;
    }
    const found = envValue(part.env, env);
    if (found === undefined) {
      if (!missing.includes(part.env)) missing.push(part.env);
    } else resolved += found;
  }
  if (missing.length === 0) return resolved;
  if (missing.length === 1) throw new Error(`Failed to resolve ${description} from environment variable: ${missing[0]}`);
  throw new Error(`Failed to resolve ${description} from environment variables: ${missing.join(", ")}`);
}

/** Every header value resolved; undefined when there are none. */
export function resolveHeadersOrThrow(headers, description, env) {
  if (!headers) return undefined;
  const resolved = {};
  for (const [name, value] of Object.entries(headers)) {
    resolved[name] = resolveConfigValueOrThrow(value, `${description} header "${name}"`, env);
  }
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}
