import type { Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';

import type { Hono } from 'hono';
import type { Logger } from 'pino';

import type { ServerConfig } from '../../config/corvid-config.js';
import { ConfigError } from '../../errors/config-error.js';
import type { StoreSource } from '../../types/durable-options.js';
import type { Store } from '../../types/storage/store.js';
import type { RunTracing } from '../chat/chat-service.js';
import { NodeWebSockets } from '../chat/node-web-sockets.js';
import { registerMcpRoutes } from '../mcp/mcp-routes.js';
import { createServerLogger } from '../observability/server-logger.js';
import { ServerMetrics } from '../observability/server-metrics.js';
import type { Tracing } from '../observability/tracing.js';
import { createA2AMount, loadA2A } from './a2a-mount.js';
import { configReloader, watchAndReload } from './config-reload.js';
import {
  createServerApp,
  createServerParts,
  DEFAULT_MAX_BODY_BYTES,
  type ServerAppOptions,
  type ServerAppParts,
} from './create-server-app.js';
import { listen } from './listen.js';
import type { RunningServer, ServeOptions } from './serve-options.js';
import { runtimeOf, type ServedRuntime } from './served-runtime.js';

export type { RunningServer, ServeOptions } from './serve-options.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

/** True for 127.x, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
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
    const { loadRuntime } = await import('../../runtime/load-runtime.js');
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

/** The settings a start resolves from the config's `server:` section and the options. */
interface ServeSettings {
  server: ServerConfig;
  logger: Logger;
  host: string;
  port: number;
  authOn: boolean;
}

/**
 * The effective settings, refusing a non-loopback `server.host` without auth, and warning when
 * auth is off (and internal agents cannot be reached).
 */
function settingsOf(runtime: ServedRuntime, options: ServeOptions): ServeSettings {
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
    logger.warn(
      { host },
      `AUTH IS OFF and the server listens on ${host}: anyone who can reach this address can use every public agent. Configure server.auth.`,
    );
  } else if (!authOn) {
    logger.warn({ host }, 'auth is off (no server.auth): serving on loopback only');
  }
  const internal = [...runtime.agents.keys()].filter((n) => runtime.config.agents[n]?.visibility === 'internal');
  if (!authOn && internal.length > 0) {
    logger.warn(
      { agents: internal },
      `internal agents (${internal.join(', ')}) cannot be reached over HTTP without server.auth: they answer as unknown agents`,
    );
  }
  return { server, logger, host, port: options.port ?? server.port ?? 8080, authOn };
}

/** OTLP trace export, when `server.telemetry.otlp_endpoint` (or `OTEL_EXPORTER_OTLP_ENDPOINT`) is set; OpenTelemetry loads only then. */
async function startRunTracing(server: ServerConfig, logger: Logger): Promise<{ tracing?: Tracing; runTracing?: RunTracing }> {
  const endpoint = server.telemetry?.otlpEndpoint ?? (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined);
  if (!endpoint) return {};
  const { startTracing } = await import('../observability/tracing.js');
  const tracing = await startTracing({ endpoint, serviceName: server.telemetry?.serviceName ?? process.env.OTEL_SERVICE_NAME });
  logger.info({ url: tracing.url }, 'exporting traces over OTLP');
  const { RunTracer } = await import('../observability/run-tracer.js');
  const tracer = tracing.tracer;
  return { tracing, runTracing: (model, attributes) => new RunTracer(tracer, model, attributes) };
}

/** The store chat turns run in: the one given, else the runtime's when its config has `storage:`. */
function storeSourceOf(given: StoreSource | undefined, runtime: ServedRuntime): (() => Promise<Store>) | undefined {
  if (given !== undefined) return typeof given === 'function' ? given : async () => given;
  const open = runtime.store;
  return runtime.config.storage && open ? () => open.call(runtime) : undefined;
}

/** The A2A routes to mount (unless `a2a: false`, or the optional SDK is missing: then a warning). */
async function a2aRoutes(
  options: ServeOptions,
  input: { parts: ServerAppParts; baseUrl: () => string; store?: () => Promise<Store>; tracing?: RunTracing },
): Promise<Hono | undefined> {
  if (options.a2a === false) return undefined;
  const loaded = await loadA2A();
  if (loaded.missing !== undefined) {
    input.parts.logger.warn(
      `A2A is not served: the optional package ${loaded.missing} is not installed (npm install @a2a-js/sdk to serve agents over A2A)`,
    );
  }
  if (!loaded.create) return undefined;
  const beforeTask = typeof options.a2a === 'object' ? options.a2a.beforeTask : undefined;
  return createA2AMount({ create: loaded.create, ...input, beforeTask });
}

/** Resumes, in the background, the runs an earlier process left interrupted (`resume: auto` with a store). */
async function startAutoResume(input: {
  options: ServeOptions;
  runtime: ServedRuntime;
  store?: () => Promise<Store>;
  parts: ServerAppParts;
}): Promise<{ stop(): void; done?: Promise<unknown> }> {
  const stopped = new AbortController();
  const stop = () => stopped.abort();
  const { options, runtime, store } = input;
  if ((options.resume ?? runtime.config.storage?.resume) !== 'auto' || !store || options.sessions !== undefined) return { stop };
  const { resumeInterruptedRuns } = await import('../runs/auto-resume.js');
  const done = resumeInterruptedRuns({
    chat: input.parts.chat,
    store,
    logger: input.parts.logger,
    stopped: () => stopped.signal.aborted,
    signal: stopped.signal,
  });
  return { stop, done };
}

