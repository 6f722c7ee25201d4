import type { KnowledgeIndexInfo } from '../../types/knowledge.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { openCliKnowledge } from '../cli-knowledge.js';
import { colorsFor } from '../colors.js';

const SUBCOMMANDS = ['list', 'stats', 'drop'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function describe(name: string, info: KnowledgeIndexInfo | undefined): string {
  if (!info) return `${name}  not indexed`;
  const embedder = info.embedder
    ? `${info.embedder.model}${info.embedder.dimensions ? ` (${info.embedder.dimensions} dims)` : ''}`
    : 'none (keyword only)';
  return `${name}  ${info.documents} documents, ${info.chunks} chunks, embedder ${embedder}${info.updatedAt ? `, updated ${info.updatedAt.slice(0, 16).replace('T', ' ')}` : ''}`;
}

/**
 * `corvid knowledge list|stats|drop`: the knowledge bases of the config and what their index
 * holds. `list` and `stats` only read (a store that does not exist yet is not created).
 */
export async function knowledgeCommand(context: CliContext): Promise<number> {
  const [sub, name] = context.positionals;
  if (!SUBCOMMANDS.includes(sub as Subcommand)) {
    throw new UsageError(`knowledge needs a subcommand: ${SUBCOMMANDS.join(', ')}${sub ? ` (not "${sub}")` : ''}`, 'knowledge');
  }
  const command = sub as Subcommand;
  if (command === 'list' && name !== undefined) throw new UsageError('knowledge list takes no name', 'knowledge');
  if (command !== 'list' && name === undefined) throw new UsageError(`knowledge ${command} needs a knowledge base name`, 'knowledge');
  const cli = await openCliKnowledge(context);
  const { location } = cli.knowledge;
  try {
    const infos = location.exists ? await (await cli.knowledge.store()).listIndexes() : [];
    const byName = new Map(infos.map((i) => [i.name, i]));
    const c = colorsFor(context.stdout, { ...context.globals, env: context.env });
    switch (command) {
      case 'list': {
        if (context.values.json) {
          const rows = cli.names.map((n) => ({ name: n, indexed: byName.has(n), ...byName.get(n) }));
          context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        } else for (const n of cli.names) context.stdout.write(`${describe(c.bold(n), byName.get(n))}\n`);
        context.stderr.write(`Index: ${location.path}\n`);
        return EXIT.ok;
      }
      case 'stats': {
        cli.pick(name, 'knowledge');
        const info = byName.get(name!);
        if (context.values.json) context.stdout.write(`${JSON.stringify({ name, indexed: info !== undefined, ...info }, null, 2)}\n`);
        else context.stdout.write(`${describe(c.bold(name!), info)}\n`);
        return EXIT.ok;
      }
      case 'drop': {
        // Any index of the store may be dropped, also one no longer in the config.
        const dropped = location.exists && (await (await cli.knowledge.store()).dropIndex(name!));
        if (!dropped) {
          context.stderr.write(`No index "${name}" in ${location.path}\n`);
          return EXIT.failure;
        }
        context.stdout.write(`Dropped "${name}" (${byName.get(name!)?.documents ?? 0} documents) from ${location.path}\n`);
        return EXIT.ok;
      }
      default: {
        const never: never = command;
        throw new Error(`unhandled subcommand ${String(never)}`);
      }
    }
  } finally {
    await cli.knowledge.close();
  }
}
