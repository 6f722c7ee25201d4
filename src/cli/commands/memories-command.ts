import { readFile } from 'node:fs/promises';

import { CorvidError } from '../../errors/corvid-error.js';
import type { Memory, MemoryScope } from '../../types/storage/memories.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { type CliStore, formatTime, intFlag, openCliStore, stringFlag } from '../cli-store.js';
import { colorsFor } from '../colors.js';
import { compact, truncate } from '../format.js';
import { readAll } from '../read-all.js';

const SUBCOMMANDS = ['list', 'search', 'delete', 'export', 'import'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
/** What each subcommand takes as positionals. */
const ARGS: Record<Subcommand, string | undefined> = {
  list: undefined,
  search: '<query>',
  delete: '<key>',
  export: undefined,
  import: '<file>',
};

/** The agent whose memories are meant: --agent, else the config's default agent, else `assistant`. */
async function scopeOf(context: CliContext): Promise<MemoryScope> {
  const agent = stringFlag(context.values.agent);
  const userId = stringFlag(context.values.user) ?? 'default';
  if (agent !== undefined) return { userId, agent };
  const { loadConfig } = await import('../../config/load-config.js');
  const { config } = await loadConfig({ path: context.globals.config, cwd: context.cwd, env: context.env, sections: ['storage'] });
  return { userId, agent: config.defaults.agent ?? Object.keys(config.agents)[0] ?? 'assistant' };
}

function memoryJson(m: Memory): Record<string, unknown> {
  return { ...m, createdAt: m.createdAt.toISOString(), updatedAt: m.updatedAt.toISOString() };
}

function printMemories(context: CliContext, memories: Memory[], scores?: number[]): void {
  const c = colorsFor(context.stdout, { ...context.globals, env: context.env });
  for (const [i, m] of memories.entries()) {
    const meta = [
      m.category,
      m.tags.length ? m.tags.map((t) => `#${t}`).join(' ') : undefined,
      `importance ${m.importance}`,
      formatTime(m.updatedAt),
    ];
    if (scores) meta.push(`score ${Number(scores[i]!.toPrecision(3))}`);
    context.stdout.write(
      `${c.bold(m.key)}  ${c.dim(meta.filter(Boolean).join(' · '))}\n  ${truncate(m.value.replace(/\s+/g, ' '), 300)}\n`,
    );
  }
}

async function run(context: CliContext, cli: CliStore, command: Subcommand, arg: string | undefined, scope: MemoryScope): Promise<number> {
  const v = context.values;
  const who = `user "${scope.userId}", agent "${scope.agent}"`;
  const store = cli.store;
  switch (command) {
    case 'list': {
      const limit = intFlag(v.limit, 'limit', 'memories', { min: 1, max: 10_000 }) ?? 100;
      const found = store ? await store.memories.list(scope, { category: stringFlag(v.category), limit }) : [];
      if (v.json) context.stdout.write(`${JSON.stringify(found.map(memoryJson), null, 2)}\n`);
      else if (found.length === 0) context.stderr.write(`No memories for ${who} in ${cli.location}\n`);
      else printMemories(context, found);
      return EXIT.ok;
    }
    case 'search': {
      const limit = intFlag(v.limit, 'limit', 'memories', { min: 1, max: 1000 }) ?? 10;
      const hits = store ? await store.memories.search(scope, arg!, { limit }) : [];
      if (v.json)
        context.stdout.write(
          `${JSON.stringify(
            hits.map((h) => ({ ...memoryJson(h.memory), score: h.score })),
            null,
            2,
          )}\n`,
        );
      else if (hits.length === 0) context.stderr.write(`No memories of ${who} match ${compact(arg)}\n`);
      else
        printMemories(
          context,
          hits.map((h) => h.memory),
          hits.map((h) => h.score),
        );
      return EXIT.ok;
    }
    case 'delete': {
      if (!store || !(await store.memories.delete(scope, arg!))) {
        throw new CorvidError(`Memory "${arg}" not found for ${who} (in ${cli.location})`, { code: 'not_found' });
      }
      context.stderr.write(`Deleted memory "${arg}" of ${who}.\n`);
      return EXIT.ok;
    }
    case 'export': {
      context.stdout.write(`${JSON.stringify(store ? await store.memories.exportJson(scope) : {}, null, 2)}\n`);
      return EXIT.ok;
    }
    case 'import': {
      const text =
        arg === '-'
          ? await readAll(context.stdin)
          : await readFile(arg!, 'utf8').catch((err: NodeJS.ErrnoException) => {
              throw new CorvidError(`Cannot read ${arg}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, {
                code: 'validation_failed',
                cause: err,
              });
            });
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (err) {
        throw new CorvidError(`${arg === '-' ? 'stdin' : arg} is not valid JSON: ${(err as Error).message}`, {
          code: 'validation_failed',
          cause: err,
        });
      }
      const count = await store!.memories.importJson(scope, data as never, { replace: v.replace === true });
      context.stderr.write(
        `Imported ${count} memor${count === 1 ? 'y' : 'ies'} for ${who}${v.replace ? ' (replacing the others)' : ''}.\n`,
      );
      return EXIT.ok;
    }
    default: {
      const never: never = command;
      throw new UsageError(`unknown subcommand "${String(never)}"`, 'memories');
    }
  }
}

/** `corvid memories list|search|delete|export|import`. */
export async function memoriesCommand(context: CliContext): Promise<number> {
  const [sub, arg, ...extra] = context.positionals;
  if (sub === undefined) throw new UsageError(`missing subcommand: corvid memories ${SUBCOMMANDS.join('|')}`, 'memories');
  if (!(SUBCOMMANDS as readonly string[]).includes(sub))
    throw new UsageError(`unknown subcommand "${sub}": use ${SUBCOMMANDS.join(', ')}`, 'memories');
  const command = sub as Subcommand;
  const wanted = ARGS[command];
  if (wanted === undefined && arg !== undefined)
    throw new UsageError(`Unexpected argument "${arg}" for "corvid memories ${command}"`, 'memories');
  if (wanted !== undefined && (arg === undefined || arg === ''))
    throw new UsageError(`missing ${wanted}: corvid memories ${command} ${wanted}`, 'memories');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}" for "corvid memories ${command}"`, 'memories');
  const scope = await scopeOf(context);
  const cli = await openCliStore(context, { create: command === 'import', vectorSearch: command === 'search' });
  try {
    return await run(context, cli, command, arg, scope);
  } finally {
    await cli.close();
  }
}
