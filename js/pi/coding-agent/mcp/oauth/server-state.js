// The OAuth state of one MCP server URL as the authorization flow reads
// and changes it: the registered client (or the pre-registered one from the
// config), tokens and when they expire, the pending sign-in's PKCE verifier
// and `state`, and discovery results. State stored for another URL is never
// used, so credentials cannot leak between servers.
import { randomBytes } from "node:crypto";

export class OAuthServerState {
  #store;
  #configuredClient;
  #onRedirect;
  /** Writes run one after another, each on the state the previous one left. */
  #writes = Promise.resolve();

  /**
   * `serverUrl`, `redirectUrl`, `clientMetadata` (completed with defaults),
   * `clientMetadataDocument(metadata)`, `clientId`/`clientSecret` of a
   * pre-registered client, `store` ({ load, save }), `onRedirect(url)`.
   */
  constructor(options) {
    this.serverUrl = String(new URL(options.serverUrl));
    this.redirectUrl = String(options.redirectUrl);
    this.clientMetadata = {
      ...options.clientMetadata,
      redirect_uris: options.clientMetadata.redirect_uris ?? [this.redirectUrl],
      grant_types: options.clientMetadata.grant_types ?? ["authorization_code", "refresh_token"],
      response_types: options.clientMetadata.response_types ?? ["code"],
      token_endpoint_auth_method: options.clientMetadata.token_endpoint_auth_method ?? (options.clientSecret ? "client_secret_post" : "none"),
    };
    this.clientMetadataDocument = options.clientMetadataDocument;
    this.#configuredClient = options.clientId
      ? { client_id: options.clientId, ...(options.clientSecret ? { client_secret: options.clientSecret } : {}) }
      : undefined;
    this.#store = options.store;
    this.#onRedirect = options.onRedirect;
  }

  /** The sign-in's `state` parameter, created once per sign-in. */
  async state() {
    const existing = (await this.#load()).oauthState;
    if (existing) return existing;
    const state = randomBytes(32).toString("hex");
    await this.#update((value) => ({ ...value, oauthState: state }));
    return state;
  }

  async clientInformation() {
    return this.#configuredClient ?? (await this.#load()).clientInformation;
  }

  async saveClientInformation(information) {
    if (this.#configuredClient) return;
    await this.#update((value) => ({ ...value, clientInformation: information }));
  }

  async tokens() {
    return (await this.#load()).tokens;
  }

  async saveTokens(tokens) {
    const expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
    await this.#update((value) => {
      const next = { ...value, tokens };
      if (expiresAt === undefined) delete next.tokensExpireAt;
      else next.tokensExpireAt = expiresAt;
      return next;
    });
  }

  async redirectToAuthorization(url) {
    await this.#onRedirect(url);
  }

  async saveCodeVerifier(verifier) {
    await this.#update((value) => ({ ...value, codeVerifier: verifier }));
  }

  async codeVerifier() {
    const verifier = (await this.#load()).codeVerifier;
    if (!verifier) throw new Error("No OAuth PKCE code verifier is stored");
    return verifier;
  }

  /** Forgets "client", "tokens", "verifier", "discovery", or "all" of them (and the sign-in's state). */
  async invalidateCredentials(kind) {
    await this.#update((value) => {
      const next = { ...value };
      const all = kind === "all";
      if (all || kind === "client") delete next.clientInformation;
      if (all || kind === "tokens") {
        delete next.tokens;
        delete next.tokensExpireAt;
      }
      if (all || kind === "verifier") delete next.codeVerifier;
      if (all || kind === "discovery") delete next.discovery;
      if (all) delete next.oauthState;
      return next;
    });
  }

  async saveDiscoveryState(discovery) {
    await this.#update((value) => ({ ...value, discovery }));
  }

  async discoveryState() {
    return (await this.#load()).discovery;
  }

  async #load() {
    await this.#writes;
    return this.#own(await this.#store.load());
  }

  async #update(change) {
    this.#writes = this.#writes.then(async () => {
      await this.#store.save(change(this.#own(await this.#store.load())));
    });
    await this.#writes;
  }

  #own(state) {
    return state?.serverUrl === this.serverUrl ? state : { serverUrl: this.serverUrl };
  }
}
