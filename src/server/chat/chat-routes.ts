import type { Hono } from 'hono';
import type { z } from 'zod';

import type { CorvidConfig } from '../../config/corvid-config.js';
import type { Runnable } from '../../core/runnable.js';
import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import { requestHeader } from '../../http/request-header.js';
import { chatRequestSchema, listSessionsQuerySchema, parseJsonBody, parseOr400, SESSION_ID } from '../api/request-schemas.js';
import type { agentInfoSchema } from '../api/response-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import type { AgentAccess } from '../auth/agent-access.js';
import { principalUser } from '../auth/principal.js';
import { scopesOf } from '../auth/tool-scopes.js';
import type { ServerMetrics } from '../observability/server-metrics.js';
import type { SessionDirectory } from '../sessions/chat-sessions.js';
import { summarize } from '../sessions/chat-sessions.js';
import { agentDetails } from './agent-details.js';
import type { ChatService } from './chat-service.js';
import { turnOverrides } from './turn-overrides.js';
import { respondWithTurn } from './turn-response.js';

/** What the chat routes need. */
export interface ChatRoutesOptions {
  chat: ChatService;
  sessions: SessionDirectory;
  access: AgentAccess;
  metrics: ServerMetrics;
  /** What happens to a run when its streaming client goes away. */
  onDisconnect: () => 'continue' | 'stop';
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** Seconds between SSE keep-alive comments. Default 15. */
  heartbeatSeconds?: number;
}

function agentInfo(agent: Runnable, access: AgentAccess, defaultAgent: string): z.output<typeof agentInfoSchema> {
  return {
    name: agent.name,
    ...(agent.description ? { description: agent.description } : {}),
    kind: agent.kind,
    visibility: access.visibility(agent.name),
    default: agent.name === defaultAgent,
  };
}

function sessionIdParam(id: string): string {
  if (!SESSION_ID.test(id)) throw new HttpError(404, 'session_not_found', `Unknown session "${id.slice(0, 128)}"`);
  return id;
}

/**
 * Registers `/api/v1/agents…` (list, chat JSON + SSE) and `/api/v1/sessions…`. A chat turn
 * answers 200 with the answer, or 202 `{status:'paused', pendingApprovals}` when a tool waits for
 * approval (store mode; see `registerApprovalRoutes`).
 */
export function registerChatRoutes(
  app: Hono<ServerEnv>,
  options: ChatRoutesOptions & { defaultAgent: () => string; config: () => CorvidConfig },
): void {
  const { chat, sessions, access } = options;

  app.get('/api/v1/agents', (c) => {
    const agents = access.listed(c.get('principal')).map((a) => agentInfo(a, access, options.defaultAgent()));
    return c.json({ agents });
  });

  app.get('/api/v1/models', (c) => {
    const models = Object.entries(options.config().models).map(([name, m]) => ({ name, provider: m.provider, model: m.model }));
    return c.json({ models });
  });

  app.get('/api/v1/agents/:name', (c) => {
    const principal = c.get('principal');
    const agent = access.resolve(c.req.param('name'), principal);
    // The system prompt is shown to those who may override it (the Studio's playground starts from it).
    const instructions = (agent as { options?: { instructions?: unknown } }).options?.instructions;
    const scopes = scopesOf(principal);
    const showInstructions = typeof instructions === 'string' && (scopes === undefined || scopes.includes('admin'));
    return c.json({
      ...agentInfo(agent, access, options.defaultAgent()),
      ...agentDetails(agent, options.config()),
      ...(showInstructions ? { instructions } : {}),
    });
  });

  app.post('/api/v1/agents/:name/chat', async (c) => {
    const body = parseOr400(chatRequestSchema, parseJsonBody(await readBodyText(c, options.maxBodyBytes)), 'chat request');
    const accept = requestHeader(c, 'accept') ?? '';
    const streaming = body.stream ?? /\btext\/event-stream\b/.test(accept);
    const turn = await chat.begin({
      agent: c.req.param('name'),
      message: body.message,
      sessionId: body.sessionId,
      userId: body.userId,
      principal: c.get('principal'),
      client: c.get('client'),
      ...(body.overrides ? { override: turnOverrides(body.overrides, { config: options.config(), principal: c.get('principal') }) } : {}),
    });
    return respondWithTurn(c, turn, streaming, options);
  });

  app.get('/api/v1/sessions', async (c) => {
    const q = parseOr400(listSessionsQuerySchema, c.req.query(), 'query');
    const user = principalUser(c.get('principal'));
    // With auth on, an anonymous caller (a path made public) owns nothing to list.
    if (user === undefined && access.authEnabled) return c.json({ sessions: [] });
    const page = await sessions.list({ agent: q.agent, userId: user ?? q.userId, limit: q.limit ?? 20, cursor: q.cursor, q: q.q });
    return c.json(page);
  });

  app.get('/api/v1/sessions/:id', async (c) => {
    const id = sessionIdParam(c.req.param('id'));
    const s = await chat.session(id, c.get('principal'));
    if (!s) throw new HttpError(404, 'session_not_found', `Unknown session "${id}"`);
    // Each message with the run that wrote it (`runId`) and `interrupted` for the partial answer of a stopped run.
    const messages = s.messages.map((m, i) => ({ ...m, ...s.messageRuns?.[i] }));
    return c.json({ ...summarize(s), usage: s.usage, messages });
  });

  app.delete('/api/v1/sessions/:id', async (c) => {
    const id = sessionIdParam(c.req.param('id'));
    const s = await chat.session(id, c.get('principal'));
    if (!s) throw new HttpError(404, 'session_not_found', `Unknown session "${id}"`);
    if (chat.isBusy(id)) throw new HttpError(409, 'session_busy', `Session "${id}" is running a turn; delete it once the turn ends`);
    await sessions.delete(id);
    return c.body(null, 204);
  });
}
