// How a read's line range is shown (":10-19"), in tool rows and the session tree.

function lineNumber(value) {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

/** `:start-end` for a read's offset/limit (numbers or numeric strings); "" when malformed. */
export function formatReadLineRange(offset, limit) {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : lineNumber(offset);
  if (start === undefined) return "";
  if (limit == null) return `:${start}`;
  const count = lineNumber(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return `:${start}${end ? `-${end}` : ""}`;
}
