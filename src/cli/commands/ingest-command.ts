import type { IngestReport } from '../../knowledge/index.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { openCliKnowledge } from '../cli-knowledge.js';
import { colorsFor } from '../colors.js';
import { formatError } from '../format-error.js';

function summary(name: string, r: IngestReport): string {
  const documents = r.added.length + r.updated.length + r.unchanged + r.failed.length;
  return (
    `${name}: ${documents} document${documents === 1 ? '' : 's'} read — ${r.added.length} added, ${r.updated.length} updated, ` +
    `${r.unchanged} unchanged, ${r.deleted.length} deleted, ${r.failed.length} failed; ${r.chunks} chunks written, ${r.embedded} embedded`
  );
}

/**
 * `corvid ingest [name]`: brings the config's knowledge bases (or one) up to date with their
 * sources, one line per document indexed, deleted or failed, then a summary per base. Exit 1 when
 * a base could not be ingested at all (e.g. its folder is missing).
 */
export async function ingestCommand(context: CliContext): Promise<number> {
  if (context.positionals.length > 1) throw new UsageError('ingest takes at most one knowledge base name', 'ingest');
  const cli = await openCliKnowledge(context);
  const names = cli.pick(context.positionals[0], 'ingest');
  const colors = colorsFor(context.stderr, { ...context.globals, env: context.env });
  let failed = false;
  try {
    for (const name of names) {
      const kb = cli.knowledge.get(name)!;
      const started = Date.now();
      try {
        const report = await kb.ingest({
          onProgress: (p) => {
            if (p.status === 'unchanged') return;
            const why = p.error ? `: ${p.error.message}` : '';
            context.stdout.write(`${name}: ${p.status} ${p.uri}${why}\n`);
          },
        });
        context.stdout.write(`${summary(name, report)} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
      } catch (err) {
        failed = true;
        context.stderr.write(`${name}: ingest failed\n${formatError(err, { debug: context.globals.debug, colors })}`);
      }
    }
    const where = cli.knowledge.location.path;
    context.stderr.write(
      where === 'memory' || where === ':memory:'
        ? 'Index: in memory (storage is memory): nothing is kept after this command; use SQLite storage to search later\n'
        : `Index: ${where}\n`,
    );
  } finally {
    await cli.knowledge.close();
  }
  return failed ? EXIT.failure : EXIT.ok;
}
