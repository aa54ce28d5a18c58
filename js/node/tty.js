// node:tty: extensions run without a terminal of their own (the host draws
// the UI), so nothing is a TTY; libraries that ask (supports-color, chalk)
// get Node's answers for piped output.
import { Readable, Writable } from "pihost:node/stream.js";

export function isatty() {
  return false;
}

export class ReadStream extends Readable {
  isRaw = false;
  isTTY = true;
  setRawMode() {
    return this;
  }
}

export class WriteStream extends Writable {
  isTTY = true;
  columns = 80;
  rows = 24;
  getColorDepth() {
    return 1;
  }
  hasColors() {
    return false;
  }
  getWindowSize() {
    return [this.columns, this.rows];
  }
}

export default { isatty, ReadStream, WriteStream };
