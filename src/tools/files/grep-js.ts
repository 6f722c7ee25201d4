import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

import picomatch from 'picomatch';

import type { GrepFileHits, GrepLine, GrepQuery } from './grep-types.js';
import { looksBinary } from './text-file.js';
import { walkFiles } from './walk-files.js';

const SLICE = 64;

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
  // Small files are read synchronously (far cheaper than a thread-pool round trip per file), in
  // slices that give the event loop a turn between them.
  const hits: GrepFileHits[] = [];
  for (let i = 0; i < files.length; i++) {
    if (i % SLICE === 0 && i > 0) {
      await new Promise((r) => setImmediate(r));
      if (q.signal?.aborted) break;
    }
    const hit = searchFile(join(q.dir, files[i]), files[i], { line, whole, q });
    if (hit) hits.push(hit);
  }
  return hits;
}

/** A glob without `/` matches file names at any depth (like ripgrep's `--type-add`); with `/`, the relative path. */
export function fileGlobMatcher(glob: string): (path: string) => boolean {
  return picomatch(glob, { dot: true, basename: !glob.includes('/') });
}

function searchFile(path: string, rel: string, o: { line: RegExp; whole?: RegExp; q: GrepQuery }): GrepFileHits | undefined {
  const buf = readSmallFile(path, o.q);
  if (buf === undefined) return undefined;
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

/** The file's bytes, or `undefined` for what grep skips (not a regular file, too large, hard-linked when refused, unreadable). */
function readSmallFile(path: string, q: GrepQuery): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > q.maxFileBytes || (q.skipHardLinks && info.nlink > 1)) return undefined;
    const buf = Buffer.allocUnsafe(info.size);
    let got = 0;
    while (got < info.size) {
      const n = readSync(fd, buf, got, info.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === info.size ? buf : buf.subarray(0, got);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
