// The `WWW-Authenticate` challenge of a server that refused a request:
// where its protected resource metadata is, the scope it wants, and why it
// refused (`insufficient_scope` asks for a new sign-in with more scope).

/** A parameter of the challenge; an empty value counts as absent. */
function parameter(header, name) {
  const match = new RegExp(String.raw`(?:^|[,\s])${name}=(?:"([^"]*)"|([^\s,]+))`, "i").exec(header);
  return match?.[1] || match?.[2] || undefined;
}

export function parseWwwAuthenticate(header) {
  if (!header) return {};
  const scheme = header.trimStart().split(/\s+/, 1)[0]?.toLowerCase();
  if (scheme !== "bearer" && scheme !== "dpop") return {};
  const metadata = parameter(header, "resource_metadata");
  let resourceMetadataUrl;
  if (metadata) {
    try {
      resourceMetadataUrl = new URL(metadata);
    } catch {}
  }
  return {
    resourceMetadataUrl,
    scope: parameter(header, "scope"),
    error: parameter(header, "error"),
    errorDescription: parameter(header, "error_description"),
  };
}
