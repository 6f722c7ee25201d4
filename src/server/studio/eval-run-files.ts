import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { z } from 'zod';

import { diffBaseline } from '../../evals/baseline-diff.js';
import type { EvalResults } from '../../evals/eval-results.js';
import { HttpError } from '../../http/http-error.js';
import { type EvalResultsFile, evalResultsSchema, type evalRunListSchema, type evalRunSchema } from './eval-schemas.js';

type EvalRunList = z.output<typeof evalRunListSchema>;
type EvalRunView = z.output<typeof evalRunSchema>;

/** A file stem `corvid eval` writes (`<suite>-<time>`, the suite with `[^\w.-]` replaced): no path separators, no leading dot. */
const EVAL_ID = /^[\w-][\w.-]{0,254}$/;
/** Files larger than this are not read. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** The newest files listed, at most. */
const MAX_FILES = 1000;

/** One file of the directory as last read: its results, or why they cannot be read. */
type Entry = { id: string; mtimeMs: number; size: number } & ({ results: EvalResultsFile } | { message: string });
type Readable = Entry & { results: EvalResultsFile };

/**
 * The eval runs `corvid eval` saved in a directory (`.corvid/evals/`): lists them, newest first,
 * and reads one with the changes since the previous run of its suite. Files are parsed once per
 * version (path, size and modification time); a file that is not an eval result is listed as
 * unreadable and answered with a 422.
 */
export class EvalRunFiles {
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly dir: string) {}

  /** Every run (newest first) and the files that could not be read. */
  async list(): Promise<EvalRunList> {
    const entries = await this.entries();
    const runs = entries.filter(isReadable).map(({ id, results: r }) => ({
      id,
      suite: r.suite,
      agent: r.agent,
      startedAt: r.startedAt,
      durationMs: r.durationMs,
      k: r.k,
      cases: r.cases.length,
      pass: r.pass,
      gates: r.gates,
    }));
    const unreadable = entries
      .flatMap((e) => ('message' in e ? [{ id: e.id, message: e.message }] : []))
      .sort((a, b) => a.id.localeCompare(b.id));
    return { runs, unreadable };
  }

  /**
   * One run with the changes since the run of the same suite before it.
   * @throws HttpError 400 for a malformed id, 404 for an unknown one, 422 for a file that is no eval result.
   */
  async get(id: string): Promise<EvalRunView> {
    if (!EVAL_ID.test(id))
      throw new HttpError(400, 'invalid_eval_id', `"${id.slice(0, 100)}" is not an eval run id: letters, digits, ".", "_" and "-" only`);
    const entries = await this.entries();
    const entry = entries.find((e) => e.id === id);
    if (entry === undefined) throw new HttpError(404, 'eval_not_found', `No eval run "${id}" in .corvid/evals/`);
    if (!isReadable(entry)) throw new HttpError(422, 'eval_unreadable', `The eval run "${id}" cannot be read: ${entry.message}`);
    const previous = previousOf(entry, entries.filter(isReadable));
    if (previous === undefined) return { id, results: entry.results };
    return {
      id,
      results: entry.results,
      previous: { id: previous.id, startedAt: previous.results.startedAt },
      changes: diffBaseline(entry.results as EvalResults, previous.results as EvalResults),
    };
  }

  /** The directory's eval files, newest first (missing directory: none). */
  private async entries(): Promise<Entry[]> {
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [] as string[];
      throw err;
    });
    const ids = names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -5))
      .filter((id) => EVAL_ID.test(id));
    const entries = (await Promise.all(ids.map((id) => this.entry(id)))).filter((e): e is Entry => e !== undefined);
    for (const id of this.cache.keys()) if (!ids.includes(id)) this.cache.delete(id);
    return entries.sort((a, b) => startOf(b) - startOf(a) || b.id.localeCompare(a.id)).slice(0, MAX_FILES);
  }

  /** One file, from the cache while it is unchanged; undefined when it is gone or not a file. */
  private async entry(id: string): Promise<Entry | undefined> {
    const path = join(this.dir, `${id}.json`);
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile()) return undefined;
    const cached = this.cache.get(id);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const base = { id, mtimeMs: info.mtimeMs, size: info.size };
    const entry: Entry =
      info.size > MAX_FILE_BYTES
        ? { ...base, message: `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` }
        : { ...base, ...parseResults(await readFile(path, 'utf8').catch((err: Error) => err)) };
    this.cache.set(id, entry);
    return entry;
  }
}

function isReadable(e: Entry): e is Readable {
  return 'results' in e;
}

/** The results of a file's text, or why it is none. */
function parseResults(text: string | Error): { results: EvalResultsFile } | { message: string } {
  if (text instanceof Error) return { message: text.message };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { message: `not JSON (${(err as Error).message})` };
  }
  const parsed = evalResultsSchema.safeParse(value);
  if (parsed.success) return { results: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? ` at "${issue.path.map(String).join('.')}"` : '';
  return { message: `not a corvid eval result${where}: ${issue.message}` };
}

/** When a run started (its file's time when the results carry no date). */
function startOf(e: Entry): number {
  const at = isReadable(e) ? Date.parse(e.results.startedAt) : Number.NaN;
  return Number.isNaN(at) ? e.mtimeMs : at;
}

/** The latest run of the same suite that started before `entry`. */
function previousOf(entry: Readable, runs: Readable[]): Readable | undefined {
  const at = startOf(entry);
  return runs.find(
    (r) => r.id !== entry.id && r.results.suite === entry.results.suite && (startOf(r) < at || (startOf(r) === at && r.id < entry.id)),
  );
}
