// Bus listeners that fail in every way a listener can.
export default function (pi: any) {
  pi.events.on("boom", () => {
    throw new Error("sync listener failed");
  });
  pi.events.on("boom", async () => {
    await Promise.resolve();
    throw new Error("async listener failed");
  });
  pi.events.on("boom", () => {
    throw "a plain string was thrown";
  });
}
