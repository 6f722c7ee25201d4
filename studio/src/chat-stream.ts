/**
 * Streamed exchanges with the server. A background run's log (`GET /runs/{id}/stream?after=<seq>`: its events
 * numbered by `id:`, closed by `done`), which any page may follow from any point — the chat sends its turns as
 * background runs and follows them so. And the older chat stream: a chat turn (`POST /agents/{name}/chat`), an
 * approval answer (`POST /approvals/{id}` with `stream: true`) or a run resume — `session`, the run events, `done`.
 */
import { apiFetch, query, seg } from './api-client.js';
import type { AgentEvent } from './event-tree.js';
import { readSse } from './sse-parser.js';

/** The `done` event of a stream. */
export interface StreamDone {
  status: 'completed' | 'input_required' | 'paused' | 'failed' | 'cancelled' | string;
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
  /** The seq (`id:`) of each event of a run log, as it is read. */
  onSeq?: (seq: number) => void;
}

/** How a stream ended. `dropped`: the connection broke before `done` (follow again, or reload the session). */
export type StreamEnd = { kind: 'done'; done: StreamDone } | { kind: 'aborted' } | { kind: 'dropped'; message: string };

/** Posts `body` to `path` asking for SSE and feeds the events to `handlers` until the stream ends. */
export async function runStream(opts: { path: string; body: unknown; signal: AbortSignal; handlers: StreamHandlers }): Promise<StreamEnd> {
  const res = await apiFetch(opts.path, { body: opts.body, stream: true, signal: opts.signal });
  return readTurnStream(res, opts.signal, opts.handlers);
}

/** Reads an answer of the chat routes: SSE, or JSON (an approval answered while others of its run still wait). */
export async function readTurnStream(res: Response, signal: AbortSignal, handlers: StreamHandlers): Promise<StreamEnd> {
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    const done = (await res.json()) as StreamDone;
    handlers.onDone?.(done);
    return { kind: 'done', done };
  }
  let done: StreamDone | undefined;
  return readEvents(
    res,
    signal,
    () => done,
    (event, data) => {
      if (event === 'session') handlers.onSession?.(data as { sessionId: string; agent: string });
      else if (event === 'done') ((done = data as unknown as StreamDone), handlers.onDone?.(done));
      else if (typeof data.type === 'string') handlers.onEvent(data as unknown as AgentEvent);
    },
  );
}

/** A background run's `done` event: `{ runId, status, result?, error? }`. */
interface RunDone {
  runId: string;
  status: string;
  result?: { text?: string; sessionId?: string; question?: string };
  error?: { code: string; message: string };
}

/**
 * Follows background run `runId`'s event log after seq `after` until its `done` (or the signal): each event goes
 * to `onEvent`, its seq to `onSeq`. A run that pauses for approvals ends its log with `done` `{status: "paused"}`;
 * once answered, its log may go on: follow again after that `done`'s seq.
 * @throws ApiError when the run has no log here (404) or the server refuses.
 */
export async function followRun(opts: { runId: string; after: number; signal: AbortSignal; handlers: StreamHandlers }): Promise<StreamEnd> {
  const res = await apiFetch(`/runs/${seg(opts.runId)}/stream${query({ after: opts.after || undefined })}`, {
    stream: true,
    signal: opts.signal,
  });
  let done: StreamDone | undefined;
  return readEvents(
    res,
    opts.signal,
    () => done,
    (event, data, id) => {
      const seq = id === undefined ? NaN : Number(id);
      if (event === 'done') {
        const d = data as unknown as RunDone;
        done = {
          status: d.status,
          runId: d.runId,
          ...(d.result?.text !== undefined && { answer: d.result.text }),
          ...(d.result?.sessionId !== undefined && { sessionId: d.result.sessionId }),
          ...(d.result?.question !== undefined && { question: d.result.question }),
          ...(d.error !== undefined && { error: d.error }),
        };
        opts.handlers.onDone?.(done);
      } else if (typeof data.type === 'string') opts.handlers.onEvent(data as unknown as AgentEvent);
      if (Number.isInteger(seq)) opts.handlers.onSeq?.(seq);
    },
  );
}

async function readEvents(
  res: Response,
  signal: AbortSignal,
  done: () => StreamDone | undefined,
  onMessage: (event: string, data: Record<string, unknown>, id: string | undefined) => void,
): Promise<StreamEnd> {
  try {
    await readSse(res.body!, (message) => onMessage(message.event, JSON.parse(message.data) as Record<string, unknown>, message.id));
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'dropped', message: (err as Error).message };
  }
  const end = done();
  if (end) return { kind: 'done', done: end };
  if (signal.aborted) return { kind: 'aborted' };
  return { kind: 'dropped', message: 'the stream ended before the run did' };
}
