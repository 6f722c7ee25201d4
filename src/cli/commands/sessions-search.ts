import type { ConversationSearchMode } from '../../types/storage/memories.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { type CliStore, formatTime, intFlag, stringFlag } from '../cli-store.js';
import { colorsFor } from '../colors.js';
import { truncate } from '../format.js';

const MODES: readonly ConversationSearchMode[] = ['keyword', 'vector', 'hybrid'];

/** The `--mode` flag, checked. */
export function searchModeFlag(value: string | boolean | undefined): ConversationSearchMode | undefined {
  const mode = stringFlag(value);
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode))
    throw new UsageError(`--mode must be keyword, vector or hybrid, not "${mode}"`, 'sessions');
  return mode as ConversationSearchMode | undefined;
}

/**
 * `corvid sessions search <query>`: messages of stored conversations, most relevant first — by
 * keywords, or also by meaning when `storage.embedder` is set (`--mode`, default hybrid then).
 */
export async function searchSessions(context: CliContext, cli: CliStore, query: string): Promise<number> {
  const v = context.values;
  const limit = intFlag(v.limit, 'limit', 'sessions', { min: 1, max: 1000 }) ?? 10;
  const mode = searchModeFlag(v.mode);
  const options = { userId: stringFlag(v.user), agent: stringFlag(v.agent), limit, ...(mode ? { mode } : {}) };
  const hits = cli.store ? await cli.store.conversations.search(query, options) : [];
  if (v.json) {
    context.stdout.write(
      `${JSON.stringify(
        hits.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })),
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  if (hits.length === 0) {
    context.stderr.write(`No messages match "${truncate(query, 60)}" in ${cli.location}\n`);
    return EXIT.ok;
  }
  const c = colorsFor(context.stdout, { ...context.globals, env: context.env });
  for (const h of hits) {
    const meta = [h.role, h.agent && `agent ${h.agent}`, formatTime(h.createdAt), `score ${Number(h.score.toPrecision(3))}`];
    context.stdout.write(`${c.bold(h.sessionId)} #${h.seq}  ${c.dim(meta.filter(Boolean).join(' · '))}\n  ${h.snippet}\n`);
  }
  return EXIT.ok;
}
