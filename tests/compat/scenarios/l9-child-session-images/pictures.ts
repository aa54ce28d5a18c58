// Images in a child session, as sub-agent extensions hand them to theirs: a
// prompt with a small and an oversized picture, a steer with one while a
// tool runs, an input hook that adds one, a tool that returns an oversized
// one, and data that is no image. What the model would get is compared:
// the user and tool result messages' text (with pi's notes on resizing and
// omitted images) and their images' types and sizes (the encoders' bytes
// are the image library's own, so the pixels are not compared).
import { deflateSync } from "node:zlib";
import { createProvider, fauxAssistantMessage, fauxToolCall, registerFauxProvider, stream, streamSimple } from "@earendil-works/pi-ai";
import * as piCodingAgent from "@earendil-works/pi-coding-agent";

const PROVIDER = "pictures-faux";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const u32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
const chunk = (type: string, data: Uint8Array) => {
  const typed = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  return [...u32(data.length), ...typed, ...u32(crc32(typed))];
};
/** A PNG of flat grey, `width`×`height`, base64. */
const png = (width: number, height: number) => {
  const rows = new Uint8Array((width * 3 + 1) * height).fill(0x80);
  for (let y = 0; y < height; y++) rows[y * (width * 3 + 1)] = 0;
  const header = new Uint8Array([...u32(width), ...u32(height), 8, 2, 0, 0, 0]);
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk("IHDR", header), ...chunk("IDAT", deflateSync(rows)), ...chunk("IEND", new Uint8Array())]);
  return Buffer.from(bytes).toString("base64");
};
const picture = (width: number, height: number) => ({ type: "image", data: png(width, height), mimeType: "image/png" });

/** Type and size of an image block: PNG's header holds the size; other types give their length. */
const describe = (block: any) => {
  if (block.type !== "image") return `${block.type}: ${block.text}`;
  const bytes = Buffer.from(block.data, "base64");
  if (block.mimeType === "image/png" && bytes.length > 24) return `image ${block.mimeType} ${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
  return `image ${block.mimeType}`;
};

export default function (pi: any) {
  const faux = registerFauxProvider({
    api: "pictures-faux-api",
    provider: PROVIDER,
    models: [{ id: "child-1", reasoning: false, input: ["text", "image"] }],
  });
  let runtime: Promise<any> | undefined;
  const sharedRuntime = () => {
    runtime ??= piCodingAgent.ModelRuntime.create().then((created: any) => {
      created.registerNativeProvider(
        createProvider({
          id: PROVIDER,
          name: "Pictures Faux",
          auth: { apiKey: { name: "Child key", resolve: async () => ({ auth: { apiKey: "child-key" }, source: "extension" }) } },
          models: faux.models,
          api: { stream, streamSimple },
        }),
      );
      return created.refresh({ allowNetwork: false }).then(() => created);
    });
    return runtime;
  };

  pi.registerTool({
    name: "picture_child",
    label: "Picture child",
    description: "Runs a child session with images",
    parameters: { type: "object", properties: { variant: { type: "string" } }, required: ["variant"] },
    async execute(_id: string, params: { variant: string }) {
      const { variant } = params;
      const log: string[] = [];
      let session: any;
      const hooks = (child: any) => {
        child.registerTool({
          name: "snapshot",
          label: "Snapshot",
          description: "Returns a picture",
          parameters: { type: "object", properties: {} },
          async execute() {
            if (variant === "steer") log.push(`steer ${await session.steer("and this one", [picture(2600, 1200)])}`);
            const image = variant === "broken-tool" ? { type: "image", data: "bm90IGFuIGltYWdl", mimeType: "image/png" } : picture(4000, 500);
            return { content: [{ type: "text", text: "snapshot taken" }, image], details: {} };
          },
        });
        child.on("input", (event: any) => {
          log.push(`input ${event.text} images=${(event.images ?? []).map(describe).join(",")} source=${event.source}`);
          if (variant === "input") return { action: "transform", text: `${event.text} (with the hook's picture)`, images: [...(event.images ?? []), picture(3000, 3000)] };
          return undefined;
        });
        child.on("before_agent_start", (event: any) => {
          log.push(`before_agent_start ${event.prompt} images=${(event.images ?? []).map(describe).join(",")}`);
        });
        child.on("tool_result", (event: any) => {
          log.push(`tool_result ${event.content.map(describe).join(" | ")}`);
        });
      };
      const modelRuntime = await sharedRuntime();
      const cwd = "/";
      const usesTool = variant === "tool" || variant === "steer" || variant === "broken-tool";
      faux.setResponses(
        usesTool
          ? [fauxAssistantMessage([fauxToolCall("snapshot", {}, { id: "call-1" })], { stopReason: "toolUse" }), fauxAssistantMessage("seen")]
          : [fauxAssistantMessage("seen")],
      );
      const settingsManager = piCodingAgent.SettingsManager.inMemory();
      const loader = new piCodingAgent.DefaultResourceLoader({
        cwd,
        agentDir: piCodingAgent.getAgentDir(),
        settingsManager,
        noExtensions: true,
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
        systemPrompt: "You are a child agent.",
        extensionFactories: [{ name: "picture-hooks", factory: hooks }],
      });
      await loader.reload();
      const resolved = piCodingAgent.resolveCliModel({ cliModel: `${PROVIDER}/child-1`, modelRuntime });
      if (resolved.error) throw new Error(resolved.error);
      ({ session } = await piCodingAgent.createAgentSession({
        cwd,
        modelRuntime,
        model: resolved.model,
        tools: ["snapshot"],
        resourceLoader: loader,
        sessionManager: piCodingAgent.SessionManager.inMemory(cwd),
        settingsManager,
      }));
      await session.bindExtensions({ mode: "print", onError: (error: any) => log.push(`onError ${error.event} ${error.error}`) });
      try {
        const images =
          variant === "prompt" ? [picture(4, 4), picture(3000, 2000)] : variant === "broken" ? [{ type: "image", data: "bm90IGFuIGltYWdl", mimeType: "image/png" }, picture(8, 8)] : undefined;
        let error: string | undefined;
        try {
          await session.prompt(usesTool ? "take a snapshot" : "look at these", images ? { images } : undefined);
        } catch (failure: any) {
          error = failure.message;
        }
        const conversation = session.messages
          .filter((message: any) => message.role === "user" || message.role === "toolResult")
          .map((message: any) => `${message.role}: ${(typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content).map(describe).join(" | ")}`);
        return { content: [{ type: "text", text: variant }], details: { error, log, conversation } };
      } finally {
        session.dispose();
      }
    },
  });
}
