// Handlers of ordinary events that return things, including cancel: true.
export default function (pi: any) {
  const g = globalThis as any;
  const ran: string[] = [];
  for (const type of ["agent_end", "session_shutdown", "turn_start", "model_select"]) {
    pi.on(type, () => {
      ran.push(`${type} 1`);
      return { cancel: true };
    });
    pi.on(type, () => {
      ran.push(`${type} 2`);
      return "a string result";
    });
  }
  g.returnsRan = () => ran.splice(0);
}
