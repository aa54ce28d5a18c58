// Breaks the draft, then fails outright.
export default function (pi: any) {
  pi.on("turn_end", () => ({ entries: [{ type: 7 }], continue: true }));
  pi.on("turn_end", () => {
    throw new Error("boundary handler crashed");
  });
}
