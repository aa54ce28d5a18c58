// Recognising repositories on the well-known git hosts (GitHub, GitLab,
// Bitbucket, gists, sourcehut) the way npm's hosted-git-info does, which pi
// relies on to read `git:` package sources. Only what pi reads is produced:
// the host's domain, the user (or group path), the project and the
// committish. Input forms: host shortcuts (`github:user/repo#ref`), bare
// GitHub shorthands (`user/repo`), scp-like `git@host:user/repo`, and URLs
// over git, ssh, http(s) and git+ssh / git+https.

/** The known hosts, in hosted-git-info's order, with the URL protocols each serves and how a URL path names the repository. */
const HOSTS = {
  github: {
    domain: "github.com",
    protocols: ["git:", "http:", "git+ssh:", "git+https:", "ssh:", "https:"],
    extract(url) {
      const [, user, projectWithSuffix, kind, treeRef] = url.pathname.split("/", 5);
      // Only the repository page or a tree view names a repository; blobs and the like do not.
      if (kind && kind !== "tree") return undefined;
      const committish = kind ? treeRef : url.hash.slice(1);
      const project = stripDotGit(projectWithSuffix);
      return user && project ? { user, project, committish } : undefined;
    },
  },
  bitbucket: {
    domain: "bitbucket.org",
    protocols: ["git+ssh:", "git+https:", "ssh:", "https:"],
    extract: (url) => userProjectFromPath(url, "get"),
  },
  gitlab: {
    domain: "gitlab.com",
    protocols: ["git+ssh:", "git+https:", "ssh:", "https:"],
    extract(url) {
      const path = url.pathname.slice(1);
      if (path.includes("/-/") || path.includes("/archive.tar.gz")) return undefined;
      // GitLab groups nest: everything before the last segment is the user part.
      const segments = path.split("/");
      const project = stripDotGit(segments.pop());
      const user = segments.join("/");
      return user && project ? { user, project, committish: url.hash.slice(1) } : undefined;
    },
  },
  gist: {
    domain: "gist.github.com",
    protocols: ["git:", "git+ssh:", "git+https:", "ssh:", "https:"],
    extract(url) {
      let [, user, project, aux] = url.pathname.split("/", 4);
      if (aux === "raw") return undefined;
      // A gist may be named by its id alone.
      if (!project) {
        if (!user) return undefined;
        project = user;
        user = null;
      }
      return { user, project: stripDotGit(project), committish: url.hash.slice(1) };
    },
  },
  sourcehut: {
    domain: "git.sr.ht",
    protocols: ["git+ssh:", "https:"],
    extract: (url) => userProjectFromPath(url, "archive"),
  },
};

const HOST_BY_DOMAIN = new Map(Object.entries(HOSTS).map(([name, host]) => [host.domain, name]));
const SHORTCUT_PROTOCOLS = new Set(Object.keys(HOSTS).map((name) => `${name}:`));
const URL_PROTOCOLS = new Set(["git+ssh:", "ssh:", "git+https:", "git:", "http:", "https:", "git+http:"]);

function stripDotGit(name) {
  return name && name.endsWith(".git") ? name.slice(0, -4) : name;
}

/** `/user/project[/...]` hosts: a third segment equal to `archiveSegment` is a download, not a repository. */
function userProjectFromPath(url, archiveSegment) {
  const [, user, projectWithSuffix, aux] = url.pathname.split("/", 4);
  if (aux === archiveSegment) return undefined;
  const project = stripDotGit(projectWithSuffix);
  return user && project ? { user, project, committish: url.hash.slice(1) } : undefined;
}

/**
 * Whether `input` reads as GitHub's `user/repo[#ref]` shorthand: one slash
 * (not first, not last), and no whitespace, `@` or `:` before the `#`; a
 * leading dot would be a relative path.
 */
