import { StorageError } from '../../errors/storage-error.js';
import type { RunEventInput, RunEventLog, RunEventRecord } from '../../types/storage/run-events.js';
import { decodeJson, encodeJson } from '../shared/json-codec.js';
import { checkLimit } from '../shared/validate.js';
import type { SqlContext } from './sql-sessions.js';

type EventRow = { run_id: string; seq: number | string; type: string; data: string; created_at: number | string };

/** Run event logs on a SQL backend (table `corvid_run_events`). */
export class SqlRunEventLog implements RunEventLog {
  constructor(private readonly c: SqlContext) {}

  async append(runId: string, events: readonly RunEventInput[]): Promise<void> {
    this.c.check();
    if (events.length === 0) return;
    const b = this.c.backend;
    const now = this.c.now();
    const values = events.map(() => '(?, ?, ?, ?, ?)').join(', ');
    const params = events.flatMap((e) => [runId, e.seq, e.type, encodeJson(e.data), now]);
    try {
      await b.db.run(`INSERT INTO corvid_run_events (run_id, seq, type, data, created_at) VALUES ${values}`, params);
    } catch (err) {
      if (!b.isUniqueViolation(err)) throw err;
      throw new StorageError(`Run "${runId}" has events from seq ${events[0].seq} already (another writer) in ${b.location}`, {
        kind: 'conflict',
        location: b.location,
      });
    }
  }

  async read(runId: string, options: { after?: number; limit?: number } = {}): Promise<RunEventRecord[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 1000, 10_000);
    const rows = await this.c.backend.db.all<EventRow>(
      'SELECT run_id, seq, type, data, created_at FROM corvid_run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      [runId, options.after ?? 0, limit],
    );
    return rows.map((r) => ({
      runId: r.run_id,
      seq: Number(r.seq),
      type: r.type,
      data: decodeJson(r.data),
      createdAt: new Date(Number(r.created_at)),
    }));
  }

  async lastSeq(runId: string): Promise<number> {
    this.c.check();
    const [v] = await this.c.backend.db.column<number | string | null>('SELECT MAX(seq) FROM corvid_run_events WHERE run_id = ?', [runId]);
    return v == null ? 0 : Number(v);
  }
}
