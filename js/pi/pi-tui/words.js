// Word boundaries (a compact form of UAX #29, standing in for Intl.Segmenter
// with granularity "word") and the editor's word-wise cursor moves.
import { graphemes } from "./unicode.js";

const LETTER = /[\p{L}\p{Nl}]/u;
// ICU splits Han and Hiragana by dictionary; each character stands alone here.
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const KATAKANA = /[\p{Script=Katakana}\u30fc]/u;
const NUMERIC = /\p{Nd}/u;
const EXTEND_NUM_LET = /\p{Pc}/u;
const MID_LETTER = /^[:\u00b7\u0387\u055f\u05f4\u2027\ufe13\ufe55\uff1a]$/;
const MID_NUM_LET = /^['.\u2018\u2019\u2024\ufe52\uff07\uff0e]$/;
const MID_NUM = /^[,;\u037e\u0589\u060c\u060d\u066c\u07f8\u2044\ufe10\ufe14\ufe50\ufe54\uff0c\uff1b]$/;
const SPACE = /^[\p{Zs}]$/u;

function kindOf(cluster) {
  const first = cluster[0];
  if (KATAKANA.test(first)) return "katakana";
  if (IDEOGRAPHIC.test(cluster)) return "ideo";
  if (LETTER.test(first)) return "letter";
  if (NUMERIC.test(first)) return "number";
  if (EXTEND_NUM_LET.test(first)) return "connector";
  if (MID_LETTER.test(first)) return "midLetter";
  if (MID_NUM_LET.test(first)) return "midNumLet";
  if (MID_NUM.test(first)) return "midNum";
  if (SPACE.test(first)) return "space";
  return "other";
}

const WORDY = new Set(["letter", "number", "connector"]);

/** Word segments of `text`: [{ segment, index, isWordLike }]. */
export function segmentWords(text) {
  const clusters = graphemes(text);
  const kinds = clusters.map(kindOf);
  const out = [];
  let index = 0;
  let i = 0;
  while (i < clusters.length) {
    const start = i;
    let last = kinds[i];
    let wordLike = last === "letter" || last === "number" || last === "ideo" || last === "katakana";
    i++;
    if (last === "space" || last === "katakana") {
      while (i < clusters.length && kinds[i] === last) i++;
    } else if (WORDY.has(last)) {
      while (i < clusters.length) {
        const k = kinds[i];
        if (WORDY.has(k)) {
          if (k !== "connector") wordLike = true;
          last = k;
          i++;
          continue;
        }
        // A middle character joins only between two letters or two digits.
        const next = kinds[i + 1];
        const betweenLetters = last === "letter" && next === "letter" && (k === "midLetter" || k === "midNumLet");
        const betweenDigits = last === "number" && next === "number" && (k === "midNum" || k === "midNumLet");
        if (betweenLetters || betweenDigits) {
          i += 2;
          continue;
        }
        break;
      }
    }
    const segment = clusters.slice(start, i).join("");
    out.push({ segment, index, isWordLike: wordLike });
    index += segment.length;
  }
  return out;
}

export const PUNCTUATION_REGEX = /[(){}[\]<>.,;:'"!?+\-=*/\\|&%^$#@~`]/;

export function isWhitespaceChar(char) {
  return /\s/.test(char);
}

export function isPunctuationChar(char) {
  return PUNCTUATION_REGEX.test(char);
}

/** The cursor after moving one word left: over spaces, then a word or a run of punctuation. */
export function findWordBackward(text, cursor) {
  if (cursor <= 0) return 0;
  const segments = segmentWords(text.slice(0, cursor));
  let pos = cursor;
  while (segments.length > 0 && isWhitespaceChar(segments[segments.length - 1].segment)) {
    pos -= segments.pop().segment.length;
  }
  if (segments.length === 0) return pos;
  const last = segments[segments.length - 1];
  if (last.isWordLike) {
    // Words stop at punctuation inside them ("a.b" moves to after the dot).
    let cut = -1;
    const re = new RegExp(PUNCTUATION_REGEX, "g");
    for (let m = re.exec(last.segment); m; m = re.exec(last.segment)) cut = m.index + m[0].length;
    return pos - (cut === -1 ? last.segment.length : last.segment.length - cut);
  }
  while (
    segments.length > 0 &&
    !segments[segments.length - 1].isWordLike &&
    !isWhitespaceChar(segments[segments.length - 1].segment)
  ) {
    pos -= segments.pop().segment.length;
  }
  return pos;
}

/** The cursor after moving one word right. */
export function findWordForward(text, cursor) {
  if (cursor >= text.length) return text.length;
  const segments = segmentWords(text.slice(cursor));
  let pos = cursor;
  let k = 0;
  while (k < segments.length && isWhitespaceChar(segments[k].segment)) pos += segments[k++].segment.length;
  if (k === segments.length) return pos;
  if (segments[k].isWordLike) {
    const m = PUNCTUATION_REGEX.exec(segments[k].segment);
    return pos + (m ? m.index : segments[k].segment.length);
  }
  while (k < segments.length && !segments[k].isWordLike && !isWhitespaceChar(segments[k].segment)) {
    pos += segments[k++].segment.length;
  }
  return pos;
}
