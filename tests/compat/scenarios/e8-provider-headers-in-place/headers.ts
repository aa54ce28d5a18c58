// Header edits: in place counts, returned objects and reassigned event.headers do not.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("before_provider_headers", (event: any) => {
    event.headers["x-scenario"] = "on";
    delete event.headers["x-remove-me"];
    return { "x-returned": "ignored" };
  });
  pi.on("before_provider_headers", (event: any) => {
    seen.push({ ...event.headers });
    event.headers = { "x-reassigned": "ignored" };
  });
  pi.on("before_provider_headers", () => {
    throw new Error("header signer failed");
  });
  pi.on("before_provider_headers", (event: any) => {
    seen.push({ ...event.headers });
    event.headers.authorization = "Bearer rotated";
  });
  g.headersSeen = () => seen.splice(0);
}
