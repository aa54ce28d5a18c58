// An extension whose factory throws.
export default function () {
  throw new Error("broken on purpose");
}
