// The built-in tools' factories, and the two standard sets pi offers.
import { createBashTool } from "./bash.js";
import { createEditTool } from "./edit.js";
import { createFindTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createReadTool } from "./read.js";
import { createWriteTool } from "./write.js";

export { createBashTool, createBashToolDefinition, createLocalBashOperations } from "./bash.js";
export { createEditTool, createEditToolDefinition } from "./edit.js";
export { createFindTool, createFindToolDefinition } from "./find.js";
export { createGrepTool, createGrepToolDefinition } from "./grep.js";
export { createLsTool, createLsToolDefinition } from "./ls.js";
export { createLocalPowerShellOperations, createPowerShellTool, createPowerShellToolDefinition } from "./powershell.js";
export { createReadTool, createReadToolDefinition } from "./read.js";
export { createWriteTool, createWriteToolDefinition } from "./write.js";

/** read, bash, edit, write. */
export function createCodingTools(cwd, options) {
  return [createReadTool(cwd, options?.read), createBashTool(cwd, options?.bash), createEditTool(cwd, options?.edit), createWriteTool(cwd, options?.write)];
}

/** read, grep, find, ls. */
export function createReadOnlyTools(cwd, options) {
  return [createReadTool(cwd, options?.read), createGrepTool(cwd, options?.grep), createFindTool(cwd, options?.find), createLsTool(cwd, options?.ls)];
}
