/**
 * When an edit's `old_string` matches nowhere: the places in the file that come closest, so the
 * model can copy the exact text and retry. Tries, in order: a match ignoring whitespace
 * differences, then the lines most similar to the first line of `old_string` (character-bigram
 * similarity).
 */

const MAX_SCAN_LINES = 200_000;
const SHOWN = 3;

/** A text block naming the nearest candidates (starts with a newline), or `''` when none is close. */
export function nearestCandidates(text: string, needle: string): string {
  const lines = text.split('\n');
  const want = needle.split('\n');
  const loose = whitespaceMatch(lines, want);
  if (loose !== undefined) {
    return `\nIt matches at line ${loose + 1} when whitespace is ignored; the file has:\n${excerpt(lines, loose, want.length)}`;
  }
  const first = want.find((l) => l.trim() !== '')?.trim() ?? '';
  if (first === '') return '';
  const target = bigrams(first);
  const scored: Array<{ line: number; score: number }> = [];
  const end = Math.min(lines.length, MAX_SCAN_LINES);
  for (let i = 0; i < end; i++) {
    const l = lines[i].trim();
    if (l === '' || l.length > first.length * 3 + 20 || first.length > l.length * 3 + 20) continue;
    const score = dice(target, bigrams(l));
    if (score >= 0.5) scored.push({ line: i, score });
  }
  if (scored.length === 0) return '';
  scored.sort((a, b) => b.score - a.score || a.line - b.line);
  const blocks = scored
    .slice(0, SHOWN)
    .map(
      (s) =>
        `lines ${s.line + 1}-${Math.min(lines.length, s.line + want.length)} (${Math.round(s.score * 100)}% similar):\n${excerpt(lines, s.line, want.length)}`,
    );
  return `\nNearest candidates:\n${blocks.join('\n')}`;
}

function whitespaceMatch(lines: string[], want: string[]): number | undefined {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const target = want.map(squash);
  if (target.every((t) => t === '')) return undefined;
  const end = Math.min(lines.length, MAX_SCAN_LINES) - want.length + 1;
  for (let i = 0; i < end; i++) {
    if (squash(lines[i]) !== target[0] && !(target[0] !== '' && squash(lines[i]).endsWith(target[0]))) continue;
    let ok = true;
    for (let j = 1; j < want.length && ok; j++) {
      const got = squash(lines[i + j]);
      ok = j === want.length - 1 ? got.startsWith(target[j]) : got === target[j];
    }
    if (ok) return i;
  }
  return undefined;
}

function excerpt(lines: string[], from: number, count: number): string {
  const shown = lines.slice(from, from + Math.min(count, 8));
  const more = count > 8 ? `\n    … (${count - 8} more lines)` : '';
  return shown.map((l, k) => `  ${from + k + 1}\t${l.length > 300 ? `${l.slice(0, 300)}…` : l}`).join('\n') + more;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let common = 0;
  let na = 0;
  let nb = 0;
  for (const v of a.values()) na += v;
  for (const v of b.values()) nb += v;
  for (const [g, v] of a) common += Math.min(v, b.get(g) ?? 0);
  return na + nb === 0 ? 0 : (2 * common) / (na + nb);
}
