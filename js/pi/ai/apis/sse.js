// Server-sent events from a response body: lines split on CR, LF or CRLF,
// `event:` and `data:` fields gathered until a blank line, comments
// skipped. Each event keeps its raw lines for error reports.

function takeLine(buffer) {
  const cr = buffer.indexOf("\r");
  const lf = buffer.indexOf("\n");
  const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
  if (end === -1) return undefined;
  const next = buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1;
  return { line: buffer.slice(0, end), rest: buffer.slice(next) };
}

class SseAssembler {
  event = null;
  data = [];
  raw = [];

  flush() {
    if (!this.event && this.data.length === 0) return undefined;
    const message = { event: this.event, data: this.data.join("\n"), raw: this.raw };
    this.event = null;
    this.data = [];
    this.raw = [];
    return message;
  }

  line(line) {
    if (line === "") return this.flush();
    this.raw.push(line);
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    return undefined;
  }
}

/** The events of `body`; fails with "Request was aborted" once `signal` aborts. */
export async function* readSseEvents(body, signal) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const assembler = new SseAssembler();
  let buffer = "";
  function* drain() {
    for (let taken = takeLine(buffer); taken; taken = takeLine(buffer)) {
      buffer = taken.rest;
      const event = assembler.line(taken.line);
      if (event) yield event;
    }
  }
  try {
    for (;;) {
      if (signal?.aborted) throw new Error("Request was aborted");
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      yield* drain();
    }
    buffer += decoder.decode();
    yield* drain();
    if (buffer.length > 0) {
      const event = assembler.line(buffer);
      if (event) yield event;
    }
    const last = assembler.flush();
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}
