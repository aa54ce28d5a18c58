// Shortcuts that collide with reserved and non-reserved built-in keys, and one free key.
export default function (pi: any) {
  const handler = async () => {};
  pi.registerShortcut("escape", { description: "wants escape", handler });
  pi.registerShortcut("Ctrl+G", { description: "wants the external editor key", handler });
  pi.registerShortcut("ctrl+n", { description: "replaces new session", handler });
  pi.registerShortcut("ctrl+o", { description: "key shared by a reserved and a free action", handler });
  pi.registerShortcut("ctrl+k", { description: "free key", handler });
}
