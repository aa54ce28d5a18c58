// A resource loader of an extension's own, given theme paths the way pi's
// CLI and packages give them: a folder of theme files, a single file, a
// folder whose theme repeats a name, and paths that are missing or are not
// theme files. Compared: which themes load (names, source paths and
// sources), the diagnostics pi reports, and that each theme colours text.
import * as piCodingAgent from "@earendil-works/pi-coding-agent";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shown = (path: string | undefined) => (path === undefined ? path : relative(here, path));

export default function (pi: any) {
  pi.registerTool({
    name: "themes",
    label: "Themes",
    description: "Loads themes from paths",
    parameters: { type: "object", properties: {} },
    async execute() {
      const settingsManager = piCodingAgent.SettingsManager.inMemory();
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd: here,
        agentDir: join(here, "no-agent-dir"),
        settingsManager,
        noExtensions: true,
        noSkills: true,
        noPromptTemplates: true,
        noContextFiles: true,
        additionalThemePaths: [join(here, "themes"), join(here, "themes", "more"), join(here, "themes", "dune.json"), join(here, "themes", "readme.txt"), join(here, "missing")],
      });
      await loader.reload();
      const { themes, diagnostics } = loader.getThemes();
      const report = {
        themes: themes
          .map((theme: any) => ({
            name: theme.name ?? null,
            sourcePath: shown(theme.sourcePath),
            source: theme.sourceInfo && { source: theme.sourceInfo.source, scope: theme.sourceInfo.scope, path: shown(theme.sourceInfo.path) },
            colours: typeof theme.fg("accent", "x") === "string" && theme.fg("accent", "x").includes("x"),
          }))
          .sort((a: any, b: any) => `${a.sourcePath}`.localeCompare(`${b.sourcePath}`)),
        diagnostics: diagnostics
          .map((diagnostic: any) => ({
            type: diagnostic.type,
            message: diagnostic.message.split(here).join("<here>"),
            path: shown(diagnostic.path),
            collision: diagnostic.collision && { ...diagnostic.collision, winnerPath: shown(diagnostic.collision.winnerPath), loserPath: shown(diagnostic.collision.loserPath) },
          }))
          .sort((a: any, b: any) => `${a.path}${a.message}`.localeCompare(`${b.path}${b.message}`)),
      };
      return { content: [{ type: "text", text: `${report.themes.length} themes` }], details: report };
    },
  });
}
