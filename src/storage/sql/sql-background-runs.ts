import { StorageError } from '../../errors/storage-error.js';
import type {
  BackgroundRun,
  BackgroundRunInput,
  BackgroundRunOutcome,
  BackgroundRunStatus,
  BackgroundRunStore,
} from '../../types/storage/background-runs.js';
import { type BackgroundRunRow, toBackgroundRun } from '../shared/background-run-rows.js';
import { encodeJson } from '../shared/json-codec.js';
import { checkId, checkLimit } from '../shared/validate.js';
import type { SqlContext } from './sql-sessions.js';

const COLUMNS =
  'run_id, agent, input, session_id, owner, webhook, status, result, error, cancel_requested, attempts, worker, run_at, created_at, updated_at, finished_at';
const NOT_FINAL = "status NOT IN ('completed', 'failed', 'cancelled')";

/** Submitted runs on a SQL backend (table `corvid_background_runs`). */
export class SqlBackgroundRunStore implements BackgroundRunStore {
  constructor(private readonly c: SqlContext) {}

  async create(input: BackgroundRunInput): Promise<BackgroundRun> {
    this.c.check();
    checkId('Run id', input.runId);
    const b = this.c.backend;
    const now = this.c.now();
    const params = [
      input.runId,
      input.agent,
      input.input,
      input.sessionId ?? null,
      input.owner ?? null,
      input.webhook ?? null,
      'queued',
      null,
      null,
      0,
      0,
      null,
      input.runAt?.getTime() ?? now,
      now,
      now,
      null,
    ];
    try {
      await b.db.run(`INSERT INTO corvid_background_runs (${COLUMNS}) VALUES (${params.map(() => '?').join(', ')})`, params);
    } catch (err) {
      if (b.isUniqueViolation(err))
        throw new StorageError(`A run with id "${input.runId}" exists already in ${b.location}`, {
          kind: 'conflict',
          location: b.location,
        });
      throw err;
    }
    return (await this.get(input.runId))!;
  }

  async get(runId: string): Promise<BackgroundRun | undefined> {
    this.c.check();
    const [row] = await this.c.backend.db.all<BackgroundRunRow>(`SELECT ${COLUMNS} FROM corvid_background_runs WHERE run_id = ?`, [runId]);
    return row ? toBackgroundRun(row) : undefined;
  }

  async list(filter: { status: BackgroundRunStatus; due?: boolean; limit?: number }): Promise<BackgroundRun[]> {
    this.c.check();
    const limit = checkLimit(filter.limit, 100);
    const due = filter.due ? ' AND run_at <= ?' : '';
    const params = filter.due ? [filter.status, this.c.now(), limit] : [filter.status, limit];
    const rows = await this.c.backend.db.all<BackgroundRunRow>(
      `SELECT ${COLUMNS} FROM corvid_background_runs WHERE status = ?${due} ORDER BY run_at, run_id LIMIT ?`,
      params,
    );
    return rows.map(toBackgroundRun);
  }

  async markStarted(runId: string, worker: string, attempts: number): Promise<BackgroundRun | undefined> {
    this.c.check();
    const n = await this.c.backend.db.run(
      `UPDATE corvid_background_runs SET status = 'running', attempts = attempts + 1, worker = ?, updated_at = ?
        WHERE run_id = ? AND ${NOT_FINAL} AND cancel_requested = 0 AND attempts = ?`,
      [worker, this.c.now(), runId, attempts],
    );
    return n > 0 ? this.get(runId) : undefined;
  }

  async requeue(runId: string): Promise<BackgroundRun | undefined> {
    this.c.check();
    const now = this.c.now();
    const n = await this.c.backend.db.run(
      `UPDATE corvid_background_runs SET status = 'queued', run_at = ?, updated_at = ? WHERE run_id = ? AND status = 'paused'`,
      [now, now, runId],
    );
    return n > 0 ? this.get(runId) : undefined;
  }

  async finish(runId: string, outcome: BackgroundRunOutcome): Promise<boolean> {
    this.c.check();
    const now = this.c.now();
    const final = outcome.status === 'paused' ? null : now;
    const n = await this.c.backend.db.run(
      `UPDATE corvid_background_runs SET status = ?, result = ?, error = ?, updated_at = ?, finished_at = ? WHERE run_id = ? AND ${NOT_FINAL}`,
      [
        outcome.status,
        outcome.result === undefined ? null : encodeJson(outcome.result),
        outcome.error === undefined ? null : encodeJson(outcome.error),
        now,
        final,
        runId,
      ],
    );
    return n > 0;
  }

  async requestCancel(runId: string): Promise<BackgroundRun | undefined> {
    this.c.check();
    const now = this.c.now();
    const db = this.c.backend.db;
    await db.run(
      `UPDATE corvid_background_runs SET cancel_requested = 1, updated_at = ?, status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
        finished_at = CASE WHEN status = 'queued' THEN ? ELSE finished_at END WHERE run_id = ? AND ${NOT_FINAL}`,
      [now, now, runId],
    );
    return this.get(runId);
  }

  async cancelRequested(runIds: readonly string[]): Promise<string[]> {
    this.c.check();
    if (runIds.length === 0) return [];
    return this.c.backend.db.column<string>(
      `SELECT run_id FROM corvid_background_runs WHERE cancel_requested = 1 AND run_id IN (${runIds.map(() => '?').join(', ')})`,
      [...runIds],
    );
  }
}
