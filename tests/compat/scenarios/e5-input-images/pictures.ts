// Transforms with and without images.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("input", (event: any) => {
    seen.push({ handler: "text only", images: event.images });
    return { action: "transform", text: `${event.text} [described]` };
  });
  pi.on("input", (event: any) => {
    seen.push({ handler: "images", images: event.images });
    if (event.text.startsWith("drop")) return { action: "transform", text: event.text, images: [] };
    if (event.text.startsWith("add"))
      return {
        action: "transform",
        text: event.text,
        images: [...(event.images ?? []), { type: "image", data: "QUJD", mimeType: "image/png" }],
      };
    return undefined;
  });
  pi.on("input", (event: any) => {
    seen.push({ handler: "last", images: event.images });
  });
  g.picturesSeen = () => seen.splice(0);
}
