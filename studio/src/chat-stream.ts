/**
 * One streamed exchange with the server: a chat turn (`POST /agents/{name}/chat`), an approval answer
 * (`POST /approvals/{id}` with `stream: true`) or a run resume — all answer with the same SSE stream:
 * `session`, the run events, `done`.
 */
import { apiFetch } from './api-client.js';
import type { AgentEvent } from './event-tree.js';
import { readSse } from './sse-parser.js';

/** The `done` event of a stream. */
export interface StreamDone {
  status: 'completed' | 'input_required' | 'paused' | 'failed' | string;
  sessionId?: string;
  runId?: string;
  answer?: string;
  question?: string;
  error?: { code: string; message: string };
}

/** What a stream reports, as it comes. */
export interface StreamHandlers {
  onSession?: (session: { sessionId: string; agent: string }) => void;
  onEvent: (event: AgentEvent) => void;
  onDone?: (done: StreamDone) => void;
}

/** How a stream ended. `dropped`: the connection broke before `done` (reload the session to catch up). */
export type StreamEnd = { kind: 'done'; done: StreamDone } | { kind: 'aborted' } | { kind: 'dropped'; message: string };

/** Posts `body` to `path` asking for SSE and feeds the events to `handlers` until the stream ends. */
export async function runStream(opts: { path: string; body: unknown; signal: AbortSignal; handlers: StreamHandlers }): Promise<StreamEnd> {
  const res = await apiFetch(opts.path, { body: opts.body, stream: true, signal: opts.signal });
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    // A JSON answer (an approval answered while others of its run still wait): report it as done.
    const done = (await res.json()) as StreamDone;
    opts.handlers.onDone?.(done);
    return { kind: 'done', done };
  }
  let done: StreamDone | undefined;
  try {
    await readSse(res.body!, (message) => {
      const data = JSON.parse(message.data) as Record<string, unknown>;
      if (message.event === 'session') opts.handlers.onSession?.(data as { sessionId: string; agent: string });
      else if (message.event === 'done') ((done = data as unknown as StreamDone), opts.handlers.onDone?.(done));
      else if (typeof data.type === 'string') opts.handlers.onEvent(data as unknown as AgentEvent);
    });
  } catch (err) {
    if (opts.signal.aborted) return { kind: 'aborted' };
    return { kind: 'dropped', message: (err as Error).message };
  }
  if (done) return { kind: 'done', done };
  if (opts.signal.aborted) return { kind: 'aborted' };
  return { kind: 'dropped', message: 'the stream ended before the run did' };
}
