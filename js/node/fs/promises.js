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
  cp,
  access,
  symlink,
  readlink,
  chmod,
  truncate,
  mkdtemp,
  open,
  watch,
  constants,
} = promises;
export default promises;
