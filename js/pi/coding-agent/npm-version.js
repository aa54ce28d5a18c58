// The part of npm's semver rules pi's package manager needs: whether an
// `npm:name@version` spec pins one exact version, whether it is a version
// range at all (dist-tags such as `latest` are not), and whether an installed
// package's version satisfies the range. Ranges: `||` alternatives, hyphen
// ranges, x-ranges and partial versions, `~`, `~>`, `^`, and comparators
// (`<`, `<=`, `>`, `>=`, `=`). Prerelease versions only satisfy a range one
// of whose comparators names a prerelease of the same major.minor.patch,
// as in npm.

const MAX_LENGTH = 256;
const NUMBER = "0|[1-9]\\d*";
const PRERELEASE_PART = "(?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*)";
const PRERELEASE = `(?:-(${PRERELEASE_PART}(?:\\.${PRERELEASE_PART})*))`;
const BUILD = "(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)";
const FULL_VERSION = new RegExp(`^v?(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})${PRERELEASE}?${BUILD}?$`);
const PART = `${NUMBER}|x|X|\\*`;
// A version that may stop early or hold wildcards: "1", "1.x", "1.2.*".
const PARTIAL = `[v=\\s]*(${PART})(?:\\.(${PART})(?:\\.(${PART})${PRERELEASE}?${BUILD}?)?)?`;
const PARTIAL_ONLY = new RegExp(`^${PARTIAL}$`);
const OPERATOR_AND_PARTIAL = new RegExp(`^((?:<|>)?=?)${PARTIAL}$`);
const HYPHEN_RANGE = new RegExp(`^\\s*(${PARTIAL})\\s+-\\s+(${PARTIAL})\\s*$`);
const COMPARATOR = new RegExp(`^((?:<|>)?=?)\\s*(v?(?:${NUMBER})\\.(?:${NUMBER})\\.(?:${NUMBER})${PRERELEASE}?${BUILD}?)$|^$`);

/** `{ major, minor, patch, prerelease }` of a full version (a leading "v" allowed), or null. */
export function parseVersion(text) {
  if (typeof text !== "string" || text.length > MAX_LENGTH) return null;
  const match = text.trim().match(FULL_VERSION);
  if (!match) return null;
  const numbers = [match[1], match[2], match[3]].map(Number);
  if (numbers.some((n) => !Number.isSafeInteger(n))) return null;
  const prerelease = match[4] ? match[4].split(".").map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { major: numbers[0], minor: numbers[1], patch: numbers[2], prerelease };
}

/** Whether an npm spec's version pins one exact version (so `pi update` leaves it). */
export function isExactVersion(version) {
  return parseVersion(version ?? "") !== null;
}

function compareIdentifiers(a, b) {
  const aNumber = typeof a === "number";
  const bNumber = typeof b === "number";
  if (aNumber && !bNumber) return -1;
  if (bNumber && !aNumber) return 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

function compareVersions(a, b) {
  for (const key of ["major", "minor", "patch"]) if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  // A prerelease comes before its release.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; ; i++) {
    const [x, y] = [a.prerelease[i], b.prerelease[i]];
    if (x === undefined && y === undefined) return 0;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const order = compareIdentifiers(x, y);
    if (order !== 0) return order;
  }
}

const isWildcard = (part) => !part || part.toLowerCase() === "x" || part === "*";
const withPrerelease = (pre) => (pre ? `-${pre}` : "");

/** `~1.2.3`: patch updates; `~1`: anything in 1.x. */
function desugarTilde(major, minor, patch, pre) {
  if (isWildcard(major)) return "";
  if (isWildcard(minor)) return `>=${major}.0.0 <${+major + 1}.0.0-0`;
  if (isWildcard(patch)) return `>=${major}.${minor}.0 <${major}.${+minor + 1}.0-0`;
  return `>=${major}.${minor}.${patch}${withPrerelease(pre)} <${major}.${+minor + 1}.0-0`;
}

/** `^1.2.3`: anything that does not change the leftmost non-zero part. */
function desugarCaret(major, minor, patch, pre) {
  if (isWildcard(major)) return "";
  if (isWildcard(minor)) return `>=${major}.0.0 <${+major + 1}.0.0-0`;
  if (isWildcard(patch)) {
    return major === "0" ? `>=${major}.${minor}.0 <${major}.${+minor + 1}.0-0` : `>=${major}.${minor}.0 <${+major + 1}.0.0-0`;
  }
  const from = `>=${major}.${minor}.${patch}${withPrerelease(pre)}`;
  if (major !== "0") return `${from} <${+major + 1}.0.0-0`;
  if (minor !== "0") return `${from} <${major}.${+minor + 1}.0-0`;
  return `${from} <${major}.${minor}.${+patch + 1}-0`;
}

/** An operator with a partial version (`>1`, `<=1.2`, `1.x`) as full comparators. */
function desugarPartial(whole, operator, major, minor, patch) {
  const majorX = isWildcard(major);
  const minorX = majorX || isWildcard(minor);
  const patchX = minorX || isWildcard(patch);
  let op = operator === "=" && patchX ? "" : operator;
  if (majorX) return op === ">" || op === "<" ? "<0.0.0-0" : "*";
  if (op && patchX) {
    let [M, m, p] = [+major, minorX ? 0 : +minor, 0];
    if (op === ">") {
      op = ">=";
      if (minorX) [M, m] = [M + 1, 0];
      else m += 1;
    } else if (op === "<=") {
      op = "<";
      if (minorX) M += 1;
      else m += 1;
    }
    return `${op}${M}.${m}.${p}${op === "<" ? "-0" : ""}`;
  }
  if (minorX) return `>=${major}.0.0 <${+major + 1}.0.0-0`;
  if (patchX) return `>=${major}.${minor}.0 <${major}.${+minor + 1}.0-0`;
  return whole;
}

