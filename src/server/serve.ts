import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import type { Context, Hono } from 'hono';
import type { Logger } from 'pino';
import type { DestinationStream } from 'pino';
import type { ServerConfig } from '../config/corvid-config.js';
import type { Runnable } from '../core/runnable.js';
import { ConfigError } from '../errors/config-error.js';
import type { LoadRuntimeOptions } from '../runtime/load-runtime.js';
import type { ChatSessions } from './chat-sessions.js';
import type { RunTracing } from './chat-service.js';
import { createServerApp, DEFAULT_MAX_BODY_BYTES, type ServerAppParts } from './create-server-app.js';
import { registerMcpRoutes } from './mcp-routes.js';
import { runtimeOf, type ServedRuntime } from './served-runtime.js';
import type { ServerEnv } from './server-env.js';
import { createServerLogger } from './server-logger.js';
import { principalUser, type Principal } from './principal.js';
import type { Tracing } from './tracing.js';
import { modelLabels } from './model-label.js';
import type { A2ARunStart } from '../a2a/server/execution/corvid-agent-executor.js';
import type { AgentEvent } from '../types/events.js';
import { watchConfig } from './watch-config.js';
import { ServerMetrics } from './server-metrics.js';
import { logRunWarning } from './log-run-warning.js';
import type { StoreSource } from '../durable/durable-types.js';
import type { Store } from '../storage/types/store.js';

/** Options of `serve()`. Give `agents` (built in code) or a `runtime`, else the config is loaded. */
export interface ServeOptions {
  /** Agents to serve (every one public); the first is the default. */
  agents?: Runnable[];
  /** A runtime to serve (e.g. from `loadRuntime`); `serve()` does not close one it was given. */
  runtime?: ServedRuntime;
  /** With neither `agents` nor `runtime`: options for `loadRuntime` (config file, cwd, env, tools). */
  load?: LoadRuntimeOptions;
  /** Port; 0 picks a free one. Default: `server.port`, else 8080. */
  port?: number;
  /**
   * Interface. Default: `server.host`, else 127.0.0.1. Giving a non-loopback host here serves it
   * even without auth (with a loud warning); a non-loopback `server.host` needs `server.auth`.
   */
  host?: string;
  /** Settings overriding the config's `server:` section. */
  server?: ServerConfig;
  /** Reload the config when it (or `.env`) changes. Default false. */
  watch?: boolean;
  /** A pino logger; default JSON lines on stdout at `server.logging.level`. */
  logger?: Logger;
  /** Where the default logger writes. */
  logDestination?: DestinationStream;
  /**
   * Where chat sessions live, in memory (default without a store). Giving it turns off session
   * runs in `store`.
   */
  sessions?: ChatSessions;
  /**
   * The store chat turns run in as session runs (history with agent names, state, checkpoints,
   * approvals). Default: the runtime's store when the config has a `storage:` section.
   */
  store?: StoreSource;
  /** Resume runs left interrupted by an earlier process, at start (in the background). Default: `storage.resume` of the config, else `manual`. */
  resume?: 'manual' | 'auto';
  /**
   * Mount the A2A endpoints (agent cards, `/a2a/{name}`). Default true. An object serves them
   * with options: `beforeTask`, a hook run for every task before its agent (`A2ATaskHook`).
   */
  a2a?: boolean | { beforeTask?: (task: import('../a2a/server/execution/corvid-agent-executor.js').A2ATaskStart) => void | Promise<void> };
}

/** A running server. */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly app: Hono<ServerEnv>;
  readonly parts: ServerAppParts;
  readonly logger: Logger;
  /** The runtime serving requests now. */
  runtime(): ServedRuntime;
  /** Reloads the config now (as a watched change would). Resolves false when the new config was rejected. */
  reload(): Promise<boolean>;
  /**
   * Stops accepting connections, lets in-flight requests finish (up to `timeoutMs`, default
   * 10000), then closes every connection, the tracer and the runtime (when `serve()` loaded it).
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** True for 127.x, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** The A2A routes, or why they are unavailable (the optional `@a2a-js/sdk` is not installed). */
async function loadA2A(): Promise<{ create?: (o: Record<string, unknown>) => Promise<Hono>; missing?: string }> {
  const specifier = '../a2a/server/a2a-routes.js';
  try {
    const mod = (await import(specifier)) as { createA2ARoutes?: (o: Record<string, unknown>) => Promise<Hono> };
    return { create: mod.createA2ARoutes };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e?.code === 'ERR_MODULE_NOT_FOUND') {
      const pkg = /Cannot find (?:package|module) '([^']+)'/.exec(e.message ?? '')?.[1] ?? '@a2a-js/sdk';
      return { missing: pkg };
    }
    throw err;
  }
}

