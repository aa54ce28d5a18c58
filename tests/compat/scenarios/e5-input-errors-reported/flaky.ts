// A failing input handler between two transforms.
export default function (pi: any) {
  pi.on("input", (event: any) => ({ action: "transform", text: `[${event.text}]` }));
  pi.on("input", async () => {
    await Promise.resolve();
    throw new Error("spell checker crashed");
  });
  pi.on("input", (event: any) => ({ action: "transform", text: `${event.text}.` }));
  pi.on("input", () => ({ action: "something-else", text: "ignored" }));
}
