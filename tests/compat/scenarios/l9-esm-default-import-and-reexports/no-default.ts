// An ES module without a default export.
export const a = "a";
export function f() {
  return "f";
}
