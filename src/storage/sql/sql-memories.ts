import type {
  ConversationSearch,
  Memory,
  MemoryFilter,
  MemoryInput,
  MemoryRecord,
  MemoryScope,
  MemorySearchHit,
  MemoryStore,
  MessageSearchHit,
  MessageSearchOptions,
} from '../../types/storage/memories.js';
import { memorySearchText } from '../shared/entry-text.js';
import { exportRecords, prepareImport } from '../shared/memory-import.js';
import { type MemoryRow, toMemory } from '../shared/rows.js';
import { makeSnippet, queryTerms } from '../shared/text-search.js';
import { checkKeywordMode, checkLimit, checkMemoryScope, normalizeMemory } from '../shared/validate.js';
import type { SqlClient, SqlValue } from './sql-client.js';
import type { SqlContext } from './sql-sessions.js';

/** Columns of a memory as read back. */
export const MEMORY_COLUMNS = 'm.id, m.mem_key, m.value, m.category, m.tags, m.importance, m.created_at, m.updated_at';

/** SQL conditions (on alias `m`) for a memory filter; used by list and by the backends' searches. */
export function memoryConditions(scope: MemoryScope, f: Omit<MemoryFilter, 'limit'>): { where: string; params: SqlValue[] } {
  const where = ['m.user_id = ?', 'm.agent = ?'];
  const params: SqlValue[] = [scope.userId, scope.agent];
  if (f.category !== undefined) (where.push('m.category = ?'), params.push(f.category));
  if (f.minImportance !== undefined) (where.push('m.importance >= ?'), params.push(f.minImportance));
  const tags = [...new Set(f.tags ?? [])];
  if (tags.length > 0) {
    const list = tags.map(() => '?').join(', ');
    where.push(
      f.tagMode === 'all'
        ? `(SELECT COUNT(*) FROM corvid_memory_tags t WHERE t.memory_id = m.id AND t.tag IN (${list})) = ${tags.length}`
        : `EXISTS (SELECT 1 FROM corvid_memory_tags t WHERE t.memory_id = m.id AND t.tag IN (${list}))`,
    );
    params.push(...tags);
  }
  return { where: where.join(' AND '), params };
}

type Normalized = ReturnType<typeof normalizeMemory>;

/** Long-term memories on a SQL backend; search uses the backend's full-text index. */
export class SqlMemoryStore implements MemoryStore {
  constructor(private readonly c: SqlContext) {}

  private scope(scope: MemoryScope) {
    this.c.check();
    checkMemoryScope(scope);
    return this.c.backend;
  }

