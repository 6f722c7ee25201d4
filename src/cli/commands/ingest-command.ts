import { type FSWatcher, watch } from 'node:fs';

import type { IngestReport } from '../../knowledge/index.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { type CliKnowledge, openCliKnowledge } from '../cli-knowledge.js';
import { colorsFor } from '../colors.js';
import { formatError } from '../format-error.js';
import { IngestProgressView } from '../ingest-progress.js';

/** Quiet time after the last file change before `--watch` re-ingests. */
const WATCH_DEBOUNCE_MS = 300;

function summary(name: string, r: IngestReport): string {
  const documents = r.added.length + r.updated.length + r.unchanged + r.failed.length;
  return (
    `${name}: ${documents} document${documents === 1 ? '' : 's'} read — ${r.added.length} added, ${r.updated.length} updated, ` +
    `${r.unchanged} unchanged, ${r.deleted.length} deleted, ${r.failed.length} failed; ${r.chunks} chunks written, ${r.embedded} embedded`
  );
}

const isAbort = (err: unknown, signal: AbortSignal): boolean => signal.aborted || (err as Error)?.name === 'AbortError';

/**
 * `corvid ingest [name] [--watch]`: brings the config's knowledge bases (or one) up to date with
 * their sources, one line per document indexed, deleted or failed (and a live status line on a
 * terminal), then a summary per base. `--watch` then follows the folders of directory sources and
 * re-ingests a base a moment after its files change, until Ctrl-C. Ctrl-C during an ingest stops
 * it after the document being written (every document is written in one transaction; the next run
 * resumes). Exit 1 when a base could not be ingested at all (e.g. its folder is missing), 130 when
 * interrupted (0 when watching).
 */
export async function ingestCommand(context: CliContext): Promise<number> {
  if (context.positionals.length > 1) throw new UsageError('ingest takes at most one knowledge base name', 'ingest');
  const cli = await openCliKnowledge(context);
  const names = cli.pick(context.positionals[0], 'ingest');
  const stop = new AbortController();
  const onSigint = (): void => stop.abort();
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    let failed = false;
    for (const name of names) {
      if (stop.signal.aborted) break;
      if (!(await ingestOne(context, cli, name, stop.signal))) failed = true;
    }
    const where = cli.knowledge.location.path;
    context.stderr.write(
      where === 'memory' || where === ':memory:'
        ? 'Index: in memory (storage is memory): nothing is kept after this command; use SQLite storage to search later\n'
        : `Index: ${where}\n`,
    );
    if (context.values.watch === true && !stop.signal.aborted) {
      await watchBases(context, cli, names, stop.signal);
      return EXIT.ok;
    }
    if (stop.signal.aborted) return EXIT.interrupted;
    return failed ? EXIT.failure : EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await cli.knowledge.close();
  }
}

/** Ingests one base with its progress display; false when it failed. */
async function ingestOne(context: CliContext, cli: CliKnowledge, name: string, signal: AbortSignal): Promise<boolean> {
  const kb = cli.knowledge.get(name)!;
  const started = Date.now();
  const view = new IngestProgressView({ name, lines: context.stdout, live: context.stderr });
  view.start();
  try {
    const report = await kb.ingest({ signal, onProgress: (p) => view.update(p) });
    view.clear();
    context.stdout.write(`${summary(name, report)} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    return true;
  } catch (err) {
    view.clear();
    if (isAbort(err, signal)) {
      context.stderr.write(`${name}: interrupted; what was written is complete, run corvid ingest again to finish\n`);
      return false;
    }
    const colors = colorsFor(context.stderr, { ...context.globals, env: context.env });
    context.stderr.write(`${name}: ingest failed\n${formatError(err, { debug: context.globals.debug, colors })}`);
    return false;
  }
}

/** Follows the folders of the bases' directory sources; re-ingests a base after its files change. */
async function watchBases(context: CliContext, cli: CliKnowledge, names: string[], signal: AbortSignal): Promise<void> {
  const watchers: FSWatcher[] = [];
  const running = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  const timers = new Map<string, NodeJS.Timeout>();
  const run = (name: string): void => {
    if (running.has(name)) {
      dirty.add(name);
      return;
    }
    const job = ingestOne(context, cli, name, signal)
      .then(() => undefined)
      .finally(() => {
        running.delete(name);
        if (dirty.delete(name) && !signal.aborted) run(name);
      });
    running.set(name, job);
  };
  const changed = (name: string): void => {
    clearTimeout(timers.get(name));
    timers.set(
      name,
      setTimeout(() => run(name), WATCH_DEBOUNCE_MS),
    );
  };
  let folders = 0;
  for (const name of names) {
    for (const source of cli.knowledge.sources(name)) {
      for (const path of source.watchPaths ?? []) {
        try {
          watchers.push(watch(path, { recursive: true, signal }, () => changed(name)).on('error', () => undefined));
          folders++;
        } catch (err) {
          context.stderr.write(`${name}: cannot watch ${path}: ${(err as Error).message}\n`);
        }
      }
    }
  }
  if (folders === 0) {
    context.stderr.write('Nothing to watch: --watch follows the folders of directory sources, and these knowledge bases have none\n');
    return;
  }
  context.stderr.write(`Watching ${folders} folder${folders === 1 ? '' : 's'} for changes (Ctrl-C to stop)\n`);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  for (const t of timers.values()) clearTimeout(t);
  for (const w of watchers) w.close();
  await Promise.allSettled(running.values());
  context.stderr.write('Stopped watching\n');
}
