// Contributes results to session_before_switch; the later ones should win.
export default function (pi: any) {
  pi.on("session_before_switch", () => ({ note: "first opinion" }));
  pi.on("session_before_switch", () => undefined);
}
