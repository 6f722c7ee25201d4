import type { ServerResponse } from 'node:http';

import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { z } from 'zod';

import type { RunResult } from '../../types/result.js';
import type { chatResponseSchema, pausedResponseSchema } from '../api/response-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { ServerMetrics } from '../observability/server-metrics.js';
import type { ChatTurn } from './chat-turn.js';
import { NodeSseStream, type SseSink } from './node-sse-stream.js';

/** How turns are answered over HTTP. */
export interface TurnResponseOptions {
  metrics: ServerMetrics;
  /** What happens to a run when its client goes away. */
  onDisconnect: () => 'continue' | 'stop';
  /** Seconds between SSE keep-alive comments. Default 15. */
  heartbeatSeconds?: number;
}

/**
 * The JSON answer of a completed chat turn: `status: "input_required"` (with `question`, also
 * the `answer`) when the turn ended by asking the user (`ask_user`); the next message answers it.
 */
export function chatAnswer(result: RunResult, sessionId: string): z.output<typeof chatResponseSchema> {
  return {
    ...turnStatus(result),
    answer: result.text,
    sessionId,
    runId: result.runId,
    agent: result.agent,
    ...(result.activeAgent ? { activeAgent: result.activeAgent } : {}),
    usage: result.usage,
    steps: result.steps.length,
    finishReason: result.finishReason,
    durationMs: result.durationMs,
  };
}

/** `completed`, or `input_required` with the question when the turn asked the user something. */
function turnStatus(result: RunResult): { status: 'completed' } | { status: 'input_required'; question: string } {
  return result.needsInput ? { status: 'input_required', question: result.needsInput.question } : { status: 'completed' };
}

/** The JSON answer of a turn that paused for approvals (HTTP 202). */
export function pausedAnswer(
  result: RunResult,
  sessionId: string,
): z.output<typeof pausedResponseSchema> & { agent: string; sessionId: string; usage: RunResult['usage'] } {
  return {
    status: 'paused' as const,
    runId: result.runId,
    sessionId,
    agent: result.agent,
    pendingApprovals: (result.pendingApprovals ?? []).map((a) => ({
      approvalId: a.approvalId,
      toolCallId: a.toolCallId,
      toolName: a.toolName,
      input: a.input,
      prompt: a.prompt,
    })),
    usage: result.usage,
  };
}

/** The `done` event / message closing a streamed turn. */
export function doneEvent(result: RunResult, sessionId: string) {
  if (result.status === 'paused') {
    const p = pausedAnswer(result, sessionId);
    return { status: 'paused' as const, sessionId, runId: p.runId, pendingApprovals: p.pendingApprovals, usage: p.usage };
  }
  return { ...turnStatus(result), sessionId, runId: result.runId, answer: result.text, usage: result.usage };
}

/** The `done` event of a streamed turn that failed, or `cancelled` when it was stopped (`run_aborted`), as its run is. */
export function failedEvent(err: { code?: string; message?: string } | undefined, sessionId: string) {
  const status = err?.code === 'run_aborted' ? ('cancelled' as const) : ('failed' as const);
  return { status, sessionId, error: { code: err?.code ?? 'internal', message: err?.message ?? String(err) } };
}

/** @hono/node-server's answer for a response written directly (loaded once, with the first stream). */
let alreadySent: Response | undefined;

/** The Node response of a request served by @hono/node-server, not yet started. */
function nodeResponse(c: Context<ServerEnv>): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return typeof outgoing?.writeHead === 'function' && !outgoing.headersSent ? outgoing : undefined;
}

/** Headers middleware set on the context (CORS), for a response written directly. */
function contextHeaders(c: Context<ServerEnv>): Record<string, string> {
  const headers: Record<string, string> = {};
  c.res.headers.forEach((value, name) => (headers[name] = value));
  const origin = headers['access-control-allow-origin'];
  if (origin !== undefined && origin !== '*') headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
  return headers;
}

/**
 * Runs `turn` and answers: JSON (200 completed, 202 paused for approvals), or an SSE stream of
 * `session`, every run event (`event: <type>`), then `done` (`completed`, `input_required`, `paused`
 * or `failed`). On Node the stream is written to the socket's response directly (`NodeSseStream`).
 */
export async function respondWithTurn(
  c: Context<ServerEnv>,
  turn: ChatTurn,
  streaming: boolean,
  options: TurnResponseOptions,
): Promise<Response> {
  const sessionId = turn.sessionId;
  const stop = options.onDisconnect() === 'stop';
  if (!streaming) {
    const result = await turn.run(stop ? c.req.raw.signal : undefined);
    return result.status === 'paused' ? c.json(pausedAnswer(result, sessionId), 202) : c.json(chatAnswer(result, sessionId));
  }
  const log = c.get('log');
  const write = async (stream: SseSink): Promise<void> => {
    const closed = options.metrics.streamOpened();
    const run = turn.stream();
    let gone = false;
    stream.onAbort(() => {
      gone = true;
      closed();
      log.info({ sessionId, onDisconnect: stop ? 'stop' : 'continue' }, 'stream client disconnected');
      if (stop) run.abort('the client disconnected');
    });
    const heartbeat = setInterval(
      () => void stream.write(': keep-alive\n\n').catch(() => undefined),
      (options.heartbeatSeconds ?? 15) * 1000,
    );
    heartbeat.unref();
    try {
      await stream.writeSSE({ event: 'session', data: JSON.stringify({ sessionId, agent: turn.agent.name }) });
      for await (const e of run) {
        if (gone) break;
        await stream.writeSSE({ event: e.type, data: JSON.stringify(e) });
      }
      if (!gone) {
        const end = await run.result.then(
          (r) => doneEvent(r, sessionId),
          (err: { code?: string; message?: string }) => failedEvent(err, sessionId),
        );
        await stream.writeSSE({ event: 'done', data: JSON.stringify(end) });
      }
    } finally {
      clearInterval(heartbeat);
      closed();
    }
  };
  return sendSse(c, write);
}

/**
 * Answers with a server-sent event stream that `write` fills (on Node, written to the socket's
 * response directly: `NodeSseStream`); the stream ends when `write` settles.
 */
export async function sendSse(c: Context<ServerEnv>, write: (stream: SseSink) => Promise<void>): Promise<Response> {
  const outgoing = nodeResponse(c);
  if (!outgoing) return streamSSE(c, write);
  alreadySent ??= (await import('@hono/node-server/utils/response')).RESPONSE_ALREADY_SENT;
  const stream = new NodeSseStream(outgoing, contextHeaders(c));
  const log = c.get('log');
  void write(stream)
    .catch((err: unknown) => log.error({ err }, 'stream failed'))
    .finally(() => stream.end());
  return alreadySent;
}
