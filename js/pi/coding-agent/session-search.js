// How the /resume picker searches sessions. A query is words (each matched
// on its own, fuzzily in the name and folder, literally elsewhere),
// "quoted phrases" (whitespace-insensitive, literal), or `re:<pattern>`.
// Matches are ranked by tier first (in the name, then in the id, messages
// or folder, then scattered), then by fuzzy score.
import { fuzzyMatch } from "../pi-tui/fuzzy.js";

const TIER_NAME = 0;
const TIER_TEXT = 1;
const TIER_FUZZY = 2;
// Larger than any fuzzy score, so a better tier always wins.
const TIER_WEIGHT = 1_000_000;

const collapseWhitespace = (text) => text.toLowerCase().replace(/\s+/g, " ").trim();
const score = (tier, fuzzyScore = 0) => tier * TIER_WEIGHT + fuzzyScore;

// All of a session's messages can be megabytes: lowercased once, not per keystroke.
const lowercasedMessages = new WeakMap();
function messageText(session) {
  let entry = lowercasedMessages.get(session);
  if (!entry || entry.source !== session.allMessagesText) {
    entry = { source: session.allMessagesText, lower: session.allMessagesText.toLowerCase(), collapsed: undefined };
    lowercasedMessages.set(session, entry);
  }
  return entry;
}

function collapsedMessageText(session) {
  const entry = messageText(session);
  entry.collapsed ??= entry.lower.replace(/\s+/g, " ").trim();
  return entry.collapsed;
}

/** `value` (lowercase) found as is: in the name (ranked by fit), or the id, messages or folder. */
function literalScore(session, value) {
  const name = session.name?.toLowerCase() ?? "";
  if (name.includes(value)) return score(TIER_NAME, fuzzyMatch(value, name).score);
  if (session.id.toLowerCase().includes(value) || messageText(session).lower.includes(value) || session.cwd.toLowerCase().includes(value)) {
    return score(TIER_TEXT);
  }
  return undefined;
}

function wordScore(session, word) {
  const literal = literalScore(session, word.toLowerCase());
  if (literal !== undefined) return literal;
  // Scattered letters count only in the short fields: in messages and ids they are noise.
  let best;
  for (const field of [session.name ?? "", session.cwd]) {
    const match = fuzzyMatch(word, field);
    if (match.matches && (best === undefined || match.score < best)) best = match.score;
  }
  return best === undefined ? undefined : score(TIER_FUZZY, best);
}

function phraseScore(session, phrase) {
  const name = collapseWhitespace(session.name ?? "");
  if (name.includes(phrase)) return score(TIER_NAME, fuzzyMatch(phrase, name).score);
  if (session.id.toLowerCase().includes(phrase) || collapsedMessageText(session).includes(phrase) || collapseWhitespace(session.cwd).includes(phrase)) {
    return score(TIER_TEXT);
  }
  return undefined;
}

function regexScore(session, regex) {
  if (session.name && regex.test(session.name)) return score(TIER_NAME);
  if (regex.test(session.id) || regex.test(session.allMessagesText) || regex.test(session.cwd)) return score(TIER_TEXT);
  return undefined;
}

export function hasSessionName(session) {
  return Boolean(session.name?.trim());
}

/** Words and quoted phrases; with an unclosed quote, just the whitespace-separated words. */
function parseTokens(text) {
  const tokens = [];
  let current = "";
  let quoted = false;
  const finish = (kind) => {
    const value = current.trim();
    current = "";
    if (value) tokens.push({ kind, value });
  };
  for (const ch of text) {
    if (ch === '"') {
      finish(quoted ? "phrase" : "fuzzy");
      quoted = !quoted;
    } else if (!quoted && /\s/.test(ch)) finish("fuzzy");
    else current += ch;
  }
  if (quoted) return text.split(/\s+/).filter(Boolean).map((value) => ({ kind: "fuzzy", value }));
  finish("fuzzy");
  return tokens;
}

export function parseSearchQuery(query) {
  const trimmed = query.trim();
  if (!trimmed) return { mode: "tokens", tokens: [], regex: null };
  if (!trimmed.startsWith("re:")) return { mode: "tokens", tokens: parseTokens(trimmed), regex: null };
  const pattern = trimmed.slice(3).trim();
  if (!pattern) return { mode: "regex", tokens: [], regex: null, error: "Empty regex" };
  try {
    return { mode: "regex", tokens: [], regex: new RegExp(pattern, "i") };
  } catch (err) {
    return { mode: "regex", tokens: [], regex: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Whether every token matches some field of `session` (each token one field), and the summed score. */
export function matchSession(session, parsed) {
  const miss = { matches: false, score: 0 };
  if (parsed.mode === "regex") {
    const found = parsed.regex ? regexScore(session, parsed.regex) : undefined;
    return found === undefined ? miss : { matches: true, score: found };
  }
  let total = 0;
  for (const token of parsed.tokens) {
    let found;
    if (token.kind === "phrase") {
      const phrase = collapseWhitespace(token.value);
      if (!phrase) continue;
      found = phraseScore(session, phrase);
    } else found = wordScore(session, token.value);
    if (found === undefined) return miss;
    total += found;
  }
  return { matches: true, score: total };
}

/** The sessions matching `query`: in their given order for "recent", else best match first (newest on ties). */
export function filterAndSortSessions(sessions, query, sortMode, nameFilter = "all") {
  const candidates = nameFilter === "all" ? sessions : sessions.filter(hasSessionName);
  if (!query.trim()) return candidates;
  const parsed = parseSearchQuery(query);
  if (parsed.error) return [];
  if (sortMode === "recent") return candidates.filter((session) => matchSession(session, parsed).matches);
  const scored = [];
  for (const session of candidates) {
    const result = matchSession(session, parsed);
    if (result.matches) scored.push({ session, score: result.score });
  }
  scored.sort((a, b) => a.score - b.score || b.session.modified.getTime() - a.session.modified.getTime());
  return scored.map((entry) => entry.session);
}
