// Registers MCP servers as an MCP-providing extension does: valid stdio and
// HTTP entries (one with an older exposure name), and entries pi refuses,
// each error kept. After binding, a hook registers and removes more.
export default function (pi: any) {
  const outcomes: Record<string, unknown> = {};
  const attempt = (label: string, name: string, config: unknown) => {
    try {
      pi.registerMcpServer(name, config);
      outcomes[label] = "registered";
    } catch (error) {
      outcomes[label] = (error as Error).message.replace(/".*registers\.ts"/, '"<registers.ts>"');
    }
  };
  attempt("stdio", "files", { command: "files-server", args: ["--root", "."], env: { TOKEN: "x" }, cwd: "/tmp", description: "Files", timeout: 30 });
  attempt("http with alias", "docs", { url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer t" }, exposure: "codemode-deferred", toolExposure: { "search*": "direct", fetch: "codemode-deferred" } });
  attempt("http with oauth", "wiki", { type: "streamable-http", url: "http://localhost:8080/mcp", oauth: { clientId: "id", callbackPort: 8123, callbackUrl: "http://127.0.0.1:8123/callback", scope: "read" }, auth: { provider: "anthropic" } });
  attempt("bad name", "has space", { command: "x" });
  attempt("not an object", "list", ["x"]);
  attempt("sse", "old", { type: "sse", url: "https://old.example.com/sse" });
  attempt("neither", "empty", { description: "nothing" });
  attempt("bad url", "ftp", { url: "ftp://example.com/mcp" });
  attempt("bad args", "args", { command: "x", args: [1] });
  attempt("bad env", "env", { command: "x", env: { A: 1 } });
  attempt("bad enabled", "enabled", { command: "x", enabled: "yes" });
  attempt("bad timeout", "timeout", { command: "x", timeout: 0 });
  attempt("bad headers", "headers", { url: "https://example.com/mcp", headers: { A: 2 } });
  attempt("bad exposure", "exposure", { command: "x", exposure: "everywhere" });
  attempt("bad tool exposure", "toolexp", { command: "x", toolExposure: { a: "nowhere" } });
  attempt("auth over http", "plain", { url: "http://example.com/mcp", auth: { provider: "anthropic" } });
  attempt("auth without provider", "noprov", { url: "https://example.com/mcp", auth: {} });
  attempt("bad callback url", "cb", { url: "https://example.com/mcp", oauth: { callbackUrl: "https://example.com/cb" } });
  attempt("ports differ", "ports", { url: "https://example.com/mcp", oauth: { callbackUrl: "http://localhost:9000/callback", callbackPort: 9001 } });
  attempt("bad registration", "reg", { url: "https://example.com/mcp", oauth: { clientRegistration: "manual" } });
  attempt("cimd with client id", "cimd1", { url: "https://example.com/mcp", oauth: { clientRegistration: "cimd", clientId: "x" } });
  attempt("cimd bad callback", "cimd2", { url: "https://example.com/mcp", oauth: { clientRegistration: "cimd", callbackUrl: "http://localhost:9000/other" } });
  attempt("cimd", "cimd3", { url: "https://example.com/mcp", oauth: { clientRegistration: "cimd", callbackUrl: "http://localhost:9000/callback" } });
  attempt("bad metadata url", "meta", { url: "https://example.com/mcp", oauth: { authServerMetadataUrl: "http://example.com/.well-known" } });
  attempt("namespace clash", "fi_les", { command: "x" });
  (globalThis as any).mcpOutcomes = () => ({ outcomes, servers: pi.getMcpServers().map((server: any) => ({ name: server.name, config: server.config })) });
  (globalThis as any).mcpRegisterLater = () => {
    pi.registerMcpServer("later", { command: "later-server" });
    pi.unregisterMcpServer("files");
    return pi.getMcpServers().map((server: any) => server.name);
  };
}
