import type BetterSqlite3 from 'better-sqlite3';

import { bitsTable } from './schema.js';
import { SignBits, signBitsOf } from './sign-bits.js';
import type { SqliteKnowledgeContext } from './sqlite-knowledge-context.js';

/** Whether 32-bit words are stored low byte first here (sign bits can then be read in place). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Rows of the bit table read per query. */
const LOAD_BLOCK = 8192;

const caches = new WeakMap<BetterSqlite3.Database, Map<number, SqliteIndexCache>>();

/**
 * What one connection keeps in memory about index `id`, shared by every index object of that
 * connection: the sign bits of its vectors (for the prefilter; loaded at the first search that
 * needs them), its vector and chunk counts, and document frequencies of words (for keyword search).
 */
export function indexCache(ctx: SqliteKnowledgeContext, id: number, dimensions: number | undefined): SqliteIndexCache {
  let byId = caches.get(ctx.db);
  if (!byId) caches.set(ctx.db, (byId = new Map()));
  let cache = byId.get(id);
  if (!cache) byId.set(id, (cache = new SqliteIndexCache(ctx, id, dimensions)));
  return cache;
}

/** Forgets the cache of index `id` (the index was dropped). */
export function dropIndexCache(db: BetterSqlite3.Database, id: number): void {
  caches.get(db)?.delete(id);
}

/**
 * The cache of one index on one connection. This connection's own writes update it (`added`,
 * `removed`, inside their transaction; `reset` when that transaction fails). Commits of other
 * connections are noticed by `refresh` through `PRAGMA data_version` (it changes only when another
 * connection committed); the sign bits are then compared with their table by row count and largest
 * id, which is enough because chunk ids only grow: new rows are read alone when nothing else
 * changed, otherwise every row is read again.
 */
export class SqliteIndexCache {
  private dataVersion = -1;
  private stamp: string | undefined;
  private bits: SignBits | undefined;
  private vectorCount = -1;
  private chunkCount = -1;
  /** Document frequency by FTS5 term. */
  readonly frequencies = new Map<string, number>();
  private readonly words: number;

  constructor(
    private readonly ctx: SqliteKnowledgeContext,
    private readonly id: number,
    dimensions: number | undefined,
  ) {
    this.words = Math.ceil((dimensions ?? 0) / 32);
  }

  /** Brings the cache up to date with other connections' commits; call first in every read and write. */
  refresh(): void {
    const version = this.ctx.prepare('PRAGMA data_version').pluck().get() as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    const stamp = this.ctx.prepare('SELECT updated_at FROM knowledge_indexes WHERE id = ?').pluck().get(this.id) as string | undefined;
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.textChanged();
    }
    this.vectorCount = -1;
    if (this.bits) this.syncBits(this.bits);
  }

  /** The number of vectors in the sign-bit table. */
  vectors(): number {
    if (this.bits) return this.bits.size;
    if (this.vectorCount < 0)
      this.vectorCount = this.ctx
        .prepare(`SELECT COUNT(*) FROM ${bitsTable(this.id)}`)
        .pluck()
        .get() as number;
    return this.vectorCount;
  }

  /** The number of chunks of the index. */
  chunks(): number {
    if (this.chunkCount < 0)
      this.chunkCount = this.ctx.prepare('SELECT COUNT(*) FROM knowledge_chunks WHERE index_id = ?').pluck().get(this.id) as number;
    return this.chunkCount;
  }

  /** The sign bits of every vector, read from their table at the first call. */
  signBits(): SignBits {
    if (!this.bits) {
      const bits = new SignBits(this.words);
      this.load(bits);
      this.bits = bits;
    }
    return this.bits;
  }

  /** This connection stored chunk `id` (inside its transaction); `vector` when it has one in the bit table. */
  added(id: number, vector: Float32Array | undefined): void {
    this.textChanged();
    if (!vector) return;
    if (this.vectorCount >= 0) this.vectorCount++;
    if (!this.bits) return;
    // Chunk ids only grow; if one did not, the bits are read again at the next search.
    if (id > this.bits.lastAdded) this.bits.add(id, signBitsOf(vector, this.words));
    else this.bits = undefined;
  }

  /** This connection deleted chunk `id` (inside its transaction). */
  removed(id: number): void {
    this.textChanged();
    if (this.bits?.remove(id) !== false) this.vectorCount = -1;
  }

  /** Forgets everything: a write of this connection failed and was rolled back. */
  reset(): void {
    this.dataVersion = -1;
    this.stamp = undefined;
    this.bits = undefined;
    this.vectorCount = -1;
    this.textChanged();
  }

  private textChanged(): void {
    this.chunkCount = -1;
    this.frequencies.clear();
  }

  private syncBits(bits: SignBits): void {
    const table = bitsTable(this.id);
    const count = (): number => this.ctx.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
    const max = (this.ctx.prepare(`SELECT MAX(id) FROM ${table}`).pluck().get() as number | null) ?? 0;
    if (max === bits.maxHeld && count() === bits.size) return;
    if (max > bits.lastAdded) {
      this.load(bits, bits.lastAdded);
      if (count() === bits.size) return;
    }
    const fresh = new SignBits(this.words);
    this.load(fresh);
    this.bits = fresh;
  }

  /**
   * Appends the rows of the bit table above id `after`, in id order, 8,192 rows per query: their ids
   * and bits concatenated by SQLite (one string and one blob per query costs a quarter of a row each).
   */
  private load(bits: SignBits, after = 0): void {
    const words = this.words;
    const row = new Uint32Array(words);
    const block = this.ctx
      .prepare(
        `SELECT group_concat(id, ','), unhex(group_concat(hex(bits), '')) ` +
          `FROM (SELECT id, bits FROM ${bitsTable(this.id)} WHERE id > ? ORDER BY id LIMIT ${LOAD_BLOCK})`,
      )
      .raw();
    for (;;) {
      const [list, blob] = block.get(after) as [string | null, Buffer | null];
      if (list === null || blob === null) return;
      const ids = list.split(',');
      const size = blob.length / ids.length;
      if (LITTLE_ENDIAN && size === words * 4 && blob.byteOffset % 4 === 0) {
        const view = new Uint32Array(blob.buffer, blob.byteOffset, blob.length / 4);
        for (let i = 0; i < ids.length; i++) bits.add(Number(ids[i]), view, i * words);
      } else {
        for (let i = 0; i < ids.length; i++) {
          row.fill(0);
          // Bytes to little-endian words (bit d is in byte d / 8).
          for (let b = 0, o = i * size; b < size && b < words * 4; b++) row[b >>> 2]! |= blob[o + b]! << ((b & 3) * 8);
          bits.add(Number(ids[i]), row);
        }
      }
      after = Number(ids[ids.length - 1]);
      if (ids.length < LOAD_BLOCK) return;
    }
  }
}
