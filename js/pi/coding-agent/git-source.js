// Reading a git package source as pi does: `git:` followed by any form pi
// has ever accepted (host shorthands, `host/user/repo`, scp-like addresses,
// URLs), or an explicit http(s)/ssh/git URL without the prefix. A trailing
// `@ref` (or a URL's `#ref`) pins the checkout. The result's host and path
// name the install directory, so anything that could climb out of it (`..`,
// absolute paths, backslashes, NUL, even percent-encoded) is refused.
import { parseHostedGitUrl } from "./hosted-git.js";

const URL_SCHEMES = ["http://", "https://", "ssh://", "git://"];
const SCP_LIKE = /^git@([^:]+):(.+)$/;

/** `path` split at its first `@` into the repository part and a ref; undefined unless both are non-empty. */
function splitAtRef(path) {
  const at = path.indexOf("@");
  if (at < 0) return undefined;
  const repoPath = path.slice(0, at);
  const ref = path.slice(at + 1);
  return repoPath && ref ? { repoPath, ref } : undefined;
}

/** The source without its `@ref` suffix, and the ref. The `@` of `git@host:` or of URL credentials is not a ref. */
function separateRef(source) {
  const scp = source.match(SCP_LIKE);
  if (scp) {
    const split = splitAtRef(scp[2] ?? "");
    return split ? { repo: `git@${scp[1] ?? ""}:${split.repoPath}`, ref: split.ref } : { repo: source };
  }
  if (source.includes("://")) {
    let url;
    try {
      url = new URL(source);
    } catch {
      return { repo: source };
    }
    const split = splitAtRef(url.pathname.replace(/^\/+/, ""));
    if (!split) return { repo: source };
    url.pathname = `/${split.repoPath}`;
    return { repo: url.toString().replace(/\/$/, ""), ref: split.ref };
  }
  const slash = source.indexOf("/");
  if (slash < 0) return { repo: source };
  const split = splitAtRef(source.slice(slash + 1));
  return split ? { repo: `${source.slice(0, slash)}/${split.repoPath}`, ref: split.ref } : { repo: source };
}

/** Whether a host or repository path could name something outside the install root, raw or percent-decoded. */
function isUnsafeInstallPart(value, slashAllowed) {
  let decoded;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return true;
  }
  return [value, decoded].some(
    (text) =>
      text.includes("\0") ||
      text.includes("\\") ||
      text.startsWith("/") ||
      (!slashAllowed && text.includes("/")) ||
      text.split("/").includes(".."),
  );
}

/** The git source, or null when host and path do not name a `host/owner/repo` that is safe to install under. */
function gitSource({ repo, host, path, ref }) {
  if (path.startsWith("/")) return null;
  const repoPath = path.replace(/\.git$/, "").replace(/^\/+/, "");
  if (!host || !repoPath || repoPath.split("/").length < 2) return null;
  if (isUnsafeInstallPart(host, false) || isUnsafeInstallPart(repoPath, true)) return null;
  return { type: "git", repo, host, path: repoPath, ref, pinned: Boolean(ref) };
}

/** Any other host: scp-like, an explicit URL, or `host.tld/owner/repo` (cloned over https). */
function genericGitSource(source) {
  const { repo: withoutRef, ref } = separateRef(source);
  const scp = withoutRef.match(SCP_LIKE);
  if (scp) return gitSource({ repo: withoutRef, host: scp[1] ?? "", path: scp[2] ?? "", ref });
  if (URL_SCHEMES.some((scheme) => withoutRef.startsWith(scheme))) {
    let url;
    try {
      url = new URL(withoutRef);
    } catch {
      return null;
    }
    return gitSource({ repo: withoutRef, host: url.hostname, path: url.pathname.replace(/^\/+/, ""), ref });
  }
  const slash = withoutRef.indexOf("/");
  if (slash < 0) return null;
  const host = withoutRef.slice(0, slash);
  // Without a scheme, only something that looks like a host name counts.
  if (!host.includes(".") && host !== "localhost") return null;
  return gitSource({ repo: `https://${withoutRef}`, host, path: withoutRef.slice(slash + 1), ref });
}

/** A known host's repository among `candidates`; a project name still holding an `@` means the ref split was wrong. */
function hostedSource(candidates, split, repoFor) {
  for (const candidate of candidates) {
    const info = parseHostedGitUrl(candidate);
    if (!info) continue;
    if (split.ref && info.project?.includes("@")) continue;
    return gitSource({
      repo: repoFor(split.repo),
      host: info.domain || "",
      path: `${info.user}/${info.project}`,
      ref: info.committish || split.ref || undefined,
    });
  }
  return undefined;
}

const hasExplicitScheme = (repo) => [...URL_SCHEMES, "git@"].some((prefix) => repo.startsWith(prefix));

/**
 * `{ type: "git", repo, host, path, ref, pinned }` for a git package source,
 * or null. With the `git:` prefix every historical shorthand is read;
 * without it, only explicit http(s), ssh and git URLs.
 */
export function parseGitUrl(source) {
  const trimmed = source.trim();
  const prefixed = trimmed.startsWith("git:");
  const body = prefixed ? trimmed.slice(4).trim() : trimmed;
  if (!prefixed && !/^(https?|ssh|git):\/\//i.test(body)) return null;
  const split = separateRef(body);
  const withRefAsHash = (prefix) => (split.ref ? [`${prefix}${split.repo}#${split.ref}`] : []);
  const asWritten = hostedSource([...withRefAsHash(""), body], split, (repo) => (hasExplicitScheme(repo) ? repo : `https://${repo}`));
  if (asWritten !== undefined) return asWritten;
  const overHttps = hostedSource([...withRefAsHash("https://"), `https://${body}`], split, (repo) => `https://${repo}`);
  if (overHttps !== undefined) return overHttps;
  return genericGitSource(body);
}
