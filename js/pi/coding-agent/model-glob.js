// The glob matching pi's model scope patterns get from minimatch (case
// blind): `*` and `?` within one path segment, `[...]` classes (`!` or `^`
// negates), `**` as a whole segment for any number of segments, `{a,b}` and
// `{1..3}` alternatives, `\` escapes, and no wildcard matching a segment's
// leading dot. minimatch's extglobs (`+(a|b)`, `@(…)`, `!(…)`) and negated
// patterns (`!pattern`) are not supported: such a pattern throws.

import { expandBraces, segmentRegExp } from "./glob-syntax.js";

function unsupported(pattern) {
  return new Error(`pihost: model scope pattern "${pattern}" uses minimatch syntax pihost does not support yet`);
}

function matchSegments(patterns, texts, p, t) {
  if (p === patterns.length) return t === texts.length;
  const pattern = patterns[p];
  if (pattern === "**") {
    for (let next = t; next <= texts.length; next++) {
      if (matchSegments(patterns, texts, p + 1, next)) return true;
      if (next < texts.length && texts[next].startsWith(".")) return false;
    }
    return false;
  }
  if (t === texts.length) return false;
  const text = texts[t];
  // Wildcards never match a leading dot; only a literal one does.
  if (text.startsWith(".") && !pattern.startsWith(".")) return false;
  return segmentRegExp(pattern, "i").test(text) && matchSegments(patterns, texts, p + 1, t + 1);
}

/** Whether `text` matches the glob `pattern`, ignoring case. */
export function globMatches(text, pattern) {
  if (pattern.startsWith("!") || /[+@!*?]\(/.test(pattern)) throw unsupported(pattern);
  // minimatch reads a pattern starting with "#" as a comment, which matches nothing.
  if (pattern.startsWith("#")) return false;
  const texts = text.split("/");
  return expandBraces(pattern).some((expanded) => matchSegments(expanded.split("/"), texts, 0, 0));
}
