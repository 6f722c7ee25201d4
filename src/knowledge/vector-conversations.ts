import { ValidationError } from '../errors/validation-error.js';
import { makeSnippet, messageSearchText, queryTerms } from '../storage/shared/index.js';
import type { KnowledgeChunk, KnowledgeFilter, KnowledgeIndex, KnowledgeStore, ScoredChunk } from '../types/knowledge.js';
import type { ConversationSearch, ConversationSearchMode, MessageSearchHit, MessageSearchOptions } from '../types/storage/memories.js';
import type { SessionEntry, SessionStore } from '../types/storage/sessions.js';
import type { Store } from '../types/storage/store.js';
import { embedChunks } from './embed-chunks.js';
import type { Embedder } from './embedder.js';
import { reciprocalRankFusion } from './rrf.js';
import { wholeTextChunk } from './whole-text-chunk.js';

/** Options for {@link withVectorConversations}. */
export interface VectorConversationOptions {
  /** Where the message vectors are kept: the knowledge store of the same database (SQLite, Postgres, memory). */
  knowledge: KnowledgeStore;
  embedder: Embedder;
  /** The knowledge index holding them. Default `_conversations`. */
  index?: string;
  /** RRF constant. Default 60. */
  rrfK?: number;
  /** Vector hits less similar than this (cosine) are dropped. Default 0.3. */
  minSimilarity?: number;
  /** Characters of a message that are embedded (its start; keyword search sees all of it). Default 8,000. */
  maxChars?: number;
  /**
   * Called when embedding appended messages fails (the messages are stored; the next vector search
   * embeds them). Default: nothing.
   */
  onEmbedError?: (error: unknown) => void;
  /** Close `knowledge` when the store is closed. */
  closeKnowledge?: boolean;
}

const MODES: readonly ConversationSearchMode[] = ['keyword', 'vector', 'hybrid'];
const CHECKED = 'checked';
const uriOf = (sessionId: string, tail: number | string): string => `${encodeURIComponent(sessionId)}/${tail}`;
const keyOf = (sessionId: string, seq: number): string => `${sessionId}#${seq}`;

/** A stand-in chunk that only carries the key RRF ranks by. */
const rankKey = (id: string): KnowledgeChunk => ({
  id,
  documentUri: id,
  index: 0,
  text: '',
  tokens: 0,
  hash: '',
  location: { uri: id },
  metadata: {},
});

/** `uri` → session id and the rest (a seq, or `checked`). */
function parseUri(uri: string): { sessionId: string; tail: string } | undefined {
  const slash = uri.lastIndexOf('/');
  return slash > 0 ? { sessionId: decodeURIComponent(uri.slice(0, slash)), tail: uri.slice(slash + 1) } : undefined;
}

async function dropUris(index: KnowledgeIndex, sessionId: string): Promise<void> {
  const prefix = `${encodeURIComponent(sessionId)}/`;
  const uris = [...(await index.documentHashes()).keys()].filter((u) => u.startsWith(prefix));
  if (uris.length) await index.deleteDocuments(uris);
}

/**
 * Removes the message vectors of a session from `knowledge` (no embedder needed): for a session
 * deleted through a store opened without {@link withVectorConversations}.
 */
export async function deleteConversationVectors(
  knowledge: KnowledgeStore,
  sessionId: string,
  options: { index?: string } = {},
): Promise<void> {
  const name = options.index ?? '_conversations';
  if (!(await knowledge.listIndexes()).some((i) => i.name === name)) return;
  await dropUris(await knowledge.openIndex(name), sessionId);
}

