import type { RunEventWakeups } from '../types/run-queue.js';
import type { RunEventLog } from '../types/storage/run-events.js';

/** How long events wait to be written together (text deltas come many per second). */
const FLUSH_EVERY_MS = 50;

/**
 * Appends one run's events to its log (`store.runEvents`, or the queue's own), numbered from the log's last seq on
 * and written in small batches, one write at a time, in order. Only the worker holding the run's
 * lease writes, so the numbering is its own.
 */
export class RunEventWriter {
  private buffer: { seq: number; type: string; data: unknown }[] = [];
  private writes: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;

  private constructor(
    private readonly log: RunEventLog,
    private readonly runId: string,
    private seq: number,
    private readonly wakeups: RunEventWakeups | undefined,
  ) {}

  /** A writer continuing the run's log (after what an earlier attempt wrote); `wakeups` are told of each write. */
  static async open(log: RunEventLog, runId: string, wakeups?: RunEventWakeups): Promise<RunEventWriter> {
    return new RunEventWriter(log, runId, await log.lastSeq(runId), wakeups);
  }

  /** A writer of a log known to be empty (a run id just made): numbers from 1 without reading the log. */
  static fresh(log: RunEventLog, runId: string, wakeups?: RunEventWakeups): RunEventWriter {
    return new RunEventWriter(log, runId, 0, wakeups);
  }

  /** Adds an event; it is written within `FLUSH_EVERY_MS`. */
  add(type: string, data: unknown): void {
    this.buffer.push({ seq: ++this.seq, type, data });
    // A failed write is kept and thrown by the caller's own `flush()`; the timer's must not reject unhandled.
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), FLUSH_EVERY_MS);
  }

  /** Writes what is buffered; resolves when everything added so far is stored. @throws the first failed write's error */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length > 0) {
      this.writes = this.writes
        .then(() => this.log.append(this.runId, batch))
        .then(() => this.wakeups?.notify(this.runId).catch(() => undefined))
        .catch((err: unknown) => void (this.failure ??= err));
    }
    await this.writes;
    if (this.failure !== undefined) throw this.failure;
  }
}
