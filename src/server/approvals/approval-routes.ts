import type { Context, Hono } from 'hono';
import type { z } from 'zod';

import type { BackgroundRuns } from '../../durable/background-runs.js';
import { StorageError } from '../../errors/storage-error.js';
import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { Approval, RunRecord } from '../../types/storage/runs.js';
import type { Store } from '../../types/storage/store.js';
import {
  approvalAnswerSchema,
  listApprovalsQuerySchema,
  listRunsQuerySchema,
  parseJsonBody,
  parseOr400,
  RECORD_ID,
  resumeRequestSchema,
} from '../api/request-schemas.js';
import type { approvalSchema, runSchema } from '../api/response-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { Principal } from '../auth/principal.js';
import { type ChatService, noStore } from '../chat/chat-service.js';
import type { ChatTurn } from '../chat/chat-turn.js';
import { runStatus, type RunViewStatus } from '../runs/run-status.js';

type ApprovalView = z.output<typeof approvalSchema>;
type RunView = z.output<typeof runSchema>;
import { respondWithTurn, type TurnResponseOptions } from '../chat/turn-response.js';

/** What the approval and run routes need. */
export interface ApprovalRoutesOptions extends TurnResponseOptions {
  chat: ChatService;
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** The runtime's background runs: a paused background run is resumed through their queue. */
  runs?: () => BackgroundRuns | undefined;
}

/** An approval as the API shows it. */
export function approvalView(a: Approval): ApprovalView {
  return {
    approvalId: a.id,
    runId: a.runId,
    ...(a.sessionId !== undefined ? { sessionId: a.sessionId } : {}),
    toolCallId: a.toolCallId,
    toolName: a.toolName,
    input: a.args,
    prompt: a.prompt ?? '',
    status: a.status,
    ...(a.reason !== undefined ? { reason: a.reason } : {}),
    createdAt: a.createdAt.toISOString(),
    ...(a.answeredAt ? { answeredAt: a.answeredAt.toISOString() } : {}),
  };
}

