import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';

import { usesUserScopedTools } from '../../core/user-scoped.js';
import type { BackgroundRuns } from '../../durable/background-runs.js';
import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { BackgroundRun } from '../../types/storage/background-runs.js';
import { isFinalRunStatus } from '../../types/storage/background-runs.js';
import type { Store } from '../../types/storage/store.js';
import { parseJsonBody, parseOr400, RECORD_ID, runQuerySchema, submitRunSchema } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { AgentAccess } from '../auth/agent-access.js';
import { canSeeOwner, principalUser } from '../auth/principal.js';
import { type ChatService, noStore } from '../chat/chat-service.js';
import { registerScheduleRoutes } from './schedule-routes.js';

/** What the background-run routes need. */
export interface BackgroundRunRoutesOptions {
  chat: ChatService;
  access: AgentAccess;
  /** The runtime's `runs`, when it has them. */
  runs: () => BackgroundRuns | undefined;
  maxBodyBytes: number;
  /** Seconds between SSE keep-alive comments. Default 15. */
  heartbeatSeconds?: number;
}

/** A background run as the API shows it. */
export function backgroundRunView(r: BackgroundRun) {
  return {
    runId: r.runId,
    agent: r.agent,
    status: r.status,
    input: r.input.length > 200 ? `${r.input.slice(0, 199)}…` : r.input,
    ...(r.sessionId !== undefined ? { sessionId: r.sessionId } : {}),
    attempts: r.attempts,
    ...(r.result !== undefined ? { result: r.result } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    ...(r.finishedAt !== undefined ? { finishedAt: r.finishedAt.toISOString() } : {}),
    ...(r.runAt.getTime() > r.createdAt.getTime() ? { runAt: r.runAt.toISOString() } : {}),
  };
}

/**
 * Registers the background runs (before the other run routes: a run id that is no background
 * run falls through to them):
 * - `POST /api/v1/runs` `{agent, input, sessionId?, webhook?, delaySeconds? | runAt?}`: 202 with the queued run;
 * - `GET /api/v1/runs/{id}?wait=<seconds>`: the run, after waiting up to `wait` for it to end (a run
 *   resumed outside the queue falls through to the run routes, which show its checkpoints);
 * - `GET /api/v1/runs/{id}/stream?after=<seq>`: its events as SSE (`id:` is the seq, so
 *   `Last-Event-ID` resumes), from any instance on the same store, until `done`;
 * - `POST /api/v1/runs/{id}/cancel`: stops it wherever it runs (202).
 * A principal sees the runs it submitted (every run, without auth).
 */
export function registerBackgroundRunRoutes(app: Hono<ServerEnv>, options: BackgroundRunRoutesOptions): void {
  const runsOrThrow = (): BackgroundRuns => {
    const runs = options.runs();
    if (runs === undefined || options.chat.store === undefined) throw noStore();
    return runs;
  };
  const visible = async (c: Context<ServerEnv>): Promise<BackgroundRun | undefined> => {
    const runs = options.runs();
    const id = c.req.param('id') ?? '';
    if (runs === undefined || options.chat.store === undefined || !RECORD_ID.test(id)) return undefined;
    const run = await runs.get(id);
    return run && canSeeOwner(run.owner, c.get('principal'), options.access.authEnabled) ? run : undefined;
  };

  app.post('/api/v1/runs', async (c) => {
    const runs = runsOrThrow();
    const body = parseOr400(submitRunSchema, parseJsonBody(await readBodyText(c, options.maxBodyBytes)), 'run request');
    const principal = c.get('principal');
    const agent = options.access.resolve(body.agent, principal);
    if (body.sessionId !== undefined) await checkSession(options.chat, body.sessionId, agent.name, principal);
    const owner = principalUser(principal);
    if (owner === undefined && options.access.authEnabled && usesUserScopedTools(agent))
      throw new HttpError(
        401,
        'unauthorized',
        `Agent "${agent.name}" uses tools that work on the caller's own data (memories, past conversations): running it needs a credential`,
        { headers: { 'www-authenticate': 'Bearer' } },
      );
    const run = await runs.submit(agent.name, body.input, {
      ...(body.sessionId !== undefined ? { session: body.sessionId } : {}),
      ...(owner !== undefined ? { owner } : {}),
      ...(body.webhook !== undefined ? { webhook: body.webhook } : {}),
      ...(body.delaySeconds !== undefined ? { delayMs: Math.round(body.delaySeconds * 1000) } : {}),
      ...(body.runAt !== undefined ? { runAt: new Date(body.runAt) } : {}),
    });
    c.get('log').info({ runId: run.runId, agent: run.agent }, 'run submitted');
    return c.json(backgroundRunView(run), 202);
  });

  app.get('/api/v1/runs/:id', async (c, next) => {
    const run = await visible(c);
    // A run resumed outside the queue is shown by its checkpoints (the run routes).
    if (run === undefined || (await resumedOutsideQueue(await options.chat.store!(), run))) return next();
    const q = parseOr400(runQuerySchema, c.req.query(), 'query');
    if (!q.wait) return c.json(backgroundRunView(run));
    const waited = await runsOrThrow().wait(run.runId, { timeoutMs: q.wait * 1000, signal: c.req.raw.signal });
    return c.json(backgroundRunView(waited ?? run));
  });

  app.get('/api/v1/runs/:id/stream', async (c, next) => {
    const run = await visible(c);
    if (run === undefined) return next();
    const q = parseOr400(runQuerySchema, c.req.query(), 'query');
    const after = q.after ?? lastEventId(c.req.header('last-event-id'));
    return streamSSE(c, async (stream) => {
      const stop = new AbortController();
      stream.onAbort(() => stop.abort());
      const heartbeat = setInterval(
        () => void stream.write(': keep-alive\n\n').catch(() => undefined),
        (options.heartbeatSeconds ?? 15) * 1000,
      );
      heartbeat.unref();
      try {
        for await (const e of runsOrThrow().stream(run.runId, { after, signal: stop.signal })) {
          await stream.writeSSE({ id: String(e.seq), event: e.type, data: JSON.stringify(e.data) });
        }
      } finally {
        clearInterval(heartbeat);
      }
    });
  });

  registerScheduleRoutes(app, runsOrThrow);

  app.post('/api/v1/runs/:id/cancel', async (c, next) => {
    const run = await visible(c);
    if (run === undefined) return next();
    const now = (await runsOrThrow().cancel(run.runId)) ?? run;
    c.get('log').info({ runId: run.runId, status: now.status }, 'run cancel requested');
    return c.json({ ...backgroundRunView(now), cancelRequested: true }, 202);
  });
}

/**
 * Whether paused or ended run `run` went on outside the queue (`POST /api/v1/runs/{id}/resume`, an
 * approval answered as a chat turn): its checkpoints moved on after its record did.
 */
async function resumedOutsideQueue(store: Store, run: BackgroundRun): Promise<boolean> {
  if (run.status !== 'paused' && !isFinalRunStatus(run.status)) return false;
  const checkpoint = await store.checkpoints.getRun(run.runId);
  return checkpoint !== undefined && checkpoint.status !== run.status && checkpoint.updatedAt > run.updatedAt;
}

/** A session the run may go to: visible to the caller and of the same agent. */
async function checkSession(
  chat: ChatService,
  sessionId: string,
  agent: string,
  principal: Parameters<ChatService['session']>[1],
): Promise<void> {
  const store = await chat.store!();
  const s = await store.sessions.get(sessionId);
  if (s === undefined) return; // created by the run
  if (!(await chat.canSeeSessionOf(store, sessionId, principal)))
    throw new HttpError(404, 'session_not_found', `Unknown session "${sessionId}" (omit sessionId to start a new one)`);
  if (s.agent !== agent)
    throw new HttpError(409, 'session_agent_mismatch', `Session "${sessionId}" belongs to agent "${s.agent}", not "${agent}"`);
}

function lastEventId(header: string | undefined): number | undefined {
  const n = header === undefined ? NaN : Number(header);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
