/**
 * Streamed exchanges with the server. A background run's log (`GET /runs/{id}/stream?after=<seq>`: its events
 * numbered by `id:`, closed by `done`), which any page may follow from any point — the chat sends its turns as
 * background runs and follows them so. And the older chat stream: a chat turn (`POST /agents/{name}/chat`), an
 * approval answer (`POST /approvals/{id}` with `stream: true`) or a run resume — `session`, the run events, `done`.
 */
import { apiFetch, query, seg } from './api-client.js';
import type { AgentEvent } from './event-tree.js';
import { checkAgentEvent, checkDone, type Checked, checkSession, parseSseJson } from './sse-data.js';
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
  /** An event whose data is not what its name says (skipped; the stream reads on). Default: the browser console. */
  onMalformed?: (problem: string) => void;
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
  const use = <T>(checked: Checked<T> | undefined, apply: (value: T) => void) => applyChecked(handlers, checked, apply);
  return readEvents(
    res,
    signal,
    handlers,
    () => done,
    (event, data) => {
      if (data === undefined) return;
      if (event === 'session') use(checkSession(data), (s) => handlers.onSession?.(s));
      else if (event === 'done') use(checkDone<StreamDone>(data, DONE_STRINGS, ['error']), (d) => ((done = d), handlers.onDone?.(d)));
      else use(checkAgentEvent(event, data), handlers.onEvent);
    },
  );
}

const DONE_STRINGS = ['sessionId', 'runId', 'answer', 'question'];

/** Hands a checked value to `apply`, or its problem to `onMalformed`; `undefined` (an unknown event type) is skipped. */
function applyChecked<T>(handlers: StreamHandlers, checked: Checked<T> | undefined, apply: (value: T) => void): void {
  if (checked?.error !== undefined) (handlers.onMalformed ?? console.error)(checked.error);
  else if (checked !== undefined) apply(checked.value);
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
  const { handlers } = opts;
  return readEvents(
    res,
    opts.signal,
    handlers,
    () => done,
    (event, data, id) => {
      const seq = id === undefined ? NaN : Number(id);
      if (data === undefined) {
        // Reported by readEvents.
      } else if (event === 'done') {
        applyChecked(handlers, checkDone<RunDone>(data, ['runId'], ['result', 'error']), (d) => {
          done = {
            status: d.status,
            runId: d.runId,
            ...(d.result?.text !== undefined && { answer: d.result.text }),
            ...(d.result?.sessionId !== undefined && { sessionId: d.result.sessionId }),
            ...(d.result?.question !== undefined && { question: d.result.question }),
            ...(d.error !== undefined && { error: d.error }),
          };
          handlers.onDone?.(done);
        });
      } else applyChecked(handlers, checkAgentEvent(event, data), handlers.onEvent);
      // A malformed event is passed too: following again after it does not read it again.
      if (Number.isInteger(seq)) handlers.onSeq?.(seq);
    },
  );
}

async function readEvents(
  res: Response,
  signal: AbortSignal,
  handlers: StreamHandlers,
  done: () => StreamDone | undefined,
  onMessage: (event: string, data: Record<string, unknown> | undefined, id: string | undefined) => void,
): Promise<StreamEnd> {
  try {
    await readSse(res.body!, (message) => {
      const data = parseSseJson(message.event, message.data);
      if (data.error !== undefined) (handlers.onMalformed ?? console.error)(data.error);
      onMessage(message.event, data.value, message.id);
    });
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'dropped', message: (err as Error).message };
  }
  const end = done();
  if (end) return { kind: 'done', done: end };
  if (signal.aborted) return { kind: 'aborted' };
  return { kind: 'dropped', message: 'the stream ended before the run did' };
}
