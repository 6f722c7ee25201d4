import { StorageError } from '../../errors/storage-error.js';
import type {
  BackgroundRun,
  BackgroundRunInput,
  BackgroundRunOutcome,
  BackgroundRunStatus,
  BackgroundRunStore,
} from '../../types/storage/background-runs.js';
import { isFinalRunStatus } from '../../types/storage/background-runs.js';
import type { RunEventInput, RunEventLog, RunEventRecord } from '../../types/storage/run-events.js';
import { decodeJson, encodeJson } from '../shared/json-codec.js';
import { checkId, checkLimit } from '../shared/validate.js';
import type { MemContext } from './sessions.js';

/** Copies a run so callers never share objects with the store. */
const copy = (r: BackgroundRun): BackgroundRun => decodeJson(encodeJson(r)) as BackgroundRun;

/** Submitted runs in process memory. */
export class MemoryBackgroundRunStore implements BackgroundRunStore {
  private readonly runs = new Map<string, BackgroundRun>();

  constructor(private readonly c: MemContext) {}

  async create(input: BackgroundRunInput): Promise<BackgroundRun> {
    this.c.check();
    checkId('Run id', input.runId);
    if (this.runs.has(input.runId))
      throw new StorageError(`A run with id "${input.runId}" exists already in memory:`, { kind: 'conflict', location: 'memory:' });
    const now = new Date(this.c.now());
    const run: BackgroundRun = {
      ...input,
      status: 'queued',
      cancelRequested: false,
      attempts: 0,
      runAt: input.runAt ?? now,
      createdAt: now,
      updatedAt: now,
    };
    this.runs.set(run.runId, run);
    return copy(run);
  }

  async get(runId: string): Promise<BackgroundRun | undefined> {
    this.c.check();
    const r = this.runs.get(runId);
    return r ? copy(r) : undefined;
  }

  async list(filter: { status: BackgroundRunStatus; due?: boolean; limit?: number }): Promise<BackgroundRun[]> {
    this.c.check();
    const now = this.c.now();
    return [...this.runs.values()]
      .filter((r) => r.status === filter.status && (!filter.due || r.runAt.getTime() <= now))
      .sort((a, b) => a.runAt.getTime() - b.runAt.getTime())
      .slice(0, checkLimit(filter.limit, 100))
      .map(copy);
  }

  async markStarted(runId: string, worker: string, attempts: number): Promise<BackgroundRun | undefined> {
    const r = this.open(runId);
    if (!r || r.cancelRequested || r.attempts !== attempts) return undefined;
    Object.assign(r, { status: 'running', attempts: r.attempts + 1, worker, updatedAt: new Date(this.c.now()) });
    return copy(r);
  }

  async requeue(runId: string): Promise<BackgroundRun | undefined> {
    const r = this.open(runId);
    if (r?.status !== 'paused') return undefined;
    const now = new Date(this.c.now());
    Object.assign(r, { status: 'queued', runAt: now, updatedAt: now });
    return copy(r);
  }

  async finish(runId: string, outcome: BackgroundRunOutcome): Promise<boolean> {
    const r = this.open(runId);
    if (!r) return false;
    const now = new Date(this.c.now());
    r.status = outcome.status;
    r.updatedAt = now;
    if (outcome.result !== undefined) r.result = decodeJson(encodeJson(outcome.result));
    if (outcome.error !== undefined) r.error = { ...outcome.error };
    if (isFinalRunStatus(outcome.status)) r.finishedAt = now;
    return true;
  }

  async requestCancel(runId: string): Promise<BackgroundRun | undefined> {
    const r = this.open(runId);
    if (r) {
      r.cancelRequested = true;
      r.updatedAt = new Date(this.c.now());
      if (r.status === 'queued') Object.assign(r, { status: 'cancelled', finishedAt: r.updatedAt });
    }
    return this.get(runId);
  }

  async cancelRequested(runIds: readonly string[]): Promise<string[]> {
    this.c.check();
    return runIds.filter((id) => this.runs.get(id)?.cancelRequested === true);
  }

  /** The run when it exists and is not final. */
  private open(runId: string): BackgroundRun | undefined {
    this.c.check();
    const r = this.runs.get(runId);
    return r && !isFinalRunStatus(r.status) ? r : undefined;
  }
}

/** Run event logs in process memory. */
export class MemoryRunEventLog implements RunEventLog {
  private readonly logs = new Map<string, RunEventRecord[]>();

  constructor(private readonly c: MemContext) {}

  async append(runId: string, events: readonly RunEventInput[]): Promise<void> {
    this.c.check();
    const log = this.logs.get(runId) ?? [];
    const seen = new Set(log.map((e) => e.seq));
    if (events.some((e) => seen.has(e.seq)))
      throw new StorageError(`Run "${runId}" has events from seq ${events[0].seq} already (another writer) in memory:`, {
        kind: 'conflict',
        location: 'memory:',
      });
    const createdAt = new Date(this.c.now());
    for (const e of events) log.push({ runId, seq: e.seq, type: e.type, data: decodeJson(encodeJson(e.data)), createdAt });
    log.sort((a, b) => a.seq - b.seq);
    this.logs.set(runId, log);
  }

  async read(runId: string, options: { after?: number; limit?: number } = {}): Promise<RunEventRecord[]> {
    this.c.check();
    const limit = checkLimit(options.limit, 1000, 10_000);
    return (this.logs.get(runId) ?? []).filter((e) => e.seq > (options.after ?? 0)).slice(0, limit);
  }

  async lastSeq(runId: string): Promise<number> {
    this.c.check();
    const log = this.logs.get(runId);
    return log && log.length > 0 ? log[log.length - 1].seq : 0;
  }
}
