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
import { approvalIdTaken, approvalNotPending, unknownRun, unknownSession } from '../shared/errors.js';
import { sortableId } from '../shared/ids.js';
import { decodeJson, encodeJson } from '../shared/json-codec.js';
import { checkAnswer, checkApproval, checkCheckpoint, checkLimit, checkStatus } from '../shared/validate.js';
import type { MemApproval, MemRun } from './data.js';
import { appendEntries, type MemContext } from './sessions.js';

function toRun(r: MemRun): RunRecord {
  const out: RunRecord = {
    runId: r.runId,
    agent: r.agent,
    status: r.status,
    checkpoints: r.checkpoints,
    createdAt: new Date(r.createdAt),
    updatedAt: new Date(r.updatedAt),
  };
  if (r.sessionId !== undefined) out.sessionId = r.sessionId;
  if (r.expiresAt !== undefined) out.expiresAt = new Date(r.expiresAt);
  return out;
}

function toApproval(a: MemApproval): Approval {
  const out: Approval = {
    id: a.id,
    runId: a.runId,
    toolCallId: a.toolCallId,
    toolName: a.toolName,
    args: decodeJson(a.args),
    status: a.status,
    createdAt: new Date(a.createdAt),
  };
  if (a.sessionId !== undefined) out.sessionId = a.sessionId;
  if (a.prompt !== undefined) out.prompt = a.prompt;
  if (a.reason !== undefined) out.reason = a.reason;
  if (a.answeredAt !== undefined) out.answeredAt = new Date(a.answeredAt);
  return out;
}

const live = (expiresAt: number | undefined, now: number) => expiresAt === undefined || expiresAt > now;

/** Run checkpoints held in memory. */
export class MemoryCheckpointStore implements CheckpointStore {
  constructor(private readonly c: MemContext) {}

  async save(input: CheckpointInput): Promise<Checkpoint> {
    this.c.check();
    checkCheckpoint(input);
    const d = this.c.data;
    if (input.sessionId !== undefined && !d.sessions.has(input.sessionId)) throw unknownSession(input.sessionId, this.c.location);
    const state = encodeJson(input.state);
    // Checked in full before it writes; the checkpoint below cannot fail: both or neither.
    if (input.append !== undefined)
      appendEntries(this.c, input.sessionId!, input.append.entries, { expectedLastSeq: input.append.expectedLastSeq });
    const now = this.c.now();
    const expiresAt = input.expiresAt?.getTime();
    let run = d.runs.get(input.runId);
    if (!run) {
      run = {
        runId: input.runId,
        agent: input.agent,
        status: input.status,
        checkpoints: 0,
        createdAt: now,
        updatedAt: now,
        order: d.next(),
      };
      d.runs.set(input.runId, run);
      d.checkpoints.set(input.runId, []);
    }
    run.checkpoints++;
    run.agent = input.agent;
    run.status = input.status;
    run.updatedAt = now;
    run.order = d.next();
    run.expiresAt = expiresAt;
    if (input.sessionId !== undefined) run.sessionId = input.sessionId;
    const row = { seq: run.checkpoints, status: input.status, state, createdAt: now, expiresAt };
    d.checkpoints.get(input.runId)!.push(row);
    return this.toCheckpoint(run, row);
  }

  private toCheckpoint(
    run: MemRun,
    row: { seq: number; status: Checkpoint['status']; state: string; createdAt: number; expiresAt?: number },
  ): Checkpoint {
    const c: Checkpoint = {
      runId: run.runId,
      seq: row.seq,
      agent: run.agent,
      status: row.status,
      state: decodeJson(row.state),
      createdAt: new Date(row.createdAt),
    };
    if (run.sessionId !== undefined) c.sessionId = run.sessionId;
    if (row.expiresAt !== undefined) c.expiresAt = new Date(row.expiresAt);
    return c;
  }

  async latest(runId: string): Promise<Checkpoint | undefined> {
    this.c.check();
    const run = this.c.data.runs.get(runId);
    const now = this.c.now();
    const rows = (this.c.data.checkpoints.get(runId) ?? []).filter((r) => live(r.expiresAt, now));
    const row = rows[rows.length - 1];
    return run && row ? this.toCheckpoint(run, row) : undefined;
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    this.c.check();
    const run = this.c.data.runs.get(runId);
    return run ? toRun(run) : undefined;
  }

