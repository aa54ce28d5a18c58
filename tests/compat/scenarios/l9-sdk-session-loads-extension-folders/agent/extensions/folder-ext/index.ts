// An extension that is a folder with an index file.
export default function (pi: any) {
  pi.on("session_start", () => {
    (globalThis as any).__folderExtensionStarted = ((globalThis as any).__folderExtensionStarted ?? 0) + 1;
  });
}
