import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { GrepFileHits, GrepLine, GrepQuery } from './grep-types.js';
import { looksBinary } from './text-file.js';
import { walkFiles } from './walk-files.js';

const CONCURRENCY = 16;

/** `grep` without ripgrep: walks the folder (same rules as ripgrep's flags) and searches each text file. */
export async function grepJs(q: GrepQuery): Promise<GrepFileHits[]> {
  const flags = q.ignoreCase ? 'i' : '';
  const line = new RegExp(q.pattern, flags);
  // A whole-file test skips most files cheaply; it can only say "maybe" (multi-line mode), never miss a line match.
  const whole = /\(\?<[=!]/.test(q.pattern) ? undefined : new RegExp(q.pattern, `${flags}m`);
  let files: string[];
  if (q.file !== undefined) files = [q.file];
  else {
    const walked = await walkFiles(q.dir, { gitignore: q.gitignore, skip: q.skip });
    const glob = q.fileGlob ? fileGlobMatcher(q.fileGlob) : undefined;
    files = glob ? walked.files.filter(glob) : walked.files;
  }
  const hits: Array<GrepFileHits | undefined> = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      if (q.signal?.aborted) return;
      const i = next++;
      hits[i] = await searchFile(join(q.dir, files[i]), files[i], { line, whole, q });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  return hits.filter((h): h is GrepFileHits => h !== undefined);
}

/** A glob without `/` matches file names at any depth (like ripgrep's `--type-add`); with `/`, the relative path. */
export function fileGlobMatcher(glob: string): (path: string) => boolean {
  return picomatch(glob, { dot: true, basename: !glob.includes('/') });
}

async function searchFile(path: string, rel: string, o: { line: RegExp; whole?: RegExp; q: GrepQuery }): Promise<GrepFileHits | undefined> {
  let buf: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > o.q.maxFileBytes || (o.q.skipHardLinks && info.nlink > 1)) return undefined;
    buf = await readFile(path);
  } catch {
    return undefined;
  }
  if (looksBinary(buf)) return undefined;
  const text = buf.toString('utf8');
  if (o.whole && !o.whole.test(text)) return undefined;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const matched: number[] = [];
  for (let i = 0; i < lines.length && matched.length < o.q.maxResults; i++) {
    let l = lines[i];
    if (l.endsWith('\r')) l = lines[i] = l.slice(0, -1);
    if (o.line.test(l)) matched.push(i);
  }
  if (matched.length === 0) return undefined;
  return { path: rel, lines: withContext(lines, matched, o.q.context) };
}

function withContext(lines: string[], matched: number[], context: number): GrepLine[] {
  const out: GrepLine[] = [];
  const isMatch = new Set(matched);
  let shownUpTo = -1;
  for (const m of matched) {
    const from = Math.max(shownUpTo + 1, m - context);
    const to = Math.min(lines.length - 1, m + context);
    for (let i = from; i <= to; i++) {
      const l = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      out.push({ no: i + 1, text: l, match: isMatch.has(i) });
    }
    shownUpTo = Math.max(shownUpTo, to);
  }
  return out;
}