  async listRuns(options: RunListOptions = {}): Promise<RunRecord[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 100);
    const statuses =
      options.status === undefined ? undefined : (Array.isArray(options.status) ? options.status : [options.status]).map(checkStatus);
    const now = this.c.now();
    return [...this.c.data.runs.values()]
      .filter(
        (r) =>
          live(r.expiresAt, now) &&
          (!statuses || statuses.includes(r.status)) &&
          (options.sessionId === undefined || r.sessionId === options.sessionId) &&
          (options.agent === undefined || r.agent === options.agent),
      )
      .sort((a, b) => b.updatedAt - a.updatedAt || b.order - a.order)
      .slice(0, limit)
      .map(toRun);
  }

  async delete(runId: string): Promise<boolean> {
    this.c.check();
    const d = this.c.data;
    d.checkpoints.delete(runId);
    for (const a of d.approvals.values()) if (a.runId === runId) d.approvals.delete(a.id);
    return d.runs.delete(runId);
  }

  async deleteExpired(now?: Date): Promise<number> {
    this.c.check();
    const t = now?.getTime() ?? this.c.now();
    let removed = 0;
    for (const [runId, rows] of this.c.data.checkpoints) {
      const kept = rows.filter((r) => live(r.expiresAt, t));
      removed += rows.length - kept.length;
      if (kept.length > 0) this.c.data.checkpoints.set(runId, kept);
      else await this.delete(runId);
    }
    return removed;
  }
}

/** Approvals held in memory. */
export class MemoryApprovalStore implements ApprovalStore {
  constructor(private readonly c: MemContext) {}

  async create(input: ApprovalInput): Promise<Approval> {
    this.c.check();
    checkApproval(input);
    const d = this.c.data;
    const run = d.runs.get(input.runId);
    if (!run) throw unknownRun(input.runId, this.c.location);
    for (const a of d.approvals.values()) if (a.runId === input.runId && a.toolCallId === input.toolCallId) return toApproval(a);
    const id = input.id ?? sortableId('apr');
    if (d.approvals.has(id)) throw approvalIdTaken(id, this.c.location);
    const row: MemApproval = {
      id,
      runId: input.runId,
      sessionId: run.sessionId,
      toolCallId: input.toolCallId,
      toolName: input.toolName,
      args: encodeJson(input.args),
      prompt: input.prompt,
      status: 'pending',
      createdAt: this.c.now(),
      order: d.next(),
    };
    d.approvals.set(id, row);
    return toApproval(row);
  }

  async get(id: string): Promise<Approval | undefined> {
    this.c.check();
    const a = this.c.data.approvals.get(id);
    return a ? toApproval(a) : undefined;
  }

  private sorted(filter: (a: MemApproval) => boolean): MemApproval[] {
    this.c.check();
    return [...this.c.data.approvals.values()].filter(filter).sort((a, b) => a.createdAt - b.createdAt || a.order - b.order);
  }

  async listPending(options: { runId?: string; sessionId?: string; limit?: number } = {}): Promise<Approval[]> {
    const limit = checkLimit(options.limit, 100);
    return this.sorted(
      (a) =>
        a.status === 'pending' &&
        (options.runId === undefined || a.runId === options.runId) &&
        (options.sessionId === undefined || a.sessionId === options.sessionId),
    )
      .slice(0, limit)
      .map(toApproval);
  }

  async listForRun(runId: string): Promise<Approval[]> {
    return this.sorted((a) => a.runId === runId).map(toApproval);
  }

  async answer(id: string, answer: { approved: boolean; reason?: string }): Promise<Approval> {
    this.c.check();
    checkAnswer(answer);
    const a = this.c.data.approvals.get(id);
    if (!a || a.status !== 'pending') throw approvalNotPending(id, a?.status, this.c.location);
    a.status = answer.approved ? 'approved' : 'denied';
    if (answer.reason !== undefined) a.reason = String(answer.reason);
    a.answeredAt = this.c.now();
    return toApproval(a);
  }
}
