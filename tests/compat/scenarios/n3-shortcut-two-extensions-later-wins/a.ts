// Claims two keys.
export default function (pi: any) {
  pi.registerShortcut("ctrl+j", { description: "a's jump", handler: async () => {} });
  pi.registerShortcut("alt+x", { description: "a's x", handler: async () => {} });
}
