// Returns lists with the very same messages: a copy, the same array, and no messages at all.
export default function (pi: any) {
  pi.on("context", (event: any) => ({ messages: [...event.messages] }));
  pi.on("context", (event: any) => ({ messages: event.messages }));
  pi.on("context", () => ({ messages: undefined }));
  pi.on("context", () => ({}));
}