/** One space-free range token as plain comparators (possibly several, space-separated). */
function desugarToken(token) {
  const tilde = token.match(new RegExp(`^~>?${PARTIAL}$`));
  if (tilde) return desugarTilde(tilde[1], tilde[2], tilde[3], tilde[4]);
  const caret = token.match(new RegExp(`^\\^${PARTIAL}$`));
  if (caret) return desugarCaret(caret[1], caret[2], caret[3], caret[4]);
  if (token === "*" || token === "") return "";
  const partial = token.match(OPERATOR_AND_PARTIAL);
  if (partial) return desugarPartial(token, partial[1], partial[2], partial[3], partial[4]);
  return token;
}

function desugarHyphen(match) {
  const [fromMajor, fromMinor, fromPatch, fromPre] = [match[2], match[3], match[4], match[5]];
  const [toMajor, toMinor, toPatch, toPre] = [match[7], match[8], match[9], match[10]];
  let from = `>=${match[1]}`;
  if (isWildcard(fromMajor)) from = "";
  else if (isWildcard(fromMinor)) from = `>=${fromMajor}.0.0`;
  else if (isWildcard(fromPatch)) from = `>=${fromMajor}.${fromMinor}.0`;
  else if (fromPre) from = `>=${fromMajor}.${fromMinor}.${fromPatch}-${fromPre}`;
  let to = `<=${match[6]}`;
  if (isWildcard(toMajor)) to = "";
  else if (isWildcard(toMinor)) to = `<${+toMajor + 1}.0.0-0`;
  else if (isWildcard(toPatch)) to = `<${toMajor}.${+toMinor + 1}.0-0`;
  else if (toPre) to = `<=${toMajor}.${toMinor}.${toPatch}-${toPre}`;
  return `${from} ${to}`.trim();
}

/** One `||` alternative as a list of `{ operator, version }` (version null: any); null when invalid. */
function parseComparatorSet(text) {
  const trimmed = text.trim();
  const hyphen = trimmed.match(HYPHEN_RANGE);
  const spaced = hyphen
    ? desugarHyphen(hyphen)
    : trimmed
        // Operators and their versions belong together: ">= 1.2" is ">=1.2".
        .replace(/(\s*)((?:<|>)?=?)\s*(?=v?[0-9xX*])/g, (_all, lead, op) => `${lead}${op}`)
        .replace(/(\s*)~>?\s+/g, "$1~")
        .replace(/(\s*)\^\s+/g, "$1^")
        .split(/\s+/)
        .map(desugarToken)
        .join(" ");
  const comparators = [];
  for (const token of spaced.split(/\s+/)) {
    const normal = token === "*" || token === ">=0.0.0" ? "" : token;
    const match = normal.match(COMPARATOR);
    if (!match) return null;
    if (normal === "") {
      comparators.push({ operator: "", version: null });
      continue;
    }
    const version = parseVersion(match[2]);
    if (!version) return null;
    comparators.push({ operator: match[1] === "=" ? "" : match[1], version });
  }
  return comparators;
}

/** The range's alternatives, or null when `text` is no semver range (a dist-tag, a URL, garbage). */
export function parseVersionRange(text) {
  if (typeof text !== "string" || text.length > MAX_LENGTH) return null;
  const sets = [];
  for (const part of text.trim().split(/\s*\|\|\s*/)) {
    const set = parseComparatorSet(part);
    if (!set) return null;
    sets.push(set);
  }
  return sets;
}

function comparatorHolds({ operator, version }, candidate) {
  if (!version) return true;
  const order = compareVersions(candidate, version);
  switch (operator) {
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    case ">=":
      return order >= 0;
    default:
      return order === 0;
  }
}

const sameRelease = (a, b) => a.major === b.major && a.minor === b.minor && a.patch === b.patch;

function setHolds(set, candidate) {
  if (!set.every((comparator) => comparatorHolds(comparator, candidate))) return false;
  if (candidate.prerelease.length === 0) return true;
  // A prerelease needs a comparator that opts into prereleases of its own release.
  return set.some(({ version }) => version && version.prerelease.length > 0 && sameRelease(version, candidate));
}

/** Whether `versionText` satisfies the parsed `range` (from parseVersionRange). */
export function satisfiesRange(versionText, range) {
  const candidate = parseVersion(versionText);
  if (!candidate || !range) return false;
  return range.some((set) => setHolds(set, candidate));
}

function parseOrThrow(text) {
  const version = parseVersion(text);
  if (!version) throw new TypeError(`Invalid Version: ${text}`);
  return version;
}

/** Whether version `a` is newer than `b`; throws for text that is not a version, as npm's semver does. */
export function isNewerVersion(a, b) {
  return compareVersions(parseOrThrow(a), parseOrThrow(b)) > 0;
}

/** The newest of `versions`; throws when one is not a version. */
export function newestVersion(versions) {
  return [...versions].sort((a, b) => compareVersions(parseOrThrow(b), parseOrThrow(a)))[0];
}

/** The newest of `versions` that satisfies the parsed `range`, or undefined. */
export function newestSatisfying(versions, range) {
  let best;
  for (const text of versions) {
    if (!satisfiesRange(text, range)) continue;
    if (best === undefined || compareVersions(parseVersion(text), parseVersion(best)) > 0) best = text;
  }
  return best;
}
