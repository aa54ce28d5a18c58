// node:fs/promises: the promise forms of pihost's node:fs.
import { promises } from "pihost:node/fs.js";

export const {
  readFile,
  writeFile,
  appendFile,
  stat,
  lstat,
  readdir,
  mkdir,
  realpath,
  rm,
  unlink,
  rmdir,
  rename,
  copyFile,
  access,
  constants,
} = promises;
export default promises;
