import type { KnowledgeHit, SearchMode } from '../../knowledge/index.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { openCliKnowledge } from '../cli-knowledge.js';
import { intFlag, stringFlag } from '../cli-store.js';
import { colorsFor } from '../colors.js';
import { truncate } from '../format.js';

const MODES: readonly SearchMode[] = ['keyword', 'vector', 'hybrid'];

/** The first `n` non-empty lines of a chunk's text. */
function firstLines(text: string, n: number): string[] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, n)
    .map((l) => truncate(l, 160));
}

/**
 * `corvid search <query>`: searches the config's knowledge bases (or `--knowledge <name>`) and
 * prints each hit's score, citation and first lines. Reads only: a store that does not exist yet
 * is not created, and a base never ingested is reported as such.
 */
export async function searchCommand(context: CliContext): Promise<number> {
  const v = context.values;
  const query = context.positionals.join(' ').trim();
  if (!query) throw new UsageError('search needs a query, e.g. corvid search "how do I deploy?"', 'search');
  const mode = stringFlag(v.mode);
  if (mode !== undefined && !MODES.includes(mode as SearchMode))
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}`, 'search');
  const topK = intFlag(v['top-k'], 'top-k', 'search', { min: 1, max: 100 });
  const cli = await openCliKnowledge(context);
  const names = cli.pick(stringFlag(v.knowledge), 'search');
  const { location } = cli.knowledge;
  const results: Array<{ knowledge: string; hits: KnowledgeHit[] }> = [];
  try {
    const indexed = location.exists ? new Set((await (await cli.knowledge.store()).listIndexes()).map((i) => i.name)) : new Set<string>();
    for (const name of names) {
      if (!indexed.has(name)) {
        context.stderr.write(`${name}: not indexed yet in ${location.path}; run corvid ingest ${name}\n`);
        continue;
      }
      const hits = await cli.knowledge.get(name)!.search(query, { mode: mode as SearchMode | undefined, topK });
      results.push({ knowledge: name, hits });
    }
  } finally {
    await cli.knowledge.close();
  }
  if (v.json) {
    const rows = results.flatMap((r) =>
      r.hits.map((h) => ({
        knowledge: r.knowledge,
        score: h.score,
        citation: h.citation,
        uri: h.chunk.documentUri,
        ...(h.chunk.location.lines ? { lines: h.chunk.location.lines } : {}),
        ...(h.chunk.location.headings?.length ? { headings: h.chunk.location.headings } : {}),
        text: h.chunk.text,
      })),
    );
    context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.ok;
  }
  const c = colorsFor(context.stdout, { ...context.globals, env: context.env });
  for (const r of results) {
    if (r.hits.length === 0) context.stderr.write(`${r.knowledge}: no matches\n`);
    for (const h of r.hits) {
      const where = names.length > 1 ? `${r.knowledge}: ` : '';
      context.stdout.write(`${c.bold(`${where}${h.citation}`)}  ${c.dim(`score ${Number(h.score.toPrecision(3))}`)}\n`);
      for (const line of firstLines(h.chunk.text, 3)) context.stdout.write(`  ${line}\n`);
    }
  }
  return EXIT.ok;
}
