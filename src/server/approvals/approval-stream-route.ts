import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';

import type { ServerEnv } from '../app/server-env.js';
import { type ChatService, noStore } from '../chat/chat-service.js';
import { ApprovalFeed, type ApprovalFeedEvent } from './approval-feed.js';
import { approvalView } from './approval-routes.js';

/** Options of `registerApprovalStream`. */
export interface ApprovalStreamOptions {
  chat: ChatService;
  /** Seconds between keep-alive comments. Default 15. */
  heartbeatSeconds?: number;
  /** How often the store is looked at for new and answered approvals. Default 1000 ms. */
  pollMs?: number;
}

/**
 * Registers `GET /api/v1/approvals/stream`: server-sent events `approval` (a new pending approval,
 * as `GET /api/v1/approvals/{id}` shows it) and `resolved` (`{ approvalId, status }`) for the
 * sessions the caller may see, and a `: keep-alive` comment every 15 s. The approvals pending when
 * the stream opens come from `GET /api/v1/approvals`.
 */
export function registerApprovalStream(app: Hono<ServerEnv>, options: ApprovalStreamOptions): void {
  const { chat } = options;
  let feed: ApprovalFeed | undefined;

  app.get('/api/v1/approvals/stream', async (c) => {
    const source = chat.store;
    if (!source) throw noStore();
    const store = await source();
    const log = c.get('log');
    feed ??= new ApprovalFeed({ store: source, pollMs: options.pollMs, onError: (err) => log.warn({ err }, 'approval feed failed') });
    const principal = c.get('principal');
    const seen = new Map<string, boolean>();
    return streamSSE(c, async (stream) => {
      const queue: ApprovalFeedEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = await feed!.subscribe((e) => {
        queue.push(e);
        wake?.();
      });
      let open = true;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      const heartbeat = setInterval(
        () => void stream.write(': keep-alive\n\n').catch(() => undefined),
        (options.heartbeatSeconds ?? 15) * 1000,
      );
      heartbeat.unref();
      try {
        await stream.write(': approvals\n\n');
        while (open) {
          const e = queue.shift();
          if (e === undefined) {
            await new Promise<void>((r) => (wake = r));
            wake = undefined;
            continue;
          }
          if (!(await chat.canSeeSessionOf(store, e.approval.sessionId, principal, seen))) continue;
          if (e.type === 'approval') await stream.writeSSE({ event: 'approval', data: JSON.stringify(approvalView(e.approval)) });
          else await stream.writeSSE({ event: 'resolved', data: JSON.stringify({ approvalId: e.approval.id, status: e.approval.status }) });
        }
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
    });
  });
}
