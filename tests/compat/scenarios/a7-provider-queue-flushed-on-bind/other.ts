// A second extension whose queued provider the host refuses.
export default function (pi: any) {
  pi.registerProvider("refused", { baseUrl: "https://refused.example.test", api: "openai-completions", models: [] });
  pi.registerProvider("omega", { baseUrl: "https://omega.example.test", api: "openai-completions", models: [] });
}