  private async write(
    tx: SqlClient,
    scope: MemoryScope,
    m: Normalized,
    now: number,
    createdAt?: number,
    updatedAt?: number,
  ): Promise<MemoryRow> {
    const b = this.c.backend;
    const columns = ['user_id', 'agent', 'mem_key', 'value', 'category', 'tags', 'importance', 'search_text', 'created_at', 'updated_at'];
    const update = [
      'value',
      'category',
      'tags',
      'importance',
      'search_text',
      'updated_at',
      ...(createdAt !== undefined ? ['created_at'] : []),
    ];
    await tx.run(b.upsert('corvid_memories', columns, ['user_id', 'agent', 'mem_key'], update), [
      scope.userId,
      scope.agent,
      m.key,
      m.value,
      m.category ?? null,
      JSON.stringify(m.tags),
      m.importance,
      memorySearchText(m),
      createdAt ?? now,
      updatedAt ?? now,
    ]);
    const rows = await tx.all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM corvid_memories m WHERE m.user_id = ? AND m.agent = ? AND m.mem_key = ?`,
      [scope.userId, scope.agent, m.key],
    );
    const row = rows[0];
    await tx.run('DELETE FROM corvid_memory_tags WHERE memory_id = ?', [row.id!]);
    if (m.tags.length > 0) {
      await tx.run(
        `INSERT INTO corvid_memory_tags (memory_id, tag) VALUES ${m.tags.map(() => '(?, ?)').join(', ')}`,
        m.tags.flatMap((t) => [row.id!, t]),
      );
    }
    return row;
  }

  async save(scope: MemoryScope, input: MemoryInput): Promise<Memory> {
    const b = this.scope(scope);
    const m = normalizeMemory(input);
    const now = this.c.now();
    return toMemory(await b.db.transaction((tx) => this.write(tx, scope, m, now)));
  }

  async get(scope: MemoryScope, key: string): Promise<Memory | undefined> {
    const b = this.scope(scope);
    const rows = await b.db.all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM corvid_memories m WHERE m.user_id = ? AND m.agent = ? AND m.mem_key = ?`,
      [scope.userId, scope.agent, key],
    );
    return rows[0] ? toMemory(rows[0]) : undefined;
  }

  async list(scope: MemoryScope, filter: MemoryFilter = {}): Promise<Memory[]> {
    const b = this.scope(scope);
    const limit = checkLimit(filter.limit, 100, 10_000);
    const { where, params } = memoryConditions(scope, filter);
    const rows = await b.db.all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM corvid_memories m WHERE ${where} ORDER BY m.updated_at DESC, m.id DESC LIMIT ${limit}`,
      params,
    );
    return rows.map(toMemory);
  }

  async search(
    scope: MemoryScope,
    query: string,
    options: { limit?: number; category?: string; minImportance?: number } = {},
  ): Promise<MemorySearchHit[]> {
    const b = this.scope(scope);
    const limit = checkLimit(options.limit, 10);
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const hits = await b.searchMemories(scope, terms, { category: options.category, minImportance: options.minImportance }, limit);
    return hits.map((h) => ({ memory: toMemory(h.row), score: h.score }));
  }

  async delete(scope: MemoryScope, key: string): Promise<boolean> {
    const b = this.scope(scope);
    return b.db.transaction(async (tx) => {
      await tx.run(
        'DELETE FROM corvid_memory_tags WHERE memory_id IN (SELECT id FROM corvid_memories WHERE user_id = ? AND agent = ? AND mem_key = ?)',
        [scope.userId, scope.agent, key],
      );
      return (
        (await tx.run('DELETE FROM corvid_memories WHERE user_id = ? AND agent = ? AND mem_key = ?', [scope.userId, scope.agent, key])) > 0
      );
    });
  }

  async exportJson(scope: MemoryScope): Promise<Record<string, MemoryRecord>> {
    const b = this.scope(scope);
    const rows = await b.db.all<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM corvid_memories m WHERE m.user_id = ? AND m.agent = ? ORDER BY m.updated_at, m.id`,
      [scope.userId, scope.agent],
    );
    return exportRecords(rows.map(toMemory));
  }

  async importJson(
    scope: MemoryScope,
    data: Record<string, Partial<MemoryRecord> & { value: string }>,
    options: { replace?: boolean } = {},
  ): Promise<number> {
    const b = this.scope(scope);
    const items = prepareImport(data);
    const now = this.c.now();
    await b.db.transaction(async (tx) => {
      if (options.replace) {
        await tx.run('DELETE FROM corvid_memory_tags WHERE memory_id IN (SELECT id FROM corvid_memories WHERE user_id = ? AND agent = ?)', [
          scope.userId,
          scope.agent,
        ]);
        await tx.run('DELETE FROM corvid_memories WHERE user_id = ? AND agent = ?', [scope.userId, scope.agent]);
      }
      for (const it of items) await this.write(tx, scope, it.memory, now, it.createdAt, it.updatedAt ?? it.createdAt);
    });
    return items.length;
  }
}

/** Conversation search on a SQL backend's full-text index. */
export class SqlConversationSearch implements ConversationSearch {
  constructor(private readonly c: SqlContext) {}

  readonly modes = ['keyword'] as const;

  async search(query: string, options: MessageSearchOptions = {}): Promise<MessageSearchHit[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 20);
    checkKeywordMode(options.mode);
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const hits = await this.c.backend.searchMessages(terms, options, limit);
    return hits.map(({ row, score }) => {
      const hit: MessageSearchHit = {
        sessionId: row.session_id,
        seq: Number(row.seq),
        snippet: makeSnippet(row.search_text, terms),
        score,
        createdAt: new Date(Number(row.created_at)),
      };
      if (row.agent != null) hit.agent = row.agent;
      if (row.role != null) hit.role = row.role;
      return hit;
    });
  }
}
