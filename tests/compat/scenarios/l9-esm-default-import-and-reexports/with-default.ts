export default function named() {
  return "named";
}
export const b = "b";
