// Fuzzy matching: every query character in order, lower score is better.

const BOUNDARY = /[\s\-_./:]/;

function score(text, positions) {
  let total = 0;
  let last = -1;
  let run = 0;
  for (const i of positions) {
    if (last === i - 1) {
      run++;
      total -= run * 5; // runs of adjacent matches grow more valuable
    } else {
      run = 0;
      if (last >= 0) total += (i - last - 1) * 2;
    }
    if (i === 0 || BOUNDARY.test(text[i - 1])) total -= 10;
    total += i * 0.1;
    last = i;
  }
  return total;
}

function align(query, text) {
  if (query.length === 0) return { matches: true, score: 0 };
  if (query.length > text.length) return { matches: false, score: 0 };
  const positions = [];
  let from = 0;
  for (let q = 0; q < query.length; q++) {
    const i = text.indexOf(query[q], from);
    if (i === -1) return { matches: false, score: 0 };
    positions.push(i);
    from = i + 1;
  }
  let best = score(text, positions);
  // The earliest characters can scatter over an unrelated prefix ("opus" in
  // "openrouter/.../claude-opus"); a contiguous occurrence may score better.
  for (let start = text.indexOf(query); start !== -1; start = text.indexOf(query, start + 1)) {
    best = Math.min(best, score(text, positions.map((_, k) => start + k)));
  }
  if (query === text) best -= 100;
  return { matches: true, score: best };
}

/** How well `query` matches `text`: { matches, score }, lower is better. */
export function fuzzyMatch(query, text) {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  const primary = align(q, t);
  if (primary.matches) return primary;
  // "gpt4" also finds "4gpt" and the reverse, at a small cost.
  const m = /^([a-z]+)([0-9]+)$/.exec(q) ?? /^([0-9]+)([a-z]+)$/.exec(q);
  if (!m) return primary;
  const swapped = align(m[2] + m[1], t);
  return swapped.matches ? { matches: true, score: swapped.score + 5 } : primary;
}

/** `items` whose text matches every whitespace- or slash-separated token, best first. */
export function fuzzyFilter(items, query, getText) {
  if (!query.trim()) return items;
  const tokens = query.trim().split(/[\s/]+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return items;
  const scored = [];
  for (const item of items) {
    const text = getText(item);
    let total = 0;
    let all = true;
    for (const token of tokens) {
      const m = fuzzyMatch(token, text);
      if (!m.matches) {
        all = false;
        break;
      }
      total += m.score;
    }
    if (all) scored.push({ item, total });
  }
  scored.sort((a, b) => a.total - b.total);
  return scored.map((s) => s.item);
}
