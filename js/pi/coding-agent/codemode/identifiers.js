// The name a script uses for a tool. Tool names come from extensions and MCP
// servers (`mcp__dev-radius__search`), so they may hold characters a
// JavaScript identifier cannot; scripts would then need `tools["..."]`.
// Each such character becomes `_`, one per code point.

const STARTS_IDENTIFIER = /^[A-Za-z_$]$/;
const CONTINUES_IDENTIFIER = /^[A-Za-z0-9_$]$/;

/** `my-tool` → `my_tool`, `1st` → `_st`; an empty name → `_`. */
export function toCodemodeIdentifier(name) {
  const chars = Array.from(name, (char, index) =>
    (index === 0 ? STARTS_IDENTIFIER : CONTINUES_IDENTIFIER).test(char) ? char : "_",
  );
  return chars.length === 0 ? "_" : chars.join("");
}
