// Looks at the conversation, edits one message object in place, and peeks at the full transcript.
export default function (pi: any) {
  const g = globalThis as any;
  const seen: unknown[] = [];
  pi.on("context", (event: any) => {
    seen.push({ phase: "context", roles: event.messages.map((message: any) => message.role) });
    const firstUser = event.messages.find((message: any) => message.role === "user");
    firstUser.content = "first question (edited in place)";
  });
  pi.on("context_with_system", (event: any) => {
    seen.push({
      phase: "context_with_system",
      roles: event.messages.map((message: any) => message.role),
      firstUser: event.messages.find((message: any) => message.role === "user").content,
    });
  });
  g.viewerSeen = () => seen.splice(0);
}
