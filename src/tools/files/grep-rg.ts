import { spawn } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

import { fileGlobMatcher } from './grep-js.js';
import type { GrepFileHits, GrepQuery } from './grep-types.js';

/** ripgrep could not run the query (not installed, or it does not accept the pattern): use the JS search. */
export class RipgrepUnavailable extends Error {}

let found: Promise<string | undefined> | undefined;

/** The `rg` on PATH, looked up once. */
export function findRipgrep(): Promise<string | undefined> {
  found ??= (async () => {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (!dir) continue;
      const candidate = join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
      if (
        await access(candidate, constants.X_OK).then(
          () => true,
          () => false,
        )
      )
        return candidate;
    }
    return undefined;
  })();
  return found;
}

/** ripgrep flags that make it walk like `walkFiles`: hidden files, .gitignore (only), no `.git`, no links. */
function rgArgs(q: GrepQuery): string[] {
  const args = ['--no-config', '--null', '--line-number', '--no-heading', '--with-filename', '--color', 'never', '--hidden'];
  args.push(
    ...(q.gitignore
      ? ['--no-require-git', '--no-ignore-parent', '--no-ignore-global', '--no-ignore-exclude', '--no-ignore-dot']
      : ['--no-ignore']),
  );
  args.push('--glob', '!.git', '--max-filesize', String(q.maxFileBytes), '--max-count', String(q.maxResults));
  if (q.context > 0) args.push('--context', String(q.context));
  if (q.ignoreCase) args.push('--ignore-case');
  if (q.fileGlob && !q.fileGlob.includes('/')) args.push('--type-add', `corvid:${q.fileGlob}`, '--type', 'corvid');
  args.push('--regexp', q.pattern, '--');
  if (q.file !== undefined) args.push(q.file);
  return args;
}

/** Runs ripgrep in `q.dir` and parses its `--null` output into per-file hits. */
export async function grepRg(rg: string, q: GrepQuery): Promise<GrepFileHits[]> {
  const { code, stdout, stderr } = await run(rg, rgArgs(q), q);
  if (code === 2 && stdout.length === 0) throw new RipgrepUnavailable(stderr.trim() || 'rg failed');
  const byFile = new Map<string, GrepFileHits>();
  const glob = q.fileGlob?.includes('/') ? fileGlobMatcher(q.fileGlob) : undefined;
  for (const raw of stdout.split('\n')) {
    const nul = raw.indexOf('\0');
    if (nul === -1) continue; // "--" separators, warnings
    const path = raw.slice(0, nul);
    const m = /^(\d+)([:-])/.exec(raw.slice(nul + 1, nul + 24));
    if (!m) continue;
    let text = raw.slice(nul + 1 + m[0].length);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (glob && !glob(path)) continue;
    if (q.skip(path, false)) continue;
    let hits = byFile.get(path);
    if (!hits) byFile.set(path, (hits = { path, lines: [] }));
    hits.lines.push({ no: Number(m[1]), text, match: m[2] === ':' });
  }
  const hits = [...byFile.values()];
  if (!q.skipHardLinks) return hits;
  const links = await Promise.all(
    hits.map((h) =>
      stat(join(q.dir, h.path)).then(
        (s) => s.nlink,
        () => 2,
      ),
    ),
  );
  return hits.filter((_, i) => links[i] <= 1);
}

function run(cmd: string, args: string[], q: GrepQuery): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: q.dir, stdio: ['ignore', 'pipe', 'pipe'], signal: q.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject((e as NodeJS.ErrnoException).code === 'ENOENT' ? new RipgrepUnavailable('rg not found') : e));
    child.on('close', (code) =>
      resolve({ code: code ?? 2, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}