/**
 * Serves agents over HTTP: the chat API (JSON, SSE, WebSocket), sessions, OpenAPI, health,
 * readiness, Prometheus metrics, A2A, with the auth, limits and telemetry of `server:`.
 * @example
 * import { serve } from 'corvid/server';
 * const server = await serve({ agents: [agent], port: 0 });
 * console.log(server.url);
 * await server.close();
 */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  let owned = false;
  let runtime: ServedRuntime;
  if (options.runtime) runtime = options.runtime;
  else if (options.agents) runtime = runtimeOf(options.agents);
  else {
    const { loadRuntime } = await import('../runtime/load-runtime.js');
    runtime = await loadRuntime(options.load);
    owned = true;
  }
  const closeOwned = async () => {
    if (owned) await runtime.close?.().catch(() => undefined);
  };
  try {
    return await start(runtime, options, closeOwned);
  } catch (err) {
    await closeOwned();
    throw err;
  }
}

async function start(runtime: ServedRuntime, options: ServeOptions, closeOwned: () => Promise<void>): Promise<RunningServer> {
  const server: ServerConfig = { ...runtime.config.server, ...options.server };
  // One body limit for every route: chat, approvals, A2A (JSON-RPC, REST, the v0.3 bridge), WebSocket messages.
  server.maxBodyBytes ??= DEFAULT_MAX_BODY_BYTES;
  const logger = options.logger ?? createServerLogger({ level: server.logging?.level, destination: options.logDestination });
  const authOn = Boolean(server.auth?.jwt || server.auth?.apiKeys?.length);
  const host = options.host ?? server.host ?? '127.0.0.1';
  if (!authOn && !isLoopback(host)) {
    if (options.host === undefined) {
      throw new ConfigError(
        `server.host is "${host}" but server.auth is not configured, so anyone who can reach it could use the agents. Configure server.auth (JWT or API keys), or pass --host ${host} to serve without auth anyway.`,
      );
    }
    logger.warn({ host }, `AUTH IS OFF and the server listens on ${host}: anyone who can reach this address can use every public agent. Configure server.auth.`);
  } else if (!authOn) {
    logger.warn({ host }, 'auth is off (no server.auth): serving on loopback only');
  }
  const internal = [...runtime.agents.keys()].filter((n) => runtime.config.agents[n]?.visibility === 'internal');
  if (!authOn && internal.length > 0) {
    logger.warn({ agents: internal }, `internal agents (${internal.join(', ')}) cannot be reached over HTTP without server.auth: they answer as unknown agents`);
  }
  const port = options.port ?? server.port ?? 8080;
  const configDir = runtime.configPath ? dirname(runtime.configPath) : process.cwd();

  let tracing: Tracing | undefined;
  let runTracing: RunTracing | undefined;
  const endpoint = server.telemetry?.otlpEndpoint ?? (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined);
  if (endpoint) {
    const { startTracing } = await import('./tracing.js');
    tracing = await startTracing({ endpoint, serviceName: server.telemetry?.serviceName ?? process.env.OTEL_SERVICE_NAME });
    logger.info({ url: tracing.url }, 'exporting traces over OTLP');
    const { RunTracer } = await import('./run-tracer.js');
    const tracer = tracing.tracer;
    runTracing = (model, attributes) => new RunTracer(tracer, model, attributes);
  }

  const current = () => runtime;
  const given = options.store;
  const storeFn: (() => Promise<Store>) | undefined =
    given !== undefined ? (typeof given === 'function' ? given : async () => given) : runtime.config.storage && runtime.store ? () => runtime.store!() : undefined;
  const scheme = server.tls ? 'https' : 'http';
  let baseUrl = server.baseUrl;
  let setParts: ((parts: ServerAppParts) => void) | undefined;
  const loadedA2A = options.a2a === false ? {} : await loadA2A();
  const createA2A = loadedA2A.create;
  if (loadedA2A.missing !== undefined) {
    logger.warn(`A2A is not served: the optional package ${loadedA2A.missing} is not installed (npm install @a2a-js/sdk to serve agents over A2A)`);
  }

  const { createNodeWebSocket } = await import('@hono/node-ws');
  const { registerWebSocketRoute } = await import('./ws-route.js');
  let injectWebSocket: ((s: never) => void) | undefined;
  let wss: { clients: Set<{ terminate(): void }>; close(): void } | undefined;
  const metrics = new ServerMetrics();
  // The A2A routes advertise the base URL on their cards, known once listening (port 0): they read
  // it through an accessor, so they can be mounted on the app (one dispatch per request) now.
  let a2a: Hono | undefined;
  // Who asked, for `GET /agents` (the A2A routes see the raw request): internal agents are listed to callers with a token.
  const principals = new WeakMap<Request, { kind: string }>();
  if (createA2A) {
    let parts: ServerAppParts | undefined;
    a2a = await createA2A({
      runtime: current,
      baseUrl: () => baseUrl!,
      store: storeFn,
      visibility: (name: string) => parts!.access.visibility(name),
      // Internal agents answer as unknown to anonymous callers (the principal is set by the app's middleware).
      reachable: (name: string, c: Context) => parts!.access.reachable(name, (c.get('principal' as never) as Principal | undefined) ?? { kind: 'anonymous' }),
      listAgent: (name: string, request: Request) => {
        const v = parts!.access.visibility(name);
        if (v === 'public') return true;
        const who = principals.get(request);
        return v === 'internal' && who !== undefined && who.kind !== 'anonymous';
      },
      // What an authenticated caller creates over A2A is theirs alone (anonymous: auth is off).
      owner: (c: Context) => principalUser((c.get('principal' as never) as Principal | undefined) ?? { kind: 'anonymous' }),
      pushAllowedHosts: server.a2a?.pushAllowedHosts,
      maxBodyBytes: server.maxBodyBytes,
      ...(server.auth?.jwt || server.auth?.apiKeys?.length
        ? { securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } }, security: [{ bearer: [] }], extendedCard: true }
        : {}),
      logger: { warn: (message: string) => logger.warn(message) },
      ...(typeof options.a2a === 'object' && options.a2a.beforeTask ? { beforeTask: options.a2a.beforeTask } : {}),
      // A2A runs count in the metrics and traces like chat turns, and their tokens against the caller's limit.
      observe: ({ agent, taskId, contextId, client }: A2ARunStart) => {
        const labels = modelLabels(agent);
        const tracer = runTracing?.(labels, { 'corvid.a2a.task_id': taskId, 'corvid.a2a.context_id': contextId });
        const limiter = parts?.limiter;
        let tokens = 0;
        return {
          onEvent: (e: AgentEvent) => {
            metrics.event(e, labels);
            tracer?.event(e);
            if (e.type === 'warning') logRunWarning(logger, e);
            if (e.type === 'step_end') tokens += (e.usage.inputTokens ?? 0) + (e.usage.outputTokens ?? 0);
          },
          end: () => {
            tracer?.endAll();
            if (limiter && client && tokens > 0) void limiter.addTokens(client, tokens);
          },
        };
      },
    });
    const { Hono } = await import('hono');
    const listing = new Hono();
    listing.use('/agents', async (c, next) => {
      const principal = c.get('principal' as never) as { kind: string } | undefined;
      if (principal !== undefined) principals.set(c.req.raw, principal);
      await next();
    });
    listing.route('/', a2a);
    a2a = listing;
    setParts = (p) => (parts = p);
  }

  const built = createServerApp({
    runtime: current,
    server,
    logger,
    metrics,
    tracing: runTracing,
    allowedHosts: !authOn && !isLoopback(host) ? ['*'] : undefined,
    sessions: options.sessions,
    store: storeFn,
    mount: a2a,
    // The A2A routes check their bodies' Content-Type themselves, answering in the protocol's error format.
    ownBodyCheck: a2a ? (path) => path.startsWith('/a2a/') : undefined,
    extend: (app, parts) => {
      const nodeWs = createNodeWebSocket({ app });
      // Larger messages close the socket (1009) before they are buffered (ws's own default is 100 MiB).
      nodeWs.wss.options.maxPayload = parts.maxBodyBytes;
      injectWebSocket = nodeWs.injectWebSocket as (s: never) => void;
      wss = nodeWs.wss as unknown as typeof wss;
      // A socket's errors (a message over the limit, a bad frame) end it (onClose runs); logged
      // here, not on stderr (@hono/node-ws's default, which on Node 20 fails to build an ErrorEvent).
      const onError = (err: unknown) => logger.debug({ error: (err as Error)?.message }, 'websocket error');
      registerWebSocketRoute(app, parts, ((createEvents: never, upgradeOptions?: object) => nodeWs.upgradeWebSocket(createEvents, { onError, ...upgradeOptions })) as never);
      registerMcpRoutes(app, parts, { maxBodyBytes: parts.maxBodyBytes, cwd: options.load?.cwd });
    },
  });
  setParts?.(built.parts);

  const { serve: nodeServe } = await import('@hono/node-server');
  const tls = server.tls && {
    cert: readFileSync(resolve(configDir, server.tls.cert)),
    key: readFileSync(resolve(configDir, server.tls.key)),
  };
  const httpServer = await new Promise<import('node:http').Server>((resolveListen, reject) => {
    const s = nodeServe(
      {
        fetch: built.app.fetch,
        port,
        hostname: host,
        ...(tls ? { createServer: createHttpsServer, serverOptions: tls } : {}),
      },
      () => resolveListen(s as import('node:http').Server),
    );
    (s as import('node:http').Server).once('error', reject);
  });
  injectWebSocket?.(httpServer as never);
  const actualPort = (httpServer.address() as AddressInfo).port;
  const url = `${scheme}://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${actualPort}`;
  baseUrl ??= url;
  let stopWatching: (() => void) | undefined;
  const reload = async (): Promise<boolean> => {
    if (!runtime.reload) return true;
    try {
      const before = JSON.stringify(runtime.config.server ?? {});
      await runtime.reload();
      logger.info({ agents: [...runtime.agents.keys()] }, 'config reloaded');
      if (JSON.stringify(runtime.config.server ?? {}) !== before) {
        logger.warn('the server: section changed: its settings (port, auth, limits, telemetry) take effect when the server restarts; agents, tools and visibility were reloaded');
      }
      return true;
    } catch (err) {
      logger.error({ error: (err as Error).message }, `config change rejected, still serving the previous config: ${(err as Error).message}`);
      return false;
    }
  };
  if (options.watch && runtime.configPath) {
    stopWatching = watchConfig({ configPath: runtime.configPath, cwd: options.load?.cwd ?? process.cwd(), onChange: (path) => {
      logger.info({ path }, 'config changed, reloading');
      void reload();
    } });
  }

  let closed = false;
  let resuming: Promise<unknown> | undefined;
  const stopResuming = new AbortController();
  if ((options.resume ?? runtime.config.storage?.resume) === 'auto' && storeFn && options.sessions === undefined) {
    const { resumeInterruptedRuns } = await import('./auto-resume.js');
    resuming = resumeInterruptedRuns({ chat: built.parts.chat, store: storeFn, logger, stopped: () => closed, signal: stopResuming.signal });
  }

  let closing: Promise<void> | undefined;
  const close = (closeOptions: { timeoutMs?: number } = {}): Promise<void> =>
    (closing ??= (async () => {
      closed = true;
      stopResuming.abort();
      stopWatching?.();
      const done = new Promise<void>((r) => httpServer.close(() => r()));
      httpServer.closeIdleConnections?.();
      for (const ws of wss?.clients ?? []) ws.terminate();
      wss?.close();
      const timer = setTimeout(() => httpServer.closeAllConnections?.(), closeOptions.timeoutMs ?? 10_000);
      timer.unref();
      await done;
      // Let a run resumed at start-up finish before the store closes.
      if (resuming) await Promise.race([resuming, new Promise((r) => setTimeout(r, closeOptions.timeoutMs ?? 10_000).unref())]);
      clearTimeout(timer);
      await tracing?.shutdown().catch(() => undefined);
      await closeOwned();
    })());

  return { url, port: actualPort, host, app: built.app, parts: built.parts, logger, runtime: current, reload, close };
}
