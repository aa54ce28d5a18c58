// Replaces, mutates and finally nulls the provider payload depending on the model.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("before_provider_request", (event: any) => ({ ...event.payload, max_tokens: 50 }));
  pi.on("before_provider_request", (event: any) => {
    event.payload.temperature = 0;
  });
  pi.on("before_provider_request", (event: any) => {
    seen.push(event.payload === null ? null : { ...event.payload });
    if (event.payload.model === "nullify") return null;
    return undefined;
  });
  pi.on("before_provider_request", (event: any) => {
    seen.push(event.payload);
    if (event.payload === null) return undefined;
    throw new Error("payload auditor failed");
  });
  g.payloadSeen = () => seen.splice(0);
}
