// The loopback HTTP server the browser is redirected to after the user
// approved (or refused) access: it hands the authorization response of a
// pending sign-in (by its `state`) to whoever waits for it, and shows the
// browser a page saying what happened.
import { createServer } from "node:http";

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

function plainText(page) {
  if (page.ok) return "Authorization complete. You may close this window.";
  return page.details ? `${page.message}\n\n${page.details}` : page.message;
}

export class OAuthCallbackServer {
  /** The redirect URI it serves. */
  redirectUrl;
  #server;
  #paths;
  #timeoutMs;
  #renderPage;
  #waiting = new Map();

  constructor(server, redirectUrl, paths, timeoutMs, renderPage) {
    this.#server = server;
    this.redirectUrl = redirectUrl;
    this.#paths = paths;
    this.#timeoutMs = timeoutMs;
    this.#renderPage = renderPage;
  }

  /** Listens on `host`:`port` (0: any free port) for `path` and `extraPaths`. */
  static async listen(options = {}) {
    const host = options.host ?? "127.0.0.1";
    const redirectHost = options.redirectHost ?? host;
    const path = options.path ?? "/callback";
    let instance;
    const server = createServer((request, response) => instance?.handle(request.url ?? "/", response));
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("OAuth callback server did not bind to TCP");
    const shownHost = redirectHost.includes(":") ? `[${redirectHost}]` : redirectHost;
    instance = new OAuthCallbackServer(
      server,
      `http://${shownHost}:${address.port}${path}`,
      [path, ...(options.extraPaths ?? [])],
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      options.renderPage,
    );
    return instance;
  }

  /**
   * The authorization response with `state`. With `path`, one arriving on
   * another path fails: a server-specific redirect URI tells authorization
   * servers apart (RFC 9700 4.4.2.2).
   */
  waitForCallback(state, path) {
    if (this.#waiting.has(state)) throw new Error("OAuth state is already pending");
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(state);
        reject(new Error("OAuth callback timed out"));
      }, this.#timeoutMs);
      this.#waiting.set(state, { resolve, reject, timer, path });
    });
  }

  async close() {
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error("OAuth callback server closed"));
    }
    this.#waiting.clear();
    const closed = new Promise((resolve, reject) => {
      this.#server.close((error) => (error ? reject(error) : resolve()));
    });
    // close() waits for every connection, and browsers keep spare ones open for minutes.
    this.#server.closeAllConnections?.();
    await closed;
  }

  #reply(response, status, page) {
    if (this.#renderPage) {
      response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(this.#renderPage(page));
    } else {
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(plainText(page));
    }
  }

  handle(rawUrl, response) {
    const url = new URL(rawUrl, this.redirectUrl);
    if (!this.#paths.includes(url.pathname)) {
      this.#reply(response, 404, { ok: false, message: "Not found" });
      return;
    }
    const state = url.searchParams.get("state");
    const waiting = state ? this.#waiting.get(state) : undefined;
    if (!state || !waiting) {
      this.#reply(response, 400, { ok: false, message: "Invalid or expired OAuth state" });
      return;
    }
    clearTimeout(waiting.timer);
    this.#waiting.delete(state);
    if (waiting.path !== undefined && url.pathname !== waiting.path) {
      waiting.reject(new Error("The authorization response arrived on another redirect URI"));
      this.#reply(response, 400, { ok: false, message: "Unexpected redirect URI" });
      return;
    }
    const error = url.searchParams.get("error");
    if (error) {
      const description = url.searchParams.get("error_description") ?? error;
      waiting.reject(new Error(description));
      this.#reply(response, 200, { ok: false, message: "Authorization failed. You may close this window.", details: description });
      return;
    }
    const code = url.searchParams.get("code");
    if (!code) {
      waiting.reject(new Error("OAuth callback did not include an authorization code"));
      this.#reply(response, 400, { ok: false, message: "Missing authorization code" });
      return;
    }
    const iss = url.searchParams.get("iss");
    waiting.resolve({ code, state, ...(iss ? { iss } : {}) });
    this.#reply(response, 200, { ok: true });
  }
}
