/**
 * A turn through the chat route (`POST /agents/{name}/chat`, or an approval answered with `stream: true`), for
 * servers without background runs: the answer streams into the turn; Stop aborts the request; a dropped stream
 * reloads the session (retrying with back-off).
 */
import { ApiError } from './api-client.js';
import { malformedIn } from './chat-runs.js';
import { runStream, type StreamEnd } from './chat-stream.js';
import { applyEvent } from './event-tree.js';
import type { Turn } from './use-chat.js';

/** Streams one chat-route exchange into `turn`. */
export async function streamChatTurn(opts: {
  turn: Turn;
  path: string;
  body: unknown;
  /** Aborted when the page leaves the session. */
  scope: AbortSignal;
  onSession: (session: { sessionId: string; agent: string }) => void;
  bump: () => void;
  /** Shows the session as stored. */
  reload: () => void;
}): Promise<void> {
  const { turn, bump } = opts;
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, opts.scope]);
  turn.abort = () => controller.abort();
  turn.running = true;
  turn.notice = undefined;
  bump();
  let end: StreamEnd;
  try {
    end = await runStream({
      path: opts.path,
      body: opts.body,
      signal,
      handlers: {
        onSession: opts.onSession,
        onEvent: (event) => (applyEvent(turn.tree, event), bump()),
        onDone: (done) => (turn.done = done),
        onMalformed: malformedIn(turn, bump),
      },
    });
  } catch (err) {
    end = { kind: 'aborted' };
    if (!signal.aborted) turn.error = err as Error;
  }
  turn.running = false;
  turn.abort = undefined;
  if (end.kind === 'aborted' && controller.signal.aborted) turn.notice = 'Stopped.';
  if (end.kind === 'dropped') {
    turn.notice = `Connection lost (${end.message}); reloading the session…`;
    if (!(turn.error instanceof ApiError)) opts.reload();
  }
  bump();
}
