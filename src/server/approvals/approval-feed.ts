import type { Approval } from '../../types/storage/runs.js';
import type { Store } from '../../types/storage/store.js';

/** What an approval feed reports: a new pending approval, or one answered. */
export type ApprovalFeedEvent = { type: 'approval'; approval: Approval } | { type: 'resolved'; approval: Approval };

/** Options of `ApprovalFeed`. */
export interface ApprovalFeedOptions {
  store: () => Promise<Store>;
  /** How often the store is looked at while someone listens. Default 1000 ms. */
  pollMs?: number;
  /** Where a failed look is reported. */
  onError?: (err: unknown) => void;
}

/**
 * Pending approvals as they come and go, for `GET /api/v1/approvals/stream`: while at least one
 * listener is subscribed, the store's pending approvals are read every `pollMs` (one read for
 * every listener) and compared with the last read — so approvals created or answered by any
 * process on the same database are seen.
 */
export class ApprovalFeed {
  private readonly listeners = new Set<(e: ApprovalFeedEvent) => void>();
  private known: Map<string, Approval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly pollMs: number;

  constructor(private readonly options: ApprovalFeedOptions) {
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Starts sending events to `listener` (approvals pending now are not sent); returns the unsubscribe function. */
  async subscribe(listener: (e: ApprovalFeedEvent) => void): Promise<() => void> {
    if (this.known === undefined) this.known = await this.pending();
    this.listeners.add(listener);
    this.schedule();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.known = undefined;
      }
    };
  }

  /** Looks at the store now (e.g. right after an approval was answered here). */
  async poll(): Promise<void> {
    if (this.listeners.size === 0 || this.known === undefined) return;
    const before = this.known;
    const now = await this.pending();
    if (this.listeners.size === 0) return;
    this.known = now;
    const events: ApprovalFeedEvent[] = [];
    for (const [id, a] of now) if (!before.has(id)) events.push({ type: 'approval', approval: a });
    if ([...before.keys()].some((id) => !now.has(id))) {
      const store = await this.options.store();
      for (const id of before.keys()) {
        if (now.has(id)) continue;
        const answered = await store.approvals.get(id);
        if (answered !== undefined) events.push({ type: 'resolved', approval: answered });
      }
    }
    for (const e of events) for (const l of this.listeners) l(e);
  }

  private async pending(): Promise<Map<string, Approval>> {
    const store = await this.options.store();
    return new Map((await store.approvals.listPending({ limit: 1000 })).map((a) => [a.id, a]));
  }

  private schedule(): void {
    if (this.timer !== undefined || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      void this.poll()
        .catch((err: unknown) => this.options.onError?.(err))
        .finally(() => {
          this.timer = undefined;
          this.schedule();
        });
    }, this.pollMs);
    this.timer.unref();
  }
}
