// Written against an older pi: pi-tui's getEditorKeybindings and pi-ai's
// loginOpenAICodex are gone from pi 1.6.0 (L9). Under jiti the extension
// loads, those names are undefined, and only calling one fails. The same
// holds for both package scopes and for Node's built-ins; a default import of
// a virtual module, which has no default, is the module itself.
import { Text, getEditorKeybindings, visibleWidth } from "@earendil-works/pi-tui";
import { getEditorKeybindings as oldScope } from "@mariozechner/pi-tui";
import { loginOpenAICodex } from "@earendil-works/pi-ai/oauth";
import { Type, loginAnthropic } from "@mariozechner/pi-ai";
import { isToolCallEventType, removedHelper } from "@earendil-works/pi-coding-agent";
import tui from "@earendil-works/pi-tui";
import { join, notInNode } from "node:path";
import { readFileSync, notInFs } from "fs";

export default function (pi: any) {
  pi.registerCommand("keys", {
    description: "uses a removed pi-tui function",
    handler: async () => getEditorKeybindings(),
  });
  (globalThis as any).l9VirtualModules = () => {
    let calling: string;
    try {
      (getEditorKeybindings as any)();
      calling = "no error";
    } catch (error) {
      calling = error instanceof TypeError ? "TypeError at the call" : "other error";
    }
    return {
      Text: typeof Text,
      width: visibleWidth("abc"),
      getEditorKeybindings: typeof getEditorKeybindings,
      oldScope: typeof oldScope,
      loginOpenAICodex: typeof loginOpenAICodex,
      Type: typeof Type,
      loginAnthropic: typeof loginAnthropic,
      isToolCallEventType: typeof isToolCallEventType,
      removedHelper: typeof removedHelper,
      tuiDefault: typeof tui,
      tuiDefaultText: typeof (tui as any).Text,
      tuiDefaultIsTheModule: (tui as any).Text === Text,
      join: join("a", "b"),
      notInNode: typeof notInNode,
      readFileSync: typeof readFileSync,
      notInFs: typeof notInFs,
      calling,
    };
  };
}
