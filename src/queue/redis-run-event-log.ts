import type { Redis } from 'ioredis';

import { StorageError } from '../errors/storage-error.js';
import type { RunEventInput, RunEventLog, RunEventRecord } from '../types/storage/run-events.js';

/** Options of `RedisRunEventLog`. */
export interface RedisRunEventLogOptions {
  /** Commands (not blocking). */
  client: Redis;
  /** Key prefix: a run's stream is `<prefix>:run:<runId>:events`. */
  prefix: string;
  /** A log closed by its `done` event expires this many seconds later. */
  ttlSeconds: number;
  /** Where the log is (password masked), for error messages. */
  location: string;
}

/**
 * Appends the events (entry ids `0-<seq>`) in one script, so a batch is all or nothing: refused
 * when its first seq is not above the stream's last one (a seq written twice), or when it is not
 * in increasing order. The `done` event sets the stream's expiry.
 * KEYS[1] stream; ARGV: ttl seconds, then per event seq, type, data, time.
 */
const APPEND_SCRIPT = `
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last = 0
if #top > 0 then last = tonumber(string.sub(top[1][1], 3)) end
local prev = last
for i = 2, #ARGV, 4 do
  local seq = tonumber(ARGV[i])
  if seq <= prev then return {'conflict', seq} end
  prev = seq
end
local done = false
for i = 2, #ARGV, 4 do
  redis.call('XADD', KEYS[1], '0-' .. ARGV[i], 'type', ARGV[i + 1], 'data', ARGV[i + 2], 't', ARGV[i + 3])
  if ARGV[i + 1] == 'done' then done = true end
end
if done then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
return {'ok', prev}
`;

type Entry = [id: string, fields: string[]];

/**
 * A run event log on Redis Streams: one stream per run, entry id `0-<seq>`, so XRANGE reads in
 * seq order from any cursor and a seq cannot be written twice. A finished log (closed by `done`)
 * expires after `ttlSeconds`.
 */
export class RedisRunEventLog implements RunEventLog {
  constructor(private readonly options: RedisRunEventLogOptions) {}

  /** The stream key of `runId`. */
  key(runId: string): string {
    return `${this.options.prefix}:run:${runId}:events`;
  }

  async append(runId: string, events: readonly RunEventInput[]): Promise<void> {
    if (events.length === 0) return;
    const now = String(Date.now());
    const args: string[] = [String(this.options.ttlSeconds)];
    for (const e of events) {
      if (!Number.isInteger(e.seq) || e.seq < 1)
        throw new StorageError(`run ${runId}: event seq ${e.seq} is not a positive integer`, { kind: 'failed' });
      args.push(String(e.seq), e.type, JSON.stringify(e.data ?? null), now);
    }
    const result = (await this.call(() => this.options.client.eval(APPEND_SCRIPT, 1, this.key(runId), ...args))) as [string, number];
    if (result[0] === 'conflict') {
      throw new StorageError(`run ${runId}: event ${result[1]} is written already (or out of order)`, {
        kind: 'conflict',
        location: this.options.location,
      });
    }
  }

  async read(runId: string, options: { after?: number; limit?: number } = {}): Promise<RunEventRecord[]> {
    const after = Math.max(0, Math.floor(options.after ?? 0));
    const limit = Math.max(1, Math.floor(options.limit ?? 1000));
    const entries = (await this.call(() => this.options.client.xrange(this.key(runId), `0-${after + 1}`, '+', 'COUNT', limit))) as Entry[];
    return entries.map((e) => toRecord(runId, e));
  }

  async lastSeq(runId: string): Promise<number> {
    const top = (await this.call(() => this.options.client.xrevrange(this.key(runId), '+', '-', 'COUNT', 1))) as Entry[];
    return top.length === 0 ? 0 : seqOf(top[0][0]);
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new StorageError(`Redis error at ${this.options.location}: ${(err as Error).message}`, {
        kind: 'unavailable',
        location: this.options.location,
        cause: err,
      });
    }
  }
}

function seqOf(id: string): number {
  return Number(id.slice(id.indexOf('-') + 1));
}

function toRecord(runId: string, [id, fields]: Entry): RunEventRecord {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]] = fields[i + 1];
  return { runId, seq: seqOf(id), type: f.type ?? '', data: JSON.parse(f.data ?? 'null'), createdAt: new Date(Number(f.t ?? 0)) };
}
