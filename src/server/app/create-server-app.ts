import { join } from 'node:path';

import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Logger } from 'pino';

import type { ServerConfig } from '../../config/corvid-config.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/read-incoming.js';
import { registerApprovalRoutes } from '../approvals/approval-routes.js';
import { registerApprovalStream } from '../approvals/approval-stream-route.js';
import { requestGate } from '../auth/request-gate.js';
import { registerWhoami } from '../auth/whoami-route.js';
import { registerChatRoutes } from '../chat/chat-routes.js';
import { registerMcpServerRoutes } from '../mcp/mcp-server-routes.js';
import { registerOperationalRoutes } from '../observability/operational-routes.js';
import { openAIErrorBody } from '../openai/openai-error.js';
import { registerBackgroundRunRoutes } from '../runs/background-run-routes.js';
import { registerRunRoutes } from '../runs/run-routes.js';
import { registerRunTraceRoutes } from '../runs/run-trace-routes.js';
import { registerSessionRoutes } from '../sessions/session-routes.js';
import { registerEvalRoutes } from '../studio/eval-routes.js';
import { registerKnowledgeRoutes } from '../studio/knowledge-routes.js';
import { registerMemoryRoutes } from '../studio/memory-routes.js';
import { isStudioPath, registerStudio } from '../studio/studio-static.js';
import { errorResponse } from './error-response.js';
import { registerOpenAIRoutes } from './openai-mount.js';
import { requestContext } from './request-context.js';
import { createServerParts, type ServerAppOptions, type ServerAppParts } from './server-app-parts.js';
import type { ServerEnv } from './server-env.js';

export { createServerParts, DEFAULT_MAX_BODY_BYTES, type ServerAppOptions, type ServerAppParts };

/** A hono app with every route of `corvid serve`, ready for `fetch` or a Node server. */
export interface ServerApp {
  app: Hono<ServerEnv>;
  parts: ServerAppParts;
  logger: Logger;
}

function socketAddress(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

const CORS_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'x-api-key',
  'x-request-id',
  'a2a-version',
  'a2a-extensions',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];

function corsFor(config: NonNullable<ServerConfig['cors']>) {
  const origins = config.origins;
  return cors({
    origin: origins.includes('*') ? '*' : origins,
    allowHeaders: CORS_REQUEST_HEADERS,
    exposeHeaders: ['x-request-id', 'retry-after', 'mcp-session-id'],
    maxAge: 600,
  });
}

/**
 * Builds the server's hono app: request ids and JSON logs, metrics, CORS, the body limit, the
 * Origin and body-type checks against cross-site requests (`RequestGuards`), auth,
 * rate limits, health and readiness, `/metrics`, the chat API and its OpenAPI document, and
 * mounted extras (A2A). Every error is answered as `{ error: { code, message } }`.
 */
export function createServerApp(options: ServerAppOptions): ServerApp {
  const parts = options.parts ?? createServerParts(options);
  const { server, logger, metrics, chat } = parts;
  const app = new Hono<ServerEnv>();
  app.use(requestContext({ logger, metrics, maxBodyBytes: parts.maxBodyBytes }));
  if (server.cors) app.use(corsFor(server.cors));
  app.use(
    requestGate({
      parts,
      ownBodyCheck: options.ownBodyCheck,
      allowedHosts: options.allowedHosts,
      clientAddress: options.clientAddress ?? socketAddress,
      // The Studio's static files load without credentials (its sign-in screen asks for them).
      openPath: options.studio ? isStudioPath : undefined,
    }),
  );

  registerOperationalRoutes(app, { runtime: options.runtime, metrics, store: options.store, baseUrl: server.baseUrl });
  // A client that goes away stops its run, unless the run is a stored session run (it finishes,
  // and the session gets the answer for the client's next visit) or the config says otherwise.
  const onDisconnect = () => server.streams?.onDisconnect ?? (chat.store ? 'continue' : 'stop');
  const maxBodyBytes = parts.maxBodyBytes;
  registerChatRoutes(app, {
    chat,
    sessions: parts.sessions,
    access: parts.access,
    metrics,
    maxBodyBytes,
    onDisconnect,
    defaultAgent: () => options.runtime().defaultAgent,
    config: () => options.runtime().config,
  });
  registerSessionRoutes(app, { chat, sessions: parts.sessions, maxBodyBytes });
  // Before the approval routes: `/approvals/stream` is not an approval id.
  registerApprovalStream(app, { chat });
  // Before the approval and run routes: a run id that is no background run falls through to them.
  registerBackgroundRunRoutes(app, { chat, access: parts.access, runs: () => options.runtime().runs, maxBodyBytes });
  registerApprovalRoutes(app, { chat, metrics, onDisconnect, maxBodyBytes, runs: () => options.runtime().runs });
  registerRunRoutes(app, { chat });
  registerRunTraceRoutes(app, { chat, access: parts.access, runs: () => options.runtime().runs });
  registerOpenAIRoutes(app, parts, { onDisconnect });
  registerWhoami(app, parts.auth);
  registerMemoryRoutes(app, { chat, access: parts.access, defaultAgent: () => options.runtime().defaultAgent, maxBodyBytes });
  registerKnowledgeRoutes(app, { runtime: options.runtime, maxBodyBytes });
  registerMcpServerRoutes(app, { runtime: options.runtime, authEnabled: parts.auth.enabled, maxBodyBytes });
  registerEvalRoutes(app, { dir: options.evalsDir ?? join(process.cwd(), '.corvid', 'evals') });
  if (options.studio) registerStudio(app, options.studio === true ? {} : options.studio);
  options.extend?.(app, parts);
  if (options.mount) app.route('/', options.mount);

  // The OpenAI-compatible API (`/v1/…`) answers errors in OpenAI's shape: `{ error: { message, type, param, code } }`.
  const shaped = (c: Context, r: Pick<ReturnType<typeof errorResponse>, 'status' | 'body'>) =>
    c.req.path.startsWith('/v1/') ? openAIErrorBody(r) : r.body;
  app.notFound((c) => {
    const body = { error: { code: 'not_found', message: `No route for ${c.req.method} ${c.req.path.slice(0, 200)}` } };
    return c.json(shaped(c, { status: 404, body }), 404);
  });
  app.onError((err, c) => {
    const r = errorResponse(err);
    const log = c.get('log') ?? logger;
    if (r.serverFault) log.error({ err, status: r.status }, 'request failed');
    else log.debug({ status: r.status, code: r.body.error.code }, r.body.error.message);
    return c.json(shaped(c, r), r.status as 400, r.headers);
  });
  return { app, parts, logger };
}
