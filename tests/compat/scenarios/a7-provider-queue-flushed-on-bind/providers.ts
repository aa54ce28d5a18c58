// Registers providers while loading (queued), including one withdrawn again and one the host refuses.
export default function (pi: any) {
  const g = globalThis as any;
  const config = (name: string) => ({ baseUrl: `https://${name}.example.test/v1`, api: "openai-completions", models: [] });
  pi.registerProvider("alpha", config("alpha"));
  pi.registerProvider("beta", config("beta"));
  pi.registerProvider("delta", config("delta"));
  pi.unregisterProvider("delta");
  pi.registerProvider({ id: "gamma", name: "Gamma native" });
  g.registerProviderNow = (name: string) => {
    pi.registerProvider(name, config(name));
    return `registered ${name}`;
  };
  g.unregisterProviderNow = (name: string) => pi.unregisterProvider(name);
  g.registerWithoutConfig = () => pi.registerProvider("no-config");
}
