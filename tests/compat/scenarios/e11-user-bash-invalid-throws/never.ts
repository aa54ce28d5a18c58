// Would give a valid answer, but an invalid earlier result throws first.
export default function (pi: any) {
  pi.on("user_bash", () => ({ result: { output: "never", exitCode: 0, cancelled: false, truncated: false } }));
}
