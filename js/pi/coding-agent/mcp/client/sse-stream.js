// Server-sent events as the Streamable HTTP transport reads them: fields
// `data`, `event`, `id` and `retry`, events ended by a blank line, lines
// ended by CRLF, LF or a lone CR (also when a CRLF is split between
// chunks). An event may not grow past a size limit, whether it comes as one
// long line or as many `data:` lines never ended.
import { Buffer } from "node:buffer";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./transport-events.js";

/**
 * Reads `stream` to its end, calling `onEvent({ event?, data, id? })` for
 * each event, `onId` for each id and `onRetry` for each reconnection delay.
 */
export async function consumeSseStream(stream, { onEvent, onId, onRetry, maxEventBytes = DEFAULT_MAX_MESSAGE_BYTES }) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const tooLarge = () => new Error(`MCP SSE event exceeds ${maxEventBytes} bytes`);
  let event = { name: undefined, id: undefined, data: [], bytes: 0 };
  const dispatch = () => {
    if (event.data.length > 0) {
      onEvent({ ...(event.name ? { event: event.name } : {}), data: event.data.join("\n"), ...(event.id ? { id: event.id } : {}) });
    }
    event = { name: undefined, id: undefined, data: [], bytes: 0 };
  };
  const field = (line) => {
    if (line === "") return dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") {
      event.bytes += Buffer.byteLength(value) + (event.data.length > 0 ? 1 : 0);
      if (event.bytes > maxEventBytes) throw tooLarge();
      event.data.push(value);
    } else if (name === "event") event.name = value;
    else if (name === "id" && !value.includes("\0")) {
      event.id = value;
      onId?.(value);
    } else if (name === "retry" && /^\d+$/.test(value)) onRetry?.(Number(value));
    return undefined;
  };
  let buffered = "";
  // A CR ended the last chunk: an LF starting the next belongs to it.
  let pendingCr = false;
  const takeLines = () => {
    let start = 0;
    for (let index = 0; index < buffered.length; index++) {
      const char = buffered[index];
      if (char !== "\r" && char !== "\n") continue;
      field(buffered.slice(start, index));
      if (char === "\r") {
        if (index + 1 === buffered.length) pendingCr = true;
        else if (buffered[index + 1] === "\n") index++;
      }
      start = index + 1;
    }
    buffered = buffered.slice(start);
  };
  const append = (text) => {
    if (pendingCr && text.length > 0) {
      if (text.startsWith("\n")) text = text.slice(1);
      pendingCr = false;
    }
    buffered += text;
    takeLines();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      append(decoder.decode(value, { stream: true }));
      if (Buffer.byteLength(buffered) > maxEventBytes) throw tooLarge();
    }
    append(decoder.decode());
    if (buffered) field(buffered);
    dispatch();
  } catch (error) {
    // Releasing the reader alone would leave the response open.
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
}
