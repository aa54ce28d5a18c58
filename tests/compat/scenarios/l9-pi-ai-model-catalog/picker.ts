// A model picker as published extensions write one: the catalog is read in
// the factory (getProviders/getModels), a command lists a provider's models,
// a tool describes one model and clamps a thinking level for it.
import {
  clampThinkingLevel,
  getModel,
  getModels,
  getProviders,
  getSupportedThinkingLevels,
  modelsAreEqual,
  StringEnum,
  Type,
} from "@mariozechner/pi-ai";
import { getBuiltinModelDataGeneratedAt, getAllBuiltinModels } from "@earendil-works/pi-ai/providers/all";
import { getModelType, hasApi } from "@earendil-works/pi-ai/models";

export default function (pi: any) {
  const providers = getProviders();
  const counts = Object.fromEntries(providers.map((provider: string) => [provider, getModels(provider).length]));
  const g = globalThis as any;
  g.pickerLoaded = () => ({
    providers: providers.length,
    anthropic: counts.anthropic,
    withModels: providers.filter((provider: string) => counts[provider] > 0).length,
    generatedAt: getBuiltinModelDataGeneratedAt(),
    openaiAll: getAllBuiltinModels("openai").length,
  });

  pi.registerCommand("models", {
    description: "List a provider's models",
    handler: async (args: string, ctx: any) => {
      const provider = args.trim() || "anthropic";
      const lines = getModels(provider)
        .slice(0, 5)
        .map((model: any) => `${model.id} ${model.contextWindow} ${model.reasoning ? "reasoning" : "plain"} ${getModelType(model)}`);
      ctx.ui.notify(lines.length ? lines.join("\n") : `no models for ${provider}`, "info");
      return lines.length;
    },
  });

  pi.registerTool({
    name: "model_info",
    label: "Model info",
    description: "Describe one built-in model",
    parameters: Type.Object({
      provider: StringEnum(providers),
      id: Type.String(),
      thinking: Type.Optional(Type.String()),
    }),
    async execute(_id: string, params: any) {
      const model = getModel(params.provider, params.id);
      if (!model) {
        return { content: [{ type: "text", text: `unknown model ${params.provider}/${params.id}` }], details: { found: false } };
      }
      const details = {
        found: true,
        name: model.name,
        api: model.api,
        hasOwnApi: hasApi(model, model.api),
        input: model.input,
        cost: model.cost,
        contextWindow: model.contextWindow,
        maxTokens: model.maxTokens,
        levels: getSupportedThinkingLevels(model),
        clamped: clampThinkingLevel(model, params.thinking ?? "max"),
        sameAsFirst: modelsAreEqual(model, getModels(params.provider)[0]),
      };
      return { content: [{ type: "text", text: `${model.provider}/${model.id}` }], details };
    },
  });
}
