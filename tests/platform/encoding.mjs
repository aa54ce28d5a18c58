// TextEncoder and TextDecoder beyond the basics: streaming decodes split
// inside a character, fatal mode, byte order marks, UTF-16LE and latin1.
export async function run() {
  const euro = new TextEncoder().encode("a€b");
  const streaming = new TextDecoder();
  const pieces = [streaming.decode(euro.subarray(0, 2), { stream: true }), streaming.decode(euro.subarray(2), { stream: true }), streaming.decode()];
  let fatal;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xff, 0x41]));
  } catch (error) {
    fatal = [error.name, error.code];
  }
  const target = new Uint8Array(4);
  let unsupported;
  try {
    new TextDecoder("klingon");
  } catch (error) {
    unsupported = [error.name, error.code];
  }
  return {
    pieces,
    lossy: new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62])),
    fatal,
    bom: new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])),
    keptBom: new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68])).length,
    utf16: new TextDecoder("utf-16le").decode(new Uint8Array([0x68, 0x00, 0x69, 0x00])),
    latin1: new TextDecoder("latin1").decode(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x80])),
    encoding: [new TextDecoder("UTF8").encoding, new TextDecoder("ascii").encoding],
    encodeInto: [new TextEncoder().encodeInto("a€€", target), Array.from(target)],
    unsupported,
  };
}
