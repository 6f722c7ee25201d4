import type {
  Approval,
  ApprovalInput,
  ApprovalStore,
  Checkpoint,
  CheckpointInput,
  CheckpointStore,
  RunListOptions,
  RunRecord,
} from '../../types/storage/runs.js';
import { approvalIdTaken, approvalNotPending, seqConflict, unknownRun, unknownSession } from '../shared/errors.js';
import { sortableId } from '../shared/ids.js';
import { encodeJson } from '../shared/json-codec.js';
import { type ApprovalRow, type CheckpointRow, type RunRow, toApproval, toCheckpoint, toRun } from '../shared/rows.js';
import { checkAnswer, checkApproval, checkCheckpoint, checkEntry, checkLimit, checkStatus } from '../shared/validate.js';
import type { SqlValue } from './sql-client.js';
import { entryInsert, type SqlContext } from './sql-sessions.js';

const RUN_COLUMNS = 'run_id, session_id, agent, status, checkpoints, created_at, updated_at, expires_at';
const APPROVAL_COLUMNS = 'id, run_id, session_id, tool_call_id, tool_name, args, prompt, status, reason, created_at, answered_at';

/** Run checkpoints on a SQL backend. */
export class SqlCheckpointStore implements CheckpointStore {
  constructor(private readonly c: SqlContext) {}

