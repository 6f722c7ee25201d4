import type { Context, Hono } from 'hono';
import type { Logger } from 'pino';

import type { ServerConfig } from '../../config/corvid-config.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/read-incoming.js';
import type { Store } from '../../types/storage/store.js';
import { AgentAccess } from '../auth/agent-access.js';
import { Authenticator } from '../auth/authenticator.js';
import { type ChatBackend, ChatService, type RunTracing } from '../chat/chat-service.js';
import { createServerLogger } from '../observability/server-logger.js';
import { ServerMetrics } from '../observability/server-metrics.js';
import { createRateLimiter } from '../rate-limit/create-rate-limiter.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { type ChatSessions, MemoryChatSessions, type SessionDirectory } from '../sessions/chat-sessions.js';
import { StoreChatSessions } from '../sessions/store-chat-sessions.js';
import type { StudioOptions } from '../studio/studio-static.js';
import type { ServedRuntime } from './served-runtime.js';
import type { ServerEnv } from './server-env.js';

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
  clientAddress?: (c: Context) => string | undefined;
  /** Where `corvid eval` saved its results, which `GET /api/v1/evals` lists. Default `.corvid/evals` under `process.cwd()`. */
  evalsDir?: string;
  /** Serve the built Studio at `/studio` (`true`: from `<package root>/dist/studio`). Default off (`serve()` turns it on). */
  studio?: boolean | StudioOptions;
  /** The parts to serve with, made beforehand by `createServerParts(options)` (e.g. to share them with mounted routes). Default: made from these options. */
  parts?: ServerAppParts;
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
  /** The server's logger. */
  logger: Logger;
}

/**
 * The parts of a server app — access rules, authentication, the chat service on its sessions
 * (in the store, or in memory), rate limits, metrics, the logger — made from `options`, before
 * the app: routes mounted beside the app's own (A2A) can be given them.
 */
export function createServerParts(options: ServerAppOptions): ServerAppParts {
  const server = options.server ?? options.runtime().config.server ?? {};
  const logger = options.logger ?? createServerLogger({ level: server.logging?.level });
  const metrics = options.metrics ?? new ServerMetrics();
  const auth = new Authenticator(server.auth);
  const access = new AgentAccess(options.runtime, auth.enabled);
  const backend: ChatBackend =
    options.sessions === undefined && options.store !== undefined
      ? { kind: 'store', sessions: new StoreChatSessions(options.store), store: options.store }
      : { kind: 'memory', sessions: options.sessions ?? new MemoryChatSessions() };
  const limiter = createRateLimiter(server.rateLimit, options.store, logger);
  const chat = new ChatService({ access, backend, metrics, tracing: options.tracing, limiter, logger });
  const maxBodyBytes = server.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return { chat, access, auth, metrics, sessions: backend.sessions, limiter, server, maxBodyBytes, runtime: options.runtime, logger };
}
