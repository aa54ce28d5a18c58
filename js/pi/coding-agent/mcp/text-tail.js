// The end of a text by UTF-16 units, never starting with half a surrogate
// pair: what is kept of a server's stderr to explain a failure.

const isHighSurrogate = (code) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code) => code >= 0xdc00 && code <= 0xdfff;

export function sliceTail(text, maxUnits) {
  if (maxUnits <= 0) return "";
  const start = Math.max(0, text.length - maxUnits);
  const splitsPair = isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1));
  return text.slice(splitsPair ? start + 1 : start);
}