/**
 * `store` with conversation search by meaning: every message appended through it is embedded
 * (in batches, after the append resolves; identical texts reuse their vectors), and
 * `conversations.search` gains the modes `vector` and `hybrid` (keyword and vector fused by
 * reciprocal rank; the default). Everything else is `store`'s own.
 *
 * An embedder failure never loses a message: it is stored, keyword search finds it, and the next
 * vector search of this process embeds what is missing. The first vector search of a process
 * does the same for messages appended elsewhere (another process, a store opened without an
 * embedder): it reads the messages appended since its last check, per session, and embeds those
 * without a vector. Vectors of deleted sessions are removed. A vector search waits for the
 * embeddings of messages appended just before it; when the embedder or the vector search fails,
 * the search fails with that error (no silent keyword-only fallback).
 * @example
 * const store = withVectorConversations(await openStore(), { knowledge: await openSqliteKnowledgeStore({ path }), embedder });
 * await store.conversations.search('what did we decide about the refund', { userId: 'u_42' });
 */
export function withVectorConversations(store: Store, options: VectorConversationOptions): Store {
  const v = new VectorConversations(store, options);
  const sessions = new Proxy(store.sessions, {
    get(target, prop) {
      if (prop === 'append')
        return async (...args: Parameters<SessionStore['append']>) => {
          const seq = await target.append(...args);
          if (hasText(args[1])) v.enqueue(args[0], [seq]);
          return seq;
        };
      if (prop === 'appendMany')
        return async (...args: Parameters<SessionStore['appendMany']>) => {
          const seqs = await target.appendMany(...args);
          v.enqueue(
            args[0],
            seqs.filter((_, i) => hasText(args[1][i]!)),
          );
          return seqs;
        };
      if (prop === 'delete') return (id: string) => v.deleteSession(id);
      return bound(target, prop);
    },
  });
  const conversations: ConversationSearch = { modes: MODES, search: (query, o) => v.search(query, o) };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'sessions') return sessions;
      if (prop === 'conversations') return conversations;
      if (prop === 'close') return () => v.close();
      return bound(target, prop);
    },
  });
}

const bound = (target: object, prop: string | symbol): unknown => {
  const value: unknown = Reflect.get(target, prop);
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
};

const hasText = (e: { type?: string; message?: SessionEntry['message'] }): boolean =>
  (e.type ?? 'message') === 'message' && messageSearchText(e.message) !== undefined;

