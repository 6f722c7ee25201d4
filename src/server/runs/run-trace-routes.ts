import type { Hono } from 'hono';

import type { BackgroundRuns } from '../../durable/background-runs.js';
import type { TimelineStep } from '../../durable/run-timeline.js';
import { HttpError } from '../../http/http-error.js';
import type { AgentEvent } from '../../types/events.js';
import type { Message } from '../../types/message.js';
import type { RunEventRecord } from '../../types/storage/run-events.js';
import type { Store } from '../../types/storage/store.js';
import { parseOr400, RECORD_ID, runEventsQuerySchema } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { AgentAccess } from '../auth/agent-access.js';
import type { Principal } from '../auth/principal.js';
import { canSeeOwner } from '../auth/principal.js';
import { type ChatService, noStore } from '../chat/chat-service.js';
import { modelLabel } from '../chat/model-label.js';
import { eventsFromCheckpoint } from './checkpoint-events.js';
import { runStatus } from './run-status.js';
import { type TimedEvent, traceFromEvents } from './run-trace.js';

/** What the trace routes need. */
export interface RunTraceRoutesOptions {
  chat: ChatService;
  access: AgentAccess;
  /** The runtime's background runs, when it has them. */
  runs: () => BackgroundRuns | undefined;
}

/** Events read for one trace at most (a run's log beyond it is cut). */
const MAX_EVENTS = 20_000;

/** A run's events and where they come from: its event log, or rebuilt from its checkpoints. */
interface LoadedRun {
  runId: string;
  agent: string;
  status: string;
  source: 'events' | 'checkpoints';
  events: TimedEvent[];
}

const isAgentEvent = (r: RunEventRecord) => r.type !== 'done' && typeof (r.data as { type?: unknown } | null)?.type === 'string';

async function readLog(read: (after: number) => Promise<RunEventRecord[]>): Promise<TimedEvent[]> {
  const out: TimedEvent[] = [];
  let after = 0;
  while (out.length < MAX_EVENTS) {
    const batch = await read(after);
    for (const r of batch) if (isAgentEvent(r)) out.push({ seq: r.seq, at: r.createdAt, event: r.data as AgentEvent });
    if (batch.length < 1000) break;
    after = batch.at(-1)!.seq;
  }
  return out;
}

/** The messages a run wrote: its session entries, or (runs without a session) the checkpoint's own. */
async function runMessages(store: Store, run: { runId: string; sessionId?: string }, state: Record<string, unknown>): Promise<Message[]> {
  if (run.sessionId === undefined) {
    const all = Array.isArray(state.messages) ? (state.messages as Message[]) : [];
    return all.slice(typeof state.baseLength === 'number' ? state.baseLength : 0);
  }
  const entries = await store.sessions.entries(run.sessionId, { types: ['message'] });
  const stored = entries.filter((e) => e.runId === run.runId && e.message).map((e) => e.message!);
  return [...stored, ...(Array.isArray(state.pending) ? (state.pending as Message[]) : [])];
}

/**
 * Registers `GET /api/v1/runs/{id}/trace` (the run's spans: agents, steps, model and tool calls
 * with timings, inputs, outputs, tokens and cost) and `GET /api/v1/runs/{id}/events` (its stored
 * events, for a replay). Background runs read their event log; other runs (chat turns) have
 * their events rebuilt from their checkpoints and messages. Runs are visible as on
 * `GET /api/v1/runs/{id}`.
 */
export function registerRunTraceRoutes(app: Hono<ServerEnv>, options: RunTraceRoutesOptions): void {
  const { chat, access } = options;
  const load = async (id: string, principal: Principal): Promise<LoadedRun> => {
    if (!RECORD_ID.test(id)) throw new HttpError(404, 'run_not_found', `Unknown run "${id.slice(0, 128)}"`);
    const source = chat.store;
    if (!source) throw noStore();
    const store = await source();
    const runs = options.runs();
    const background = runs ? await runs.get(id) : undefined;
    if (runs && background && canSeeOwner(background.owner, principal, access.authEnabled)) {
      const events = await readLog((after) => runs.events(id, { after, limit: 1000 }));
      return { runId: id, agent: background.agent, status: background.status, source: 'events', events };
    }
    const run = await chat.visibleRun(id, principal);
    if (!run) throw new HttpError(404, 'run_not_found', `Unknown run "${id}"`);
    const status = await runStatus(store, run, chat);
    const logged = await readLog((after) => store.runEvents.read(id, { after, limit: 1000 }));
    if (logged.length > 0) return { runId: id, agent: run.agent, status, source: 'events', events: logged };
    const checkpoint = await store.checkpoints.latest(id);
    const state = (checkpoint?.state ?? {}) as Record<string, unknown>;
    const events = eventsFromCheckpoint({
      runId: id,
      agent: typeof state.rootAgent === 'string' ? state.rootAgent : run.agent,
      status: run.status,
      input: typeof state.input === 'string' ? state.input : '',
      startedAt: typeof state.startedAt === 'string' ? state.startedAt : run.createdAt.toISOString(),
      updatedAt: run.updatedAt,
      steps: Array.isArray(state.timeline) ? (state.timeline as TimelineStep[]) : [],
      messages: await runMessages(store, run, state),
      approvals: await store.approvals.listForRun(id),
    });
    return { runId: id, agent: run.agent, status, source: 'checkpoints', events };
  };

  app.get('/api/v1/runs/:id/trace', async (c) => {
    const run = await load(c.req.param('id'), c.get('principal'));
    const trace = traceFromEvents(run.events, { modelOf: (agent) => modelLabel(access.find(agent)) });
    const start = trace.spans[0]?.startedAt ?? trace.startedAt ?? new Date().toISOString();
    const root = trace.spans[0];
    return c.json({
      runId: run.runId,
      agent: run.agent,
      status: run.status,
      source: run.source,
      startedAt: start,
      durationMs: root?.durationMs ?? 0,
      usage: trace.usage,
      ...(trace.costUsd !== undefined ? { costUsd: trace.costUsd } : {}),
      spans: trace.spans,
    });
  });

  app.get('/api/v1/runs/:id/events', async (c) => {
    const q = parseOr400(runEventsQuerySchema, c.req.query(), 'query');
    const run = await load(c.req.param('id'), c.get('principal'));
    const after = q.after ?? 0;
    const limit = q.limit ?? 5000;
    const page = run.events.filter((e) => e.seq > after).slice(0, limit);
    const last = page.at(-1);
    const more = last !== undefined && run.events.some((e) => e.seq > last.seq);
    return c.json({
      runId: run.runId,
      agent: run.agent,
      status: run.status,
      source: run.source,
      events: page.map((e) => ({ seq: e.seq, at: e.at.toISOString(), type: e.event.type, data: e.event })),
      ...(more ? { nextAfter: last.seq } : {}),
    });
  });
}
