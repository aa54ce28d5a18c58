// File locks with proper-lockfile (pi's own dependency, on graceful-fs and
// signal-exit): the tool locks a file, checks it, fails to lock it a second
// time with ELOCKED, unlocks it, then does the same with the sync calls,
// and reports each step.
import lockfile from "proper-lockfile";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.registerTool({
    name: "lockfile_cycle",
    label: "Lock file cycle",
    description: "Lock, check, re-lock and unlock a file with proper-lockfile",
    parameters: { type: "object", properties: { file: { type: "string" } }, required: ["file"] },
    async execute(_id, params: { file: string }) {
      const steps: string[] = [];
      const release = await lockfile.lock(params.file);
      steps.push(`locked ${await lockfile.check(params.file)}`);
      try {
        await lockfile.lock(params.file);
        steps.push("locked twice");
      } catch (error) {
        steps.push(`second lock ${(error as NodeJS.ErrnoException).code}`);
      }
      await release();
      steps.push(`unlocked ${!(await lockfile.check(params.file))}`);

      const releaseSync = lockfile.lockSync(params.file);
      steps.push(`lockSync ${lockfile.checkSync(params.file)}`);
      try {
        lockfile.lockSync(params.file);
        steps.push("lockSync twice");
      } catch (error) {
        steps.push(`second lockSync ${(error as NodeJS.ErrnoException).code}`);
      }
      releaseSync();
      steps.push(`unlockSync ${!lockfile.checkSync(params.file)}`);
      try {
        await lockfile.unlock(params.file);
      } catch (error) {
        steps.push(`unlock again ${(error as NodeJS.ErrnoException).code}`);
      }
      return { content: [{ type: "text", text: steps.join("\n") }], details: { steps } };
    },
  });
}
