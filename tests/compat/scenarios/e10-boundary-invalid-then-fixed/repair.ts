// Repairs the draft by giving every entry a string type.
export default function (pi: any) {
  pi.on("turn_end", (event: any) => ({
    entries: event.entries.map((entry: any) => ({ ...entry, type: String(entry.type) })),
  }));
}