/** The state behind {@link withVectorConversations}: the index, the append queue, the backfill. */
class VectorConversations {
  private readonly indexName: string;
  private readonly inner: SessionStore;
  private opening: Promise<KnowledgeIndex> | undefined;
  /** Users of sessions, for the `user` filter (a session's user never changes). */
  private readonly users = new Map<string, string | null>();
  /** Appended messages waiting for the next batch (session → seqs); one batch runs at a time. */
  private readonly queue = new Map<string, Set<number>>();
  private work: Promise<void> = Promise.resolve();
  private scheduled = false;
  private needsBackfill = true;
  private backfilling: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: VectorConversationOptions,
  ) {
    this.indexName = options.index ?? '_conversations';
    this.inner = store.sessions;
  }

  private openIndex(): Promise<KnowledgeIndex> {
    this.opening ??= (async () => {
      const { embedder } = this.options;
      const dimensions = embedder.dimensions ?? (await embedder.embed(['dimension probe']))[0]!.length;
      return this.options.knowledge.openIndex(this.indexName, { embedder: { model: embedder.model, dimensions } });
    })();
    this.opening.catch(() => (this.opening = undefined));
    return this.opening;
  }

  private async userOf(sessionId: string): Promise<string | null | undefined> {
    if (!this.users.has(sessionId)) {
      const s = await this.inner.get(sessionId);
      if (!s) return undefined;
      if (this.users.size > 10_000) this.users.clear();
      this.users.set(sessionId, s.userId ?? null);
    }
    return this.users.get(sessionId);
  }

  /** Embeds message entries of one session and stores their vectors (one document per message). */
  private async embedEntries(index: KnowledgeIndex, sessionId: string, entries: SessionEntry[]): Promise<void> {
    const user = await this.userOf(sessionId);
    if (user === undefined) return; // deleted meanwhile
    const chunks: KnowledgeChunk[] = [];
    for (const e of entries) {
      const full = messageSearchText(e.message);
      if (full === undefined) continue;
      const text = full.slice(0, this.options.maxChars ?? 8000);
      const uri = uriOf(sessionId, e.seq);
      const metadata: KnowledgeChunk['metadata'] = { session: sessionId, seq: e.seq, at: e.createdAt.getTime() };
      if (user !== null) metadata.user = user;
      if (e.agent !== undefined) metadata.agent = e.agent;
      if (e.role !== undefined) metadata.role = e.role;
      chunks.push(wholeTextChunk({ uri, text, metadata }));
    }
    if (chunks.length === 0) return;
    const embedded = await embedChunks({ chunks, index, embedder: this.options.embedder, cache: new Map() });
    for (const c of embedded.chunks) {
      await index.putDocument({ uri: c.documentUri, source: 'conversations', text: c.text, contentHash: c.hash, metadata: c.metadata }, [
        c,
      ]);
    }
  }

  enqueue(sessionId: string, seqs: number[]): void {
    if (seqs.length === 0) return;
    const pending = this.queue.get(sessionId) ?? new Set<number>();
    for (const s of seqs) pending.add(s);
    this.queue.set(sessionId, pending);
    if (this.scheduled) return;
    this.scheduled = true;
    this.work = this.work.then(() => this.runBatch());
  }

  private async runBatch(): Promise<void> {
    this.scheduled = false;
    const batch = [...this.queue];
    this.queue.clear();
    try {
      const index = await this.openIndex();
      for (const [sessionId, seqs] of batch) {
        const entries = await this.inner
          .entries(sessionId, { afterSeq: Math.min(...seqs) - 1, types: ['message'] })
          .catch((err: unknown) => {
            if ((err as { kind?: string }).kind === 'not_found') return [];
            throw err;
          });
        await this.embedEntries(
          index,
          sessionId,
          entries.filter((e) => seqs.has(e.seq)),
        );
      }
    } catch (err) {
      this.needsBackfill = true;
      this.options.onEmbedError?.(err);
    }
  }

  /** Embeds what is missing (per session, from its last check on) and drops vectors of deleted sessions. */
  private async backfill(index: KnowledgeIndex): Promise<void> {
    const embedded = new Map<string, Set<number>>();
    const checked = new Map<string, number>();
    for (const [uri, hash] of await index.documentHashes()) {
      const p = parseUri(uri);
      if (!p) continue;
      if (p.tail === CHECKED) checked.set(p.sessionId, Number(hash));
      else embedded.set(p.sessionId, (embedded.get(p.sessionId) ?? new Set()).add(Number(p.tail)));
    }
    const live = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.inner.list({ limit: 1000, ...(cursor ? { cursor } : {}) });
      for (const s of page.sessions) {
        live.add(s.id);
        this.users.set(s.id, s.userId ?? null);
        const from = checked.get(s.id) ?? 0;
        if (s.lastSeq <= from) continue;
        const entries = await this.inner.entries(s.id, { afterSeq: from, types: ['message'] });
        const have = embedded.get(s.id);
        await this.embedEntries(
          index,
          s.id,
          entries.filter((e) => e.seq <= s.lastSeq && !have?.has(e.seq) && hasText(e)),
        );
        const marker = { uri: uriOf(s.id, CHECKED), source: 'conversations', text: '', contentHash: String(s.lastSeq), metadata: {} };
        await index.putDocument(marker, []);
      }
      cursor = page.nextCursor;
    } while (cursor);
    const gone = [...new Set([...embedded.keys(), ...checked.keys()])].filter((id) => !live.has(id));
    for (const id of gone) if (!(await this.inner.get(id))) await this.dropSession(index, id);
  }

  private async dropSession(index: KnowledgeIndex, sessionId: string): Promise<void> {
    await dropUris(index, sessionId);
    this.users.delete(sessionId);
  }

  async deleteSession(id: string): Promise<boolean> {
    await this.work;
    const deleted = await this.inner.delete(id);
    if (this.opening) await this.dropSession(await this.opening, id);
    else await deleteConversationVectors(this.options.knowledge, id, { index: this.indexName });
    return deleted;
  }

  /** The vector side: the index brought up to date first (queued batch, backfill when needed). */
  private async readyIndex(): Promise<KnowledgeIndex> {
    await this.work;
    const index = await this.openIndex();
    if (this.needsBackfill) {
      this.backfilling ??= (async () => {
        this.needsBackfill = false;
        await this.backfill(index).catch((err: unknown) => {
          this.needsBackfill = true;
          throw err;
        });
      })().finally(() => (this.backfilling = undefined));
      await this.backfilling;
    }
    return index;
  }

  async search(query: string, o: MessageSearchOptions = {}): Promise<MessageSearchHit[]> {
    const mode = o.mode ?? 'hybrid';
    if (!MODES.includes(mode))
      throw new ValidationError(`Unknown conversation search mode ${JSON.stringify(mode)}: use ${MODES.join(', ')}`);
    if (mode === 'keyword') return this.store.conversations.search(query, o);
    const limit = o.limit ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new ValidationError(`limit must be an integer from 1 to 1000 (got ${limit})`);
    const pool = Math.max(20, limit * 4);
    const keyword =
      mode === 'hybrid' ? await this.store.conversations.search(query, { ...o, mode: 'keyword', limit: Math.min(pool, 1000) }) : [];
    if (!query.trim()) return keyword.slice(0, limit);
    const near = await this.nearest(query, o, pool);
    if (mode === 'vector') return near.slice(0, limit);
    const byKey = new Map(near.map((h) => [keyOf(h.sessionId, h.seq), h] as const));
    for (const h of keyword) byKey.set(keyOf(h.sessionId, h.seq), h);
    const ranked = (hits: MessageSearchHit[]): ScoredChunk[] =>
      hits.map((h) => ({ chunk: rankKey(keyOf(h.sessionId, h.seq)), score: h.score }));
    return reciprocalRankFusion([ranked(keyword), ranked(near)], this.options.rrfK)
      .slice(0, limit)
      .map((h) => ({ ...byKey.get(h.chunk.id)!, score: h.score }));
  }

  /** Messages nearest to `query` (cosine at least `minSimilarity`), of sessions that still exist. */
  private async nearest(query: string, o: MessageSearchOptions, topK: number): Promise<MessageSearchHit[]> {
    const index = await this.readyIndex();
    const [vector] = await this.options.embedder.embed([query]);
    const filter: KnowledgeFilter = {};
    if (o.userId !== undefined) filter.user = o.userId;
    if (o.agent !== undefined) filter.agent = o.agent;
    if (o.sessionId !== undefined) filter.session = o.sessionId;
    const minSimilarity = this.options.minSimilarity ?? 0.3;
    const near = (await index.vectorSearch({ vector: vector!, topK, filter })).filter((h) => h.score >= minSimilarity);
    // A session deleted by a process without this wrapper: its vectors go now.
    const gone = new Set<string>();
    for (const id of new Set(near.map((h) => String(h.chunk.metadata.session)))) if (!(await this.inner.get(id))) gone.add(id);
    for (const id of gone) await this.dropSession(index, id);
    const terms = queryTerms(query);
    return near
      .filter((h) => !gone.has(String(h.chunk.metadata.session)))
      .map((h) => {
        const m = h.chunk.metadata;
        const hit: MessageSearchHit = {
          sessionId: String(m.session),
          seq: Number(m.seq),
          snippet: makeSnippet(h.chunk.text, terms),
          score: h.score,
          createdAt: new Date(Number(m.at)),
        };
        if (m.agent !== undefined) hit.agent = String(m.agent);
        if (m.role !== undefined) hit.role = String(m.role);
        return hit;
      });
  }

  async close(): Promise<void> {
    await this.work;
    await this.backfilling?.catch(() => undefined);
    try {
      await this.store.close();
    } finally {
      if (this.options.closeKnowledge) await this.options.knowledge.close();
    }
  }
}
