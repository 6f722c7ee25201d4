/**
 * Keyword machinery shared by the backends: query tokenising, snippets, and a BM25 ranking used
 * by the in-memory store and by the MySQL fallback for words too short for its FULLTEXT index.
 */

/** Lower-cased words (letters and digits) of a text, in order. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The distinct words of a query, at most 32. */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))].slice(0, 32);
}

/** Up to `max` characters of `text` around the first occurrence of any term. */
export function makeSnippet(text: string, terms: string[], max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  if (at === -1) return `${flat.slice(0, max - 1)}…`;
  const start = Math.max(0, at - Math.floor(max / 3));
  const end = Math.min(flat.length, start + max);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

/**
 * Scores documents against terms with BM25 (k1 1.2, b 0.75); documents matching no term score 0.
 * `prefix` also counts words that start with a term (used for very short terms).
 */
export function bm25Scores(docs: string[], terms: string[], options: { prefix?: boolean } = {}): number[] {
  const tokenized = docs.map(tokenize);
  const n = docs.length;
  const avgLen = tokenized.reduce((s, t) => s + t.length, 0) / Math.max(1, n) || 1;
  const matches = (word: string, term: string) => (options.prefix ? word.startsWith(term) : word === term);
  const df = terms.map((term) => tokenized.filter((words) => words.some((w) => matches(w, term))).length);
  return tokenized.map((words) => {
    let score = 0;
    terms.forEach((term, i) => {
      if (df[i] === 0) return;
      let tf = 0;
      for (const w of words) if (matches(w, term)) tf++;
      if (tf === 0) return;
      const idf = Math.log(1 + (n - df[i] + 0.5) / (df[i] + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * words.length) / avgLen));
    });
    return score;
  });
}

/** Escapes `%`, `_` and `!` for a LIKE pattern written with `ESCAPE '!'` (portable across the SQL backends). */
export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}
