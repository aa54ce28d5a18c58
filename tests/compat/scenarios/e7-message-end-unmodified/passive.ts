// Handlers that do not replace the message, plus one that returns the very same message object.
export default function (pi: any) {
  pi.on("message_end", () => undefined);
  pi.on("message_end", () => ({}));
  pi.on("message_end", () => ({ message: undefined }));
  pi.on("message_end", () => {
    throw new Error("message logger failed");
  });
  pi.on("message_end", (event: any) => {
    if (event.message.content === "echo") return { message: event.message };
    return null;
  });
}