/** A run as the API shows it (`status`: its live status, see `runStatus`; default the stored one). */
export function runView(r: RunRecord, status: RunViewStatus = r.status, input?: string): RunView {
  return {
    runId: r.runId,
    ...(r.sessionId !== undefined ? { sessionId: r.sessionId } : {}),
    agent: r.agent,
    status,
    ...(input ? { input } : {}),
    checkpoints: r.checkpoints,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The start of a run's input (from its latest checkpoint), to name the run by; undefined when not stored. */
async function runInput(store: Store, runId: string): Promise<string | undefined> {
  const state = (await store.checkpoints.latest(runId))?.state as { input?: unknown } | undefined;
  if (typeof state?.input !== 'string') return undefined;
  const text = state.input.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function idParam(id: string, what: 'approval' | 'run'): string {
  if (!RECORD_ID.test(id)) throw new HttpError(404, `${what}_not_found`, `Unknown ${what} "${id.slice(0, 128)}"`);
  return id;
}

/** The JSON body of a POST whose body is optional (`{}` when empty). */
async function optionalBody(c: Context<ServerEnv>, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(c, maxBytes);
  return text.trim() === '' ? {} : parseJsonBody(text);
}

function wantsStream(c: Context<ServerEnv>, stream: boolean | undefined): boolean {
  return stream ?? /\btext\/event-stream\b/.test(c.req.header('accept') ?? '');
}

/**
 * Registers the durable-run endpoints (they need a store; without one they answer 404 `no_store`):
 * - `GET /api/v1/approvals?sessionId=&runId=&limit=`: pending approvals the caller may see;
 * - `GET /api/v1/approvals/{id}`: one approval, answered or not;
 * - `POST /api/v1/approvals/{id}` `{approved, reason?, stream?}`: answers it and resumes the run,
 *   answering like a chat turn (JSON or SSE); while other approvals of the run are pending, the
 *   run waits for them: 202 with the remaining ones. A background run (`POST /api/v1/runs`) is
 *   queued again instead (202 `{status: "queued"}`): a worker resumes it and its events continue
 *   its log. Answered already: 409; unknown: 404;
 * - `GET /api/v1/runs?status=&sessionId=&agent=&limit=` and `GET /api/v1/runs/{id}`;
 * - `POST /api/v1/runs/{id}/resume` `{stream?}`: continues an interrupted (or paused) run.
 * A principal sees the approvals and runs of the sessions it may see.
 */
export function registerApprovalRoutes(app: Hono<ServerEnv>, options: ApprovalRoutesOptions): void {
  const { chat } = options;
  const storeOf = async (): Promise<Store> => {
    const source = chat.store;
    if (!source) throw noStore();
    return source();
  };

  app.get('/api/v1/approvals', async (c) => {
    const q = parseOr400(listApprovalsQuerySchema, c.req.query(), 'query');
    const store = await storeOf();
    const principal = c.get('principal');
    const limit = q.limit ?? 50;
    const pending = await store.approvals.listPending({ runId: q.runId, sessionId: q.sessionId, limit: Math.min(1000, limit * 4) });
    const seen = new Map<string, boolean>();
    const out = [];
    for (const a of pending) {
      if (out.length === limit) break;
      if (await chat.canSeeSessionOf(store, a.sessionId, principal, seen)) out.push(approvalView(a));
    }
    return c.json({ approvals: out });
  });

  app.get('/api/v1/approvals/:id', async (c) => {
    const id = idParam(c.req.param('id'), 'approval');
    return c.json(approvalView((await visibleApproval(chat, id, c.get('principal'))).approval));
  });

  app.post('/api/v1/approvals/:id', async (c) => {
    const id = idParam(c.req.param('id'), 'approval');
    // The body first: one over the limit is refused (413) whatever the approval.
    const text = await readBodyText(c, options.maxBodyBytes);
    await visibleApproval(chat, id, c.get('principal'));
    const body = parseOr400(approvalAnswerSchema, parseJsonBody(text), 'approval answer');
    const answer = body.reason === undefined ? { approved: body.approved } : { approved: body.approved, reason: body.reason };
    const caller = { principal: c.get('principal'), client: c.get('client'), runs: options.runs?.() };
    const outcome = await answerApproval(chat, { approvalId: id, answer, ...caller });
    // A background run is queued again: a worker resumes it.
    if (outcome.kind === 'waiting' || outcome.kind === 'queued') return c.json(outcome.body, 202);
    c.get('log').info({ approvalId: id, runId: outcome.runId, approved: body.approved }, 'approval answered; resuming the run');
    return respondWithTurn(c, outcome.turn, wantsStream(c, body.stream), options);
  });

  app.get('/api/v1/runs', async (c) => {
    const q = parseOr400(listRunsQuerySchema, c.req.query(), 'query');
    const store = await storeOf();
    const principal = c.get('principal');
    const limit = q.limit ?? 50;
    // `interrupted` runs are stored as running; `running` ones are those still running somewhere.
    const runs = await store.checkpoints.listRuns({
      status: q.status === 'interrupted' ? 'running' : q.status,
      sessionId: q.sessionId,
      agent: q.agent,
      limit: Math.min(1000, limit * 4),
    });
    const seen = new Map<string, boolean>();
    const out = [];
    for (const r of runs) {
      if (out.length === limit) break;
      if (!(await chat.canSeeSessionOf(store, r.sessionId, principal, seen))) continue;
      const status = await runStatus(store, r, chat);
      // `running` keeps its meaning (stored as running: interrupted ones too); `interrupted` is only those.
      if (q.status !== 'interrupted' || status === 'interrupted') out.push(runView(r, status, await runInput(store, r.runId)));
    }
    return c.json({ runs: out });
  });

  app.get('/api/v1/runs/:id', async (c) => {
    const id = idParam(c.req.param('id'), 'run');
    const run = await chat.visibleRun(id, c.get('principal'));
    if (!run) throw new HttpError(404, 'run_not_found', `Unknown run "${id}"`);
    const store = await storeOf();
    const pending = await store.approvals.listPending({ runId: id });
    const input = await runInput(store, run.runId);
    return c.json({ ...runView(run, await runStatus(store, run, chat), input), pendingApprovals: pending.map(pendingView) });
  });

  app.post('/api/v1/runs/:id/resume', async (c) => {
    const id = idParam(c.req.param('id'), 'run');
    const body = parseOr400(resumeRequestSchema, await optionalBody(c, options.maxBodyBytes), 'resume request');
    const { turn, run } = await chat.beginResume({ runId: id, principal: c.get('principal'), client: c.get('client') });
    c.get('log').info({ runId: id, status: run.status }, 'resuming a run');
    return respondWithTurn(c, turn, wantsStream(c, body.stream), options);
  });
}

/** The stored approval `id` if `principal` may see it; else 404. */
export async function visibleApproval(chat: ChatService, id: string, principal: Principal): Promise<{ store: Store; approval: Approval }> {
  const source = chat.store;
  if (!source) throw noStore();
  const store = await source();
  const approval = await store.approvals.get(id);
  if (!approval || !(await chat.canSeeSessionOf(store, approval.sessionId, principal))) {
    throw new HttpError(404, 'approval_not_found', `Unknown approval "${id}" (GET /api/v1/approvals lists the pending ones)`);
  }
  return { store, approval };
}

/**
 * What answering an approval led to: the run resumes (`turn`, locked, ready to run), a background
 * run was queued for a worker to resume, or the run still waits for others.
 */
export type ApprovalOutcome =
  | { kind: 'resume'; runId: string; turn: ChatTurn }
  | { kind: 'queued'; body: { status: 'queued'; runId: string; sessionId?: string } }
  | { kind: 'waiting'; body: { status: 'paused'; runId: string; sessionId?: string; pendingApprovals: ReturnType<typeof pendingView>[] } };

/**
 * Answers stored approval `approvalId` (404 unknown or not visible, 409 answered already) and,
 * when the run waits for nothing else, locks its session and returns the turn resuming it — or,
 * for a background run (given `runs`), queues it again for a worker to resume.
 */
export async function answerApproval(
  chat: ChatService,
  req: {
    approvalId: string;
    principal: Principal;
    client: string;
    answer: { approved: boolean; reason?: string };
    runs?: BackgroundRuns;
  },
): Promise<ApprovalOutcome> {
  const { store, approval } = await visibleApproval(chat, req.approvalId, req.principal);
  if (approval.status !== 'pending') throw answeredAlready(approval);
  const others = (await store.approvals.listPending({ runId: approval.runId })).filter((a) => a.id !== approval.id);
  if (others.length > 0) {
    // The run resumes once every approval it waits for is answered.
    await answerOnce(store, approval, req.answer);
    const body = { status: 'paused' as const, runId: approval.runId, pendingApprovals: others.map(pendingView) };
    return { kind: 'waiting', body: approval.sessionId !== undefined ? { ...body, sessionId: approval.sessionId } : body };
  }
  if (req.runs !== undefined && (await store.backgroundRuns.get(approval.runId)) !== undefined) {
    // A background run: a worker resumes it. Should it still be writing its pause, its worker
    // sees the answer once it has (and queues it itself).
    await answerOnce(store, approval, req.answer);
    await req.runs.resumeQueued(approval.runId);
    const body = { status: 'queued' as const, runId: approval.runId };
    return { kind: 'queued', body: approval.sessionId !== undefined ? { ...body, sessionId: approval.sessionId } : body };
  }
  const { turn } = await chat.beginResume({ runId: approval.runId, principal: req.principal, client: req.client });
  try {
    await answerOnce(store, approval, req.answer);
  } catch (err) {
    turn.cancel();
    throw err;
  }
  return { kind: 'resume', runId: approval.runId, turn };
}

/** A pending approval as in a paused turn's `pendingApprovals`. */
function pendingView(a: Approval) {
  return { approvalId: a.id, toolCallId: a.toolCallId, toolName: a.toolName, input: a.args, prompt: a.prompt ?? '' };
}

function answeredAlready(a: Approval): HttpError {
  return new HttpError(
    409,
    'approval_answered',
    `Approval "${a.id}" was already answered${a.status === 'pending' ? '' : ` (${a.status})`}`,
  );
}

/** Answers `approval`; a race lost to another answer is a 409. */
async function answerOnce(store: Store, approval: Approval, answer: { approved: boolean; reason?: string }): Promise<void> {
  try {
    await store.approvals.answer(approval.id, answer);
  } catch (err) {
    if (err instanceof StorageError && err.kind === 'conflict') throw answeredAlready(approval);
    throw err;
  }
}