/** Starts executing queued background runs here (`worker` option, default on with a store). */
async function startWorker(options: ServeOptions, runtime: ServedRuntime, store: unknown, logger: ServerAppParts['logger']) {
  if (options.worker === false || !store || !runtime.runs) return undefined;
  const concurrency = typeof options.worker === 'object' ? options.worker.concurrency : undefined;
  return runtime.runs.work({
    ...(concurrency !== undefined ? { concurrency } : {}),
    onError: (runId, err) => {
      if ((err as Error).name !== 'RunHeldElsewhereError') logger.error({ runId, err }, `background run ${runId} could not be executed`);
    },
    onScheduleError: (schedule, err) =>
      logger.error({ schedule, err }, `schedule ${schedule}: its run could not be submitted: ${(err as Error).message}`),
  });
}

/** What closing a server stops, in order. */
interface ShutdownSteps {
  http: Server;
  worker?: { stop(): Promise<void> };
  sockets: NodeWebSockets;
  resume: { stop(): void; done?: Promise<unknown> };
  stopWatching?: () => void;
  tracing?: Tracing;
  closeOwned: () => Promise<void>;
}

/**
 * `RunningServer.close`: stops accepting, lets in-flight requests (and a run resumed at start-up)
 * finish up to `timeoutMs`, then closes every connection, the tracer and the owned runtime. Once.
 */
function shutdown(steps: ShutdownSteps): RunningServer['close'] {
  let closing: Promise<void> | undefined;
  const close = async (timeoutMs: number): Promise<void> => {
    steps.resume.stop();
    steps.stopWatching?.();
    const done = new Promise<void>((r) => steps.http.close(() => r()));
    steps.http.closeIdleConnections?.();
    steps.sockets.closeAll();
    const timer = setTimeout(() => steps.http.closeAllConnections?.(), timeoutMs);
    timer.unref();
    await done;
    // Let a run resumed at start-up finish before the store closes.
    if (steps.resume.done) await Promise.race([steps.resume.done, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    if (steps.worker) await Promise.race([steps.worker.stop(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    clearTimeout(timer);
    await steps.tracing?.shutdown().catch(() => undefined);
    await steps.closeOwned();
  };
  return (options = {}) => (closing ??= close(options.timeoutMs ?? 10_000));
}

async function start(runtime: ServedRuntime, options: ServeOptions, closeOwned: () => Promise<void>): Promise<RunningServer> {
  const { server, logger, host, port, authOn } = settingsOf(runtime, options);
  const { tracing, runTracing } = await startRunTracing(server, logger);
  const store = storeSourceOf(options.store, runtime);
  const current = () => runtime;
  const appOptions: ServerAppOptions = {
    runtime: current,
    server,
    logger,
    metrics: new ServerMetrics(),
    tracing: runTracing,
    allowedHosts: !authOn && !isLoopback(host) ? ['*'] : undefined,
    sessions: options.sessions,
    store,
    studio: options.studio ?? server.studio ?? true,
    // Where `corvid eval` run in the same directory saved its results.
    evalsDir: join(resolve(options.load?.cwd ?? process.cwd()), '.corvid', 'evals'),
  };
  const parts = createServerParts(appOptions);
  // The agent cards advertise the base URL: the configured one, else the URL listened on (port 0 is known then).
  let listenUrl: string | undefined;
  const baseUrl = () => server.baseUrl ?? listenUrl ?? `${server.tls ? 'https' : 'http'}://${host}:${port}`;
  const a2a = await a2aRoutes(options, { parts, baseUrl, store, tracing: runTracing });
  const sockets = await NodeWebSockets.load(logger);
  const { app } = createServerApp({
    ...appOptions,
    parts,
    mount: a2a,
    // The A2A routes check their bodies' Content-Type themselves, answering in the protocol's error format.
    ownBodyCheck: a2a ? (path) => path.startsWith('/a2a/') : undefined,
    extend: (served, p) => {
      sockets.register(served, p);
      registerMcpRoutes(served, p, { maxBodyBytes: p.maxBodyBytes, cwd: options.load?.cwd, store });
    },
  });
  const configDir = runtime.configPath ? dirname(runtime.configPath) : process.cwd();
  const listening = await listen({ fetch: app.fetch, host, port, tls: server.tls, configDir });
  sockets.attach(listening.server);
  listenUrl = listening.url;
  const reload = configReloader(runtime, logger);
  const stopWatching =
    options.watch && runtime.configPath
      ? watchAndReload({ configPath: runtime.configPath, cwd: options.load?.cwd ?? process.cwd(), reload, logger })
      : undefined;
  const resume = await startAutoResume({ options, runtime, store, parts });
  const worker = await startWorker(options, runtime, store, logger);
  const close = shutdown({ http: listening.server, sockets, resume, worker, stopWatching, tracing, closeOwned });
  return { url: listening.url, port: listening.port, host, app, parts, logger, runtime: current, reload, close };
}
