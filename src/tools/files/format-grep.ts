import type { GrepFileHits } from './grep-types.js';
import { comparePaths } from './walk-files.js';

const MAX_LINE_CHARS = 500;

/** The text `grep` shows, and its counts. */
export interface FormattedGrep {
  /** `path:line:text` for matches, `path-line-text` for context, `--` between separate groups. */
  text: string;
  matches: number;
  files: number;
  truncated: boolean;
}

/**
 * Formats hits in path order, then line order, stopping at `maxResults` matching lines (context
 * after the last shown match is left out). `prefix` is put before each path (the searched folder
 * as the model sees it). The same for ripgrep's and the JavaScript search's results.
 */
export function formatGrep(hits: GrepFileHits[], o: { prefix: string; maxResults: number }): FormattedGrep {
  const sorted = [...hits].sort((a, b) => comparePaths(a.path, b.path));
  const out: string[] = [];
  let matches = 0;
  let files = 0;
  let truncated = false;
  for (const file of sorted) {
    if (matches >= o.maxResults) {
      truncated = true;
      break;
    }
    const lines = [...file.lines].sort((a, b) => a.no - b.no);
    const shownPath = `${o.prefix}${file.path}`;
    let last = -1;
    const chunk: Array<{ s: string; match: boolean }> = [];
    for (const l of lines) {
      if (l.match && matches >= o.maxResults) {
        truncated = true;
        break;
      }
      if (last !== -1 && l.no > last + 1) chunk.push({ s: '--', match: false });
      const text = l.text.length > MAX_LINE_CHARS ? `${l.text.slice(0, MAX_LINE_CHARS)}…` : l.text;
      chunk.push({ s: `${shownPath}${l.match ? ':' : '-'}${l.no}${l.match ? ':' : '-'}${text}`, match: l.match });
      last = l.no;
      if (l.match) matches++;
    }
    // Trailing context after a cut is dropped so both searches end the same way.
    while (truncated && chunk.length > 0 && !chunk[chunk.length - 1].match) chunk.pop();
    if (chunk.length > 0) {
      if (out.length > 0) out.push('--');
      out.push(...chunk.map((c) => c.s));
      files++;
    }
  }
  return { text: out.join('\n'), matches, files, truncated };
}