function isGitHubShorthand(input) {
  const hash = input.indexOf("#");
  const head = hash < 0 ? input : input.slice(0, hash);
  const firstSlash = input.indexOf("/");
  if (firstSlash <= 0) return false;
  if (/\s/.test(head) || head.includes("@") || head.includes(":")) return false;
  if (head.indexOf("/", firstSlash + 1) >= 0) return false;
  if (head.endsWith("/") || input.startsWith(".")) return false;
  return true;
}

function tryUrl(text) {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `text` given a `//` after its scheme when it was written `scheme:rest`; scp-like user@host:path becomes git+ssh. */
function withProtocolSlashes(text) {
  const colon = text.indexOf(":");
  const scheme = text.slice(0, colon + 1);
  if (SHORTCUT_PROTOCOLS.has(scheme) || URL_PROTOCOLS.has(scheme)) return text;
  if (text.substr(colon, 3) === "://") return text;
  const at = text.indexOf("@");
  if (at > -1) return at > colon ? `git+ssh://${text}` : text;
  return `${text.slice(0, colon + 1)}//${text.slice(colon + 1)}`;
}

/** The last index of `char` before the first `stop` (or in the whole text when there is none). */
function lastIndexBefore(text, char, stop) {
  const stopAt = text.indexOf(stop);
  return text.lastIndexOf(char, stopAt > -1 ? stopAt : Infinity);
}

/** An scp-like address (`host:user/repo`) rewritten so the URL parser accepts it. */
function scpToUrl(text) {
  let url = text;
  const at = lastIndexBefore(url, "@", "#");
  const colon = lastIndexBefore(url, ":", "#");
  if (colon > at) url = `${url.slice(0, colon)}/${url.slice(colon + 1)}`;
  if (lastIndexBefore(url, ":", "#") === -1 && !url.includes("//")) url = `git+ssh://${url}`;
  return url;
}

function parseLooseUrl(text) {
  const corrected = withProtocolSlashes(text);
  return tryUrl(corrected) ?? tryUrl(scpToUrl(corrected));
}

/** The user, project and committish a shortcut (`github:user/repo#ref`) names. */
function fromShortcut(url) {
  let path = url.pathname.startsWith("/") ? url.pathname.slice(1) : url.pathname;
  // Credentials in a shortcut mean nothing; drop them.
  const at = path.indexOf("@");
  if (at > -1) path = path.slice(at + 1);
  const slash = path.lastIndexOf("/");
  const user = slash > -1 ? decodeURIComponent(path.slice(0, slash)) || null : null;
  const project = stripDotGit(decodeURIComponent(slash > -1 ? path.slice(slash + 1) : path));
  const committish = url.hash ? decodeURIComponent(url.hash.slice(1)) : null;
  return { user, project, committish };
}

/** The repository a URL on a known host's domain names, if the protocol is one the host serves. */
function fromHostUrl(url, host) {
  if (!host.protocols.includes(url.protocol)) return undefined;
  const segments = host.extract(url);
  if (!segments) return undefined;
  return {
    user: segments.user && decodeURIComponent(segments.user),
    project: decodeURIComponent(segments.project),
    // hosted-git-info decodes whatever is there, so a missing tree ref reads "undefined".
    committish: decodeURIComponent(segments.committish),
  };
}

/**
 * `{ type, domain, user, project, committish }` for a repository on a known
 * host, or undefined when `input` names none.
 */
export function parseHostedGitUrl(input) {
  if (typeof input !== "string" || !input) return undefined;
  const url = parseLooseUrl(isGitHubShorthand(input) ? `github:${input}` : input);
  if (!url) return undefined;
  const shortcut = SHORTCUT_PROTOCOLS.has(url.protocol) ? url.protocol.slice(0, -1) : undefined;
  const hostname = url.hostname.startsWith("www.") ? url.hostname.slice(4) : url.hostname;
  const type = shortcut ?? HOST_BY_DOMAIN.get(hostname);
  if (!type) return undefined;
  try {
    const parts = shortcut ? fromShortcut(url) : fromHostUrl(url, HOSTS[type]);
    return parts ? { type, domain: HOSTS[type].domain, ...parts } : undefined;
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}