  async save(input: CheckpointInput): Promise<Checkpoint> {
    this.c.check();
    checkCheckpoint(input);
    const b = this.c.backend;
    const now = this.c.now();
    const expiresAt = input.expiresAt?.getTime() ?? null;
    const state = encodeJson(input.state);
    const append = input.append;
    const entryRows = append?.entries.map((e) => entryInsert(e, checkEntry(e)));
    const seq = await b.db.transaction(async (tx) => {
      if (input.sessionId !== undefined) {
        const found = await tx.all<{ last_seq: number }>('SELECT last_seq FROM corvid_sessions WHERE id = ?', [input.sessionId]);
        if (found.length === 0) throw unknownSession(input.sessionId, b.location);
        // The entries first (this locks the session row), then the checkpoint: one commit for both.
        if (entryRows !== undefined && entryRows.length > 0) {
          const seqs = await b.appendInTransaction(tx, input.sessionId, entryRows, now, append!.expectedLastSeq);
          if (seqs === undefined) {
            const expected = append!.expectedLastSeq;
            throw expected === undefined
              ? unknownSession(input.sessionId, b.location)
              : seqConflict(input.sessionId, expected, Number(found[0].last_seq), b.location);
          }
        } else if (append?.expectedLastSeq !== undefined && append.expectedLastSeq !== Number(found[0].last_seq)) {
          throw seqConflict(input.sessionId, append.expectedLastSeq, Number(found[0].last_seq), b.location);
        }
      }
      await tx.run(b.insertIgnore('corvid_runs', RUN_COLUMNS.split(', '), ['run_id']), [
        input.runId,
        input.sessionId ?? null,
        input.agent,
        input.status,
        0,
        now,
        now,
        expiresAt,
      ]);
      const rows = await tx.all<{ checkpoints: number }>(`SELECT checkpoints FROM corvid_runs WHERE run_id = ?${b.forUpdate}`, [
        input.runId,
      ]);
      const next = Number(rows[0].checkpoints) + 1;
      await tx.run(
        'UPDATE corvid_runs SET checkpoints = ?, agent = ?, status = ?, updated_at = ?, expires_at = ?, session_id = COALESCE(?, session_id) WHERE run_id = ?',
        [next, input.agent, input.status, now, expiresAt, input.sessionId ?? null, input.runId],
      );
      await tx.run('INSERT INTO corvid_checkpoints (run_id, seq, status, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
        input.runId,
        next,
        input.status,
        state,
        now,
        expiresAt,
      ]);
      return next;
    });
    return (await this.latestRow(input.runId, seq)) ?? unreachable();
  }

  private async latestRow(runId: string, seq?: number): Promise<Checkpoint | undefined> {
    const params: SqlValue[] = [runId];
    let sql = `SELECT c.run_id, c.seq, r.session_id, r.agent, c.status, c.state, c.created_at, c.expires_at
      FROM corvid_checkpoints c JOIN corvid_runs r ON r.run_id = c.run_id WHERE c.run_id = ?`;
    if (seq !== undefined) ((sql += ' AND c.seq = ?'), params.push(seq));
    else ((sql += ' AND (c.expires_at IS NULL OR c.expires_at > ?)'), params.push(this.c.now()));
    const rows = await this.c.backend.db.all<CheckpointRow>(`${sql} ORDER BY c.seq DESC LIMIT 1`, params);
    return rows[0] ? toCheckpoint(rows[0]) : undefined;
  }

  async latest(runId: string): Promise<Checkpoint | undefined> {
    this.c.check();
    return this.latestRow(runId);
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    this.c.check();
    const rows = await this.c.backend.db.all<RunRow>(`SELECT ${RUN_COLUMNS} FROM corvid_runs WHERE run_id = ?`, [runId]);
    return rows[0] ? toRun(rows[0]) : undefined;
  }

  async listRuns(options: RunListOptions = {}): Promise<RunRecord[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 100);
    const where = ['(expires_at IS NULL OR expires_at > ?)'];
    const params: SqlValue[] = [this.c.now()];
    if (options.status !== undefined) {
      const statuses = (Array.isArray(options.status) ? options.status : [options.status]).map(checkStatus);
      where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
      params.push(...statuses);
    }
    if (options.sessionId !== undefined) (where.push('session_id = ?'), params.push(options.sessionId));
    if (options.agent !== undefined) (where.push('agent = ?'), params.push(options.agent));
    const rows = await this.c.backend.db.all<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM corvid_runs WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, run_id DESC LIMIT ${limit}`,
      params,
    );
    return rows.map(toRun);
  }

  async delete(runId: string): Promise<boolean> {
    this.c.check();
    return this.c.backend.db.transaction(async (tx) => {
      await tx.run('DELETE FROM corvid_approvals WHERE run_id = ?', [runId]);
      await tx.run('DELETE FROM corvid_checkpoints WHERE run_id = ?', [runId]);
      return (await tx.run('DELETE FROM corvid_runs WHERE run_id = ?', [runId])) > 0;
    });
  }

  async deleteExpired(now?: Date): Promise<number> {
    this.c.check();
    const t = now?.getTime() ?? this.c.now();
    return this.c.backend.db.transaction(async (tx) => {
      const removed = await tx.run('DELETE FROM corvid_checkpoints WHERE expires_at IS NOT NULL AND expires_at <= ?', [t]);
      const orphan = 'SELECT r.run_id FROM corvid_runs r WHERE NOT EXISTS (SELECT 1 FROM corvid_checkpoints c WHERE c.run_id = r.run_id)';
      await tx.run(`DELETE FROM corvid_approvals WHERE run_id IN (${orphan})`);
      await tx.run('DELETE FROM corvid_runs WHERE NOT EXISTS (SELECT 1 FROM corvid_checkpoints c WHERE c.run_id = corvid_runs.run_id)');
      return removed;
    });
  }
}

function unreachable(): never {
  throw new Error('checkpoint vanished after save');
}

/** Approvals on a SQL backend; answering is one conditional UPDATE, so it happens once. */
export class SqlApprovalStore implements ApprovalStore {
  constructor(private readonly c: SqlContext) {}

  private async byRunCall(runId: string, toolCallId: string): Promise<Approval | undefined> {
    const rows = await this.c.backend.db.all<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM corvid_approvals WHERE run_id = ? AND tool_call_id = ?`,
      [runId, toolCallId],
    );
    return rows[0] ? toApproval(rows[0]) : undefined;
  }

  async create(input: ApprovalInput): Promise<Approval> {
    this.c.check();
    checkApproval(input);
    const b = this.c.backend;
    const runs = await b.db.all<{ session_id: string | null }>('SELECT session_id FROM corvid_runs WHERE run_id = ?', [input.runId]);
    if (runs.length === 0) throw unknownRun(input.runId, b.location);
    const existing = await this.byRunCall(input.runId, input.toolCallId);
    if (existing) return existing;
    const id = input.id ?? sortableId('apr');
    await b.db.run(b.insertIgnore('corvid_approvals', APPROVAL_COLUMNS.split(', '), ['run_id', 'tool_call_id']), [
      id,
      input.runId,
      runs[0].session_id ?? null,
      input.toolCallId,
      input.toolName,
      encodeJson(input.args),
      input.prompt ?? null,
      'pending',
      null,
      this.c.now(),
      null,
    ]);
    const created = await this.byRunCall(input.runId, input.toolCallId);
    if (!created) throw approvalIdTaken(id, b.location);
    return created;
  }

  async get(id: string): Promise<Approval | undefined> {
    this.c.check();
    const rows = await this.c.backend.db.all<ApprovalRow>(`SELECT ${APPROVAL_COLUMNS} FROM corvid_approvals WHERE id = ?`, [id]);
    return rows[0] ? toApproval(rows[0]) : undefined;
  }

  async listPending(options: { runId?: string; sessionId?: string; limit?: number } = {}): Promise<Approval[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 100);
    const where = ["status = 'pending'"];
    const params: SqlValue[] = [];
    if (options.runId !== undefined) (where.push('run_id = ?'), params.push(options.runId));
    if (options.sessionId !== undefined) (where.push('session_id = ?'), params.push(options.sessionId));
    const rows = await this.c.backend.db.all<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM corvid_approvals WHERE ${where.join(' AND ')} ORDER BY created_at, id LIMIT ${limit}`,
      params,
    );
    return rows.map(toApproval);
  }

  async listForRun(runId: string): Promise<Approval[]> {
    this.c.check();
    const rows = await this.c.backend.db.all<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM corvid_approvals WHERE run_id = ? ORDER BY created_at, id`,
      [runId],
    );
    return rows.map(toApproval);
  }

  async answer(id: string, answer: { approved: boolean; reason?: string }): Promise<Approval> {
    this.c.check();
    checkAnswer(answer);
    const b = this.c.backend;
    const changed = await b.db.run(
      "UPDATE corvid_approvals SET status = ?, reason = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
      [answer.approved ? 'approved' : 'denied', answer.reason ?? null, this.c.now(), id],
    );
    const current = await this.get(id);
    if (changed === 0 || !current) throw approvalNotPending(id, current?.status, b.location);
    return current;
  }
}
