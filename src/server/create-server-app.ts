import type { IncomingMessage, ServerResponse } from 'node:http';
import { newId } from '../http/new-id.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/corvid-config.js';
import { AgentAccess } from './agent-access.js';
import { Authenticator } from './authenticator.js';
import { registerApprovalRoutes } from './approval-routes.js';
import { ChatService, type ChatBackend, type RunTracing } from './chat-service.js';
import { registerChatRoutes } from './chat-routes.js';
import { MemoryChatSessions, type ChatSessions, type SessionDirectory } from './chat-sessions.js';
import { errorResponse } from './error-response.js';
import { HttpError } from '../http/http-error.js';
import { openApiDocument } from './openapi.js';
import { principalUser } from './principal.js';
import { RateLimiter, type RateCounter } from './rate-limiter.js';
import { checkContentLength } from '../http/read-body.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/read-incoming.js';
import { limitUnreadBody } from '../http/refuse-body.js';
import { requestHeader } from '../http/request-header.js';
import { RequestGuards } from './request-guards.js';
import type { ServedRuntime } from './served-runtime.js';
import type { ServerEnv } from './server-env.js';
import { ServerMetrics } from './server-metrics.js';
import { createServerLogger } from './server-logger.js';
import { StoreChatSessions } from './store-chat-sessions.js';
import type { Store } from '../storage/types/store.js';

export { DEFAULT_MAX_BODY_BYTES };
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A2A paths naming an agent: `/a2a/{name}…` and `/agents/{name}/…`. */
const A2A_AGENT_PATH = /^\/(?:a2a|agents)\/([^/]+)/;

/** Options of `createServerApp`. */
export interface ServerAppOptions {
  /** The runtime serving requests; an accessor, so hot reload can swap it. */
  runtime: () => ServedRuntime;
  /** Server settings (default: the runtime's `server:` section at creation). */
  server?: ServerConfig;
  logger?: Logger;
  metrics?: ServerMetrics;
  /** Span recorder for runs (set when telemetry is configured; see `RunTracer`). */
  tracing?: RunTracing;
  /**
   * The store chat turns run in as session runs (history, state, checkpoints, approvals), and
   * that the approvals / runs endpoints use. Without it (and by default) sessions live in memory.
   */
  store?: () => Promise<Store>;
  /** Where chat sessions live when there is no `store` (it wins over `store` when both are given). Default in memory. */
  sessions?: ChatSessions;
  /**
   * Extra routes (e.g. A2A) mounted at `/`, behind authentication and the CSRF guards (see
   * `RequestGuards`). Agent visibility on them is theirs to apply (`serve()` gives the A2A routes
   * a `reachable` check: internal agents answer as unknown to anonymous callers).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app, whatever its Env type
  mount?: Hono<any>;
  /**
   * Paths whose routes check a request body's `Content-Type` themselves, in their own protocol's
   * error format (`serve()`: the A2A routes under `/a2a/`). Default none: the server checks every path.
   */
  ownBodyCheck?: (path: string) => boolean;
  /** Registers more routes before the fallbacks (the WebSocket route uses it). */
  extend?: (app: Hono<ServerEnv>, parts: ServerAppParts) => void;
  /**
   * Host names (without port) accepted in the `Host` header; others get 403. Default, when auth is
   * off: `localhost`, `127.0.0.1` and `[::1]` (DNS-rebinding protection for a loopback server);
   * with auth on: any. `['*']`: any.
   */
  allowedHosts?: string[];
  /** Remote address of a request (rate limits `by: ip`). Default: the socket's address. */
  clientAddress?: (c: import('hono').Context) => string | undefined;
}

/** The pieces of a server app, shared with extensions such as the WebSocket route. */
export interface ServerAppParts {
  chat: ChatService;
  access: AgentAccess;
  auth: Authenticator;
  metrics: ServerMetrics;
  sessions: SessionDirectory;
  limiter: RateLimiter | undefined;
  server: ServerConfig;
  /** The largest request body (and WebSocket message) of every route: `server.maxBodyBytes`, else `DEFAULT_MAX_BODY_BYTES`. */
  maxBodyBytes: number;
  runtime: () => ServedRuntime;
}

/** A hono app with every route of `corvid serve`, ready for `fetch` or a Node server. */
export interface ServerApp {
  app: Hono<ServerEnv>;
  parts: ServerAppParts;
  logger: Logger;
}

function socketAddress(c: import('hono').Context): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

/**
 * Builds the server's hono app: request ids and JSON logs, metrics, CORS, the body limit, the
 * Origin and body-type checks against cross-site requests (`RequestGuards`), auth,
 * rate limits, health and readiness, `/metrics`, the chat API and its OpenAPI document, and
 * mounted extras (A2A). Every error is answered as `{ error: { code, message } }`.
 */
