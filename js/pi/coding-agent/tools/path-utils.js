// How the tools turn a model's path into a file: unicode spaces made plain,
// a leading "@" dropped, "~" expanded, file:// URLs accepted, relative paths
// taken from the tool's cwd. read also tries the spellings macOS gives
// screenshot names, since models type them with plain characters.
import { access } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

function normalizePath(input, { modelInput = false } = {}) {
  let path = input;
  if (modelInput) {
    path = path.replace(UNICODE_SPACES, " ");
    if (path.startsWith("@")) path = path.slice(1);
  }
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  if (/^file:\/\//.test(path)) return fileURLToPath(path);
  return path;
}

/** The absolute path a tool works on for `filePath` given by the model. */
export function resolveToCwd(filePath, cwd) {
  const path = normalizePath(filePath, { modelInput: true });
  return isAbsolute(path) ? resolve(path) : resolve(normalizePath(cwd), path);
}

export async function pathExists(filePath) {
  try {
    await access(filePath);
    return true;
  } catch {
    return false;
  }
}

/** macOS's variants of a path: narrow no-break space before AM/PM, NFD, curly apostrophe, both. */
function macOSVariants(path) {
  const nfd = path.normalize("NFD");
  const curly = (text) => text.replace(/'/g, "\u2019");
  return [path.replace(/ (AM|PM)\./gi, "\u202F$1."), nfd, curly(path), curly(nfd)];
}

/** resolveToCwd, then the first macOS spelling that exists when the path itself does not. */
export async function resolveReadPath(filePath, cwd) {
  const resolved = resolveToCwd(filePath, cwd);
  if (await pathExists(resolved)) return resolved;
  for (const variant of macOSVariants(resolved)) {
    if (variant !== resolved && (await pathExists(variant))) return variant;
  }
  return resolved;
}
