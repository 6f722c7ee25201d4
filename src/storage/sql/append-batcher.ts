import type { EntryInsert } from './sql-client.js';

/** One `appendEntries` call waiting to be written. */
export interface AppendRequest {
  sessionId: string;
  rows: EntryInsert[];
  now: number;
  expectedLastSeq?: number;
}

/** Seqs written, or undefined for an unknown session / a stale expectedLastSeq. */
export type AppendResult = number[] | undefined;

interface Waiting {
  request: AppendRequest;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * Group commit on the client side. Appends submitted while earlier ones are being written are
 * collected and written together by the next flush, in one transaction (one disk flush on the
 * server instead of one per append). Each append resolves only after its transaction commits,
 * so an acknowledged append is as durable as one written alone.
 *
 * Per-session order is kept: a session with a request in a running flush gets no request into
 * another flush until that one ends, and a flush applies its requests in submission order.
 */
export class AppendBatcher {
  private queue: Waiting[] = [];
  private running = 0;
  private scheduled = false;
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly flush: (requests: AppendRequest[]) => Promise<AppendResult[]>,
    private readonly maxConcurrent = 2,
    private readonly maxRows = 2000,
  ) {}

  submit(request: AppendRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      if (!this.scheduled) this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.maxConcurrent && this.queue.length > 0) {
      const batch: Waiting[] = [];
      const rest: Waiting[] = [];
      const blocked = new Set<string>();
      let rows = 0;
      for (const w of this.queue) {
        const id = w.request.sessionId;
        const fits = batch.length === 0 || rows + w.request.rows.length <= this.maxRows;
        if (blocked.has(id) || this.inFlight.has(id) || !fits) {
          blocked.add(id);
          rest.push(w);
        } else {
          batch.push(w);
          rows += w.request.rows.length;
        }
      }
      if (batch.length === 0) return;
      this.queue = rest;
      this.start(batch);
    }
  }

  private start(batch: Waiting[]): void {
    this.running++;
    const sessions = batch.map((w) => w.request.sessionId);
    for (const id of sessions) this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    this.flush(batch.map((w) => w.request))
      .then(
        (results) => batch.forEach((w, i) => w.resolve(results[i])),
        (error) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        for (const id of sessions) {
          const n = this.inFlight.get(id)! - 1;
          if (n === 0) this.inFlight.delete(id);
          else this.inFlight.set(id, n);
        }
        this.running--;
        // Pump on the next turn, once the writers just answered have had the chance to queue their
        // next appends: they then share one flush instead of trickling in one by one.
        if (!this.scheduled) {
          this.scheduled = true;
          setImmediate(() => {
            this.scheduled = false;
            this.pump();
          });
        }
      });
  }
}
