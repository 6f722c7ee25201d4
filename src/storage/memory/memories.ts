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
import { bm25Scores, makeSnippet, queryTerms } from '../shared/text-search.js';
import { checkKeywordMode, checkLimit, checkMemoryScope, normalizeMemory } from '../shared/validate.js';
import { k, type MemMemory } from './data.js';
import type { MemContext } from './sessions.js';

function toMemory(m: MemMemory): Memory {
  const out: Memory = {
    key: m.key,
    value: m.value,
    tags: [...m.tags],
    importance: m.importance,
    createdAt: new Date(m.createdAt),
    updatedAt: new Date(m.updatedAt),
  };
  if (m.category !== undefined) out.category = m.category;
  return out;
}

const newestFirst = (a: MemMemory, b: MemMemory) => b.updatedAt - a.updatedAt || b.order - a.order;

/** Long-term memories held in memory, searched with BM25. */
export class MemoryMemoryStore implements MemoryStore {
  constructor(private readonly c: MemContext) {}

  private scoped(scope: MemoryScope): Map<string, MemMemory> {
    this.c.check();
    checkMemoryScope(scope);
    const key = k(scope.userId, scope.agent);
    let map = this.c.data.memories.get(key);
    if (!map) this.c.data.memories.set(key, (map = new Map()));
    return map;
  }

  private put(map: Map<string, MemMemory>, m: ReturnType<typeof normalizeMemory>, createdAt?: number, updatedAt?: number): MemMemory {
    const now = this.c.now();
    const existing = map.get(m.key);
    const row: MemMemory = {
      key: m.key,
      value: m.value,
      category: m.category,
      tags: m.tags,
      importance: m.importance,
      createdAt: createdAt ?? existing?.createdAt ?? now,
      updatedAt: updatedAt ?? now,
      order: this.c.data.next(),
    };
    map.set(m.key, row);
    return row;
  }

  async save(scope: MemoryScope, input: MemoryInput): Promise<Memory> {
    const map = this.scoped(scope);
    return toMemory(this.put(map, normalizeMemory(input)));
  }

  async get(scope: MemoryScope, key: string): Promise<Memory | undefined> {
    const m = this.scoped(scope).get(key);
    return m ? toMemory(m) : undefined;
  }

  private filtered(scope: MemoryScope, f: Omit<MemoryFilter, 'limit'>): MemMemory[] {
    const tags = f.tags ?? [];
    return [...this.scoped(scope).values()].filter(
      (m) =>
        (f.category === undefined || m.category === f.category) &&
        (f.minImportance === undefined || m.importance >= f.minImportance) &&
        (tags.length === 0 || (f.tagMode === 'all' ? tags.every((t) => m.tags.includes(t)) : tags.some((t) => m.tags.includes(t)))),
    );
  }

  async list(scope: MemoryScope, filter: MemoryFilter = {}): Promise<Memory[]> {
    const limit = checkLimit(filter.limit, 100, 10_000);
    return this.filtered(scope, filter).sort(newestFirst).slice(0, limit).map(toMemory);
  }

  async search(
    scope: MemoryScope,
    query: string,
    options: { limit?: number; category?: string; minImportance?: number } = {},
  ): Promise<MemorySearchHit[]> {
    const limit = checkLimit(options.limit, 10);
    const terms = queryTerms(query);
    const rows = this.filtered(scope, options);
    if (terms.length === 0 || rows.length === 0) return [];
    const scores = bm25Scores(
      rows.map((m) => memorySearchText(m)),
      terms,
    );
    return rows
      .map((m, i) => ({ m, score: scores[i] }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score || newestFirst(a.m, b.m))
      .slice(0, limit)
      .map((h) => ({ memory: toMemory(h.m), score: h.score }));
  }

  async delete(scope: MemoryScope, key: string): Promise<boolean> {
    return this.scoped(scope).delete(key);
  }

  async exportJson(scope: MemoryScope): Promise<Record<string, MemoryRecord>> {
    return exportRecords([...this.scoped(scope).values()].sort(newestFirst).reverse().map(toMemory));
  }

  async importJson(
    scope: MemoryScope,
    data: Record<string, Partial<MemoryRecord> & { value: string }>,
    options: { replace?: boolean } = {},
  ): Promise<number> {
    const map = this.scoped(scope);
    const items = prepareImport(data);
    if (options.replace) map.clear();
    for (const it of items) this.put(map, it.memory, it.createdAt, it.updatedAt ?? it.createdAt);
    return items.length;
  }
}

/** Conversation search over the in-memory entries. */
export class MemoryConversationSearch implements ConversationSearch {
  constructor(private readonly c: MemContext) {}

  readonly modes = ['keyword'] as const;

  async search(query: string, options: MessageSearchOptions = {}): Promise<MessageSearchHit[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 20);
    checkKeywordMode(options.mode);
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const docs: { sessionId: string; seq: number; agent?: string; role?: string; text: string; createdAt: number }[] = [];
    for (const [sessionId, entries] of this.c.data.entries) {
      if (options.sessionId !== undefined && sessionId !== options.sessionId) continue;
      if (options.userId !== undefined && this.c.data.sessions.get(sessionId)?.userId !== options.userId) continue;
      for (const e of entries) {
        if (e.text === undefined || (options.agent !== undefined && e.agent !== options.agent)) continue;
        docs.push({ sessionId, seq: e.seq, agent: e.agent, role: e.role, text: e.text, createdAt: e.createdAt });
      }
    }
    const scores = bm25Scores(
      docs.map((d) => d.text),
      terms,
    );
    return docs
      .map((d, i) => ({ d, score: scores[i] }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score || b.d.createdAt - a.d.createdAt)
      .slice(0, limit)
      .map(({ d, score }) => {
        const hit: MessageSearchHit = {
          sessionId: d.sessionId,
          seq: d.seq,
          snippet: makeSnippet(d.text, terms),
          score,
          createdAt: new Date(d.createdAt),
        };
        if (d.agent !== undefined) hit.agent = d.agent;
        if (d.role !== undefined) hit.role = d.role;
        return hit;
      });
  }
}
