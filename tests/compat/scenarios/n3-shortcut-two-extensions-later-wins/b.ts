// Claims ctrl+j again, spelled differently.
export default function (pi: any) {
  pi.registerShortcut("Ctrl+J", { description: "b's jump", handler: async () => {} });
}
