// The last word for idle sessions.
export default function (pi: any) {
  pi.on("cache_warming_decision", (event: any) => (event.reason === "idle" ? { action: "warm" } : {}));
}