export function createServerApp(options: ServerAppOptions): ServerApp {
  const server = options.server ?? options.runtime().config.server ?? {};
  const logger = options.logger ?? createServerLogger({ level: server.logging?.level });
  const metrics = options.metrics ?? new ServerMetrics();
  const auth = new Authenticator(server.auth);
  const access = new AgentAccess(options.runtime, auth.enabled);
  const backend: ChatBackend =
    options.sessions === undefined && options.store !== undefined
      ? { kind: 'store', sessions: new StoreChatSessions(options.store), store: options.store }
      : { kind: 'memory', sessions: options.sessions ?? new MemoryChatSessions() };
  const sessions = backend.sessions;
  const limiter = createRateLimiter(server.rateLimit, options.store, logger);
  const chat = new ChatService({ access, backend, metrics, tracing: options.tracing, limiter, logger });
  const address = options.clientAddress ?? socketAddress;
  const by = server.rateLimit?.by ?? 'user';
  const maxBody = server.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const parts: ServerAppParts = { chat, access, auth, metrics, sessions, limiter, server, maxBodyBytes: maxBody, runtime: options.runtime };

  const app = new Hono<ServerEnv>();

  app.use(async (c, next) => {
    const started = performance.now();
    const given = requestHeader(c, 'x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : newId();
    const log = logger.level === 'silent' ? logger : logger.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('principal', { kind: 'anonymous' });
    c.set('client', 'anonymous');
    // On Node the header goes on the socket's response directly: no web `Headers` object for
    // each response (`c.header()` after the handler would even rebuild the Response).
    const { incoming, outgoing } = (c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined) ?? {};
    const direct = typeof outgoing?.setHeader === 'function';
    if (direct) outgoing!.setHeader('x-request-id', requestId);
    await next();
    // A body the route did not read (all of) is still limited: dropped as it comes, refused past the limit.
    if (incoming && direct && !incoming.complete) limitUnreadBody(incoming, outgoing!, maxBody);
    if (!direct) {
      try {
        c.res.headers.set('x-request-id', requestId);
      } catch {
        c.header('x-request-id', requestId); // immutable headers (a proxied Response)
      }
    }
    const status = c.res.status;
    let route = 'unmatched';
    try {
      const r = routePath(c, -1);
      route = r && r !== '/*' && r !== '*' ? r : status === 404 ? 'unmatched' : c.req.path;
    } catch {
      // No route matched.
    }
    const seconds = (performance.now() - started) / 1000;
    metrics.request(route, c.req.method, status, seconds);
    if (log.isLevelEnabled('info')) log.info({ method: c.req.method, path: c.req.path, route, status, ms: Math.round(seconds * 1000 * 10) / 10 }, 'request');
  });

  if (server.cors) {
    const origins = server.cors.origins;
    app.use(cors({ origin: origins.includes('*') ? '*' : origins, allowHeaders: ['authorization', 'content-type', 'x-api-key', 'x-request-id', 'a2a-version', 'a2a-extensions', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'], exposeHeaders: ['x-request-id', 'retry-after', 'mcp-session-id'], maxAge: 600 }));
  }

  const guards = new RequestGuards({ server, ownBodyCheck: options.ownBodyCheck });
  const allowedHosts = options.allowedHosts ?? (auth.enabled ? undefined : ['localhost', '127.0.0.1', '[::1]']);
  const allowed = allowedHosts && !allowedHosts.includes('*') ? new Set(allowedHosts.map((h) => h.toLowerCase())) : undefined;
  let lastHost: string | undefined;
  let lastHostAllowed = false;

  // One middleware for every guard, in order: body size, Host, Origin and body type (CSRF),
  // authentication, rate limits.
  app.use(async (c, next) => {
    // A declared content-length over the limit is refused here (routes with their own body check,
    // the A2A routes, answer it in their protocol's format). Every body is read where it is used,
    // from the socket and with the same limit (read-incoming.ts), so bodies sent without a
    // content-length are limited too, and one a route does not read is limited after its answer
    // (limitUnreadBody, above). (hono's bodyLimit would build a web Request and stream for every
    // request, the largest cost of a small one.)
    const method = c.req.method;
    const path = c.req.path;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && !options.ownBodyCheck?.(path)) checkContentLength(c, maxBody);
    if (allowed) {
      const header = requestHeader(c, 'host') ?? '';
      // Clients send the same Host on every request: the last answer is kept.
      if (header !== lastHost) {
        lastHost = header;
        lastHostAllowed = allowed.has((header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0]).toLowerCase());
      }
      if (!lastHostAllowed) {
        throw new HttpError(403, 'host_not_allowed', `Host "${header.slice(0, 100)}" is not allowed: without server.auth the server only answers requests for localhost, 127.0.0.1 and [::1] (DNS rebinding protection)`);
      }
    }
    guards.check(c);
    const open = !auth.enabled || auth.isPublic(path) || method === 'OPTIONS';
    // Without auth every caller is anonymous (set above): no credential to look at.
    if (auth.enabled) {
      let principal;
      try {
        principal = await auth.identify((n) => requestHeader(c, n.toLowerCase()));
      } catch (err) {
        if (!open || !(err instanceof HttpError)) throw err;
        principal = undefined;
      }
      if (principal) c.set('principal', principal);
    }
    if (!open) auth.require(c.get('principal'), path);
    const a2a = A2A_AGENT_PATH.test(path);
    const p = c.get('principal');
    const ip = address(c) ?? 'unknown';
    const client = by === 'ip' ? `ip:${ip}` : by === 'key' && p.kind === 'api_key' ? `key:${p.name}` : (principalUser(p) && `user:${principalUser(p)}`) || `ip:${ip}`;
    c.set('client', client);
    if (limiter && !(auth.isPublic(path) && (path === '/health' || path === '/ready'))) {
      await limiter.hit(client);
      // A2A calls may run the agent (their tokens are charged when the run ends): refused once the client used its tokens.
      if (a2a && c.req.method === 'POST') await limiter.checkTokens(client);
    }
    await next();
  });

  app.get('/health', (c) => c.json({ status: 'ok' }));

  app.get('/ready', async (c) => {
    const runtime = options.runtime();
    const checks: Record<string, string> = { config: 'ok' };
    let ready = runtime.agents.size > 0;
    if (!ready) checks.config = 'no agents';
    const storeOf = options.store ?? (runtime.config.storage && runtime.store ? () => runtime.store!() : undefined);
    if (storeOf) {
      try {
        const store = await storeOf();
        await store.sessions.list({ limit: 1 });
        checks.storage = 'ok';
      } catch (err) {
        ready = false;
        checks.storage = (err as Error).message;
      }
    }
    return c.json({ status: ready ? 'ready' : 'not_ready', checks }, ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    const { body, contentType } = await metrics.render();
    return c.body(body, 200, { 'content-type': contentType });
  });

  app.get('/api/v1/openapi.json', (c) => c.json(openApiDocument({ serverUrl: server.baseUrl })));

  // A client that goes away stops its run, unless the run is a stored session run (it finishes,
  // and the session gets the answer for the client's next visit) or the config says otherwise.
  const onDisconnect = () => server.streams?.onDisconnect ?? (chat.store ? 'continue' : 'stop');
  registerChatRoutes(app, { chat, sessions, access, metrics, maxBodyBytes: maxBody, onDisconnect, defaultAgent: () => options.runtime().defaultAgent });
  registerApprovalRoutes(app, { chat, metrics, onDisconnect, maxBodyBytes: maxBody });
  options.extend?.(app, parts);
  if (options.mount) app.route('/', options.mount);

  app.notFound((c) => c.json({ error: { code: 'not_found', message: `No route for ${c.req.method} ${c.req.path.slice(0, 200)}` } }, 404));

  app.onError((err, c) => {
    const r = errorResponse(err);
    const log = c.get('log') ?? logger;
    if (r.serverFault) log.error({ err, status: r.status }, 'request failed');
    else log.debug({ status: r.status, code: r.body.error.code }, r.body.error.message);
    return c.json(r.body, r.status as 400, r.headers);
  });

  return { app, parts, logger };
}

/**
 * The server's rate limiter, if `server.rate_limit` sets a limit: counting in the store (shared
 * by every server on the same database) when there is one, unless `shared: false`.
 */
function createRateLimiter(config: ServerConfig['rateLimit'], store: (() => Promise<Store>) | undefined, logger: Logger): RateLimiter | undefined {
  if (!config || !(config.requestsPerMinute || config.tokensPerHour)) return undefined;
  const counter: RateCounter | undefined = store && config.shared !== false ? { add: async (key, amount, windowMs) => (await store()).counters.add(key, amount, windowMs) } : undefined;
  let warned = 0;
  return new RateLimiter({
    ...config,
    counter,
    onError: (err) => {
      // Fail open: a storage outage should not turn into refused requests. Said once a minute.
      if (Date.now() - warned < 60_000) return;
      warned = Date.now();
      logger.warn({ error: (err as Error).message }, `rate limits not counted (the storage failed), requests let through: ${(err as Error).message}`);
    },
  });
}
