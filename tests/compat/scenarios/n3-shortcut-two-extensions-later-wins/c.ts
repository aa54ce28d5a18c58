// Claims ctrl+j a third time and a key bound to a non-reserved action given as a list.
export default function (pi: any) {
  pi.registerShortcut("ctrl+j", { description: "c's jump", handler: async () => {} });
  pi.registerShortcut("f4", { description: "c's f4", handler: async () => {} });
}
