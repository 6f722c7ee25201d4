/**
 * The live list of pending approvals: loads `GET /approvals` (the pending ones), then follows
 * `GET /approvals/stream` (SSE: `approval`, `resolved`), reconnecting with back-off and reloading the list on
 * every reconnect so nothing is missed. On servers without the stream it polls the list instead.
 */
import { api, ApiError, apiFetch } from './api-client.js';
import type { Approval } from './api-types.js';
import { reportRejection } from './report-rejection.js';
import { parseSseJson } from './sse-data.js';
import { readSse } from './sse-parser.js';

/** What the feed reports: the whole list each time it changes, and how it is connected. */
export interface ApprovalFeedHandlers {
  onList: (approvals: Approval[]) => void;
  onState: (state: 'live' | 'polling' | 'reconnecting', error?: Error) => void;
}

const POLL_MS = 5000;

/** Starts the feed; the returned function stops it. */
export function startApprovalFeed(handlers: ApprovalFeedHandlers): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  let list: Approval[] = [];
  const publish = (next: Approval[]) => ((list = next), handlers.onList(list));
  // `GET /approvals` lists the pending ones (servers with a `status` filter default to pending too).
  const load = async () =>
    publish((await api<{ approvals: Approval[] }>('/approvals', { signal })).approvals.filter((a) => a.status === 'pending'));
  const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  const follow = async (): Promise<'no_stream' | 'ended'> => {
    let res: Response;
    try {
      res = await apiFetch('/approvals/stream', { signal, stream: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return 'no_stream';
      throw err;
    }
    await load();
    handlers.onState('live');
    await readSse(res.body!, (message) => {
      if (message.event !== 'approval' && message.event !== 'resolved') return;
      // A malformed event is skipped (and logged): the feed reads on.
      const data = parseSseJson(message.event, message.data);
      const approvalId = data.value?.approvalId;
      if (typeof approvalId !== 'string') return console.error(data.error ?? `malformed \`${message.event}\` event: no \`approvalId\``);
      if (message.event === 'resolved') publish(list.filter((a) => a.approvalId !== approvalId));
      else if (!list.some((a) => a.approvalId === approvalId)) publish([...list, data.value as unknown as Approval]);
    });
    return 'ended';
  };

  void (async () => {
    for (let attempt = 0; !signal.aborted;) {
      try {
        const how = await follow();
        if (how === 'no_stream') {
          handlers.onState('polling');
          await load();
          await wait(POLL_MS);
          continue;
        }
        attempt = 0;
      } catch (err) {
        if (signal.aborted) return;
        handlers.onState('reconnecting', err as Error);
        attempt++;
      }
      if (!signal.aborted) (handlers.onState('reconnecting'), await wait(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6))));
    }
  })().catch(reportRejection('the approval feed'));
  return () => controller.abort();
}
