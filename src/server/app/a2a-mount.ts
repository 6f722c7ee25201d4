import { type Context, Hono } from 'hono';

import type { A2ARunStart, A2ATaskStart } from '../../a2a/server/execution/corvid-agent-executor.js';
import { reportRejection } from '../../core/report-rejection.js';
import type { AgentEvent } from '../../types/events.js';
import type { Store } from '../../types/storage/store.js';
import { type Principal, principalUser } from '../auth/principal.js';
import type { RunTracing } from '../chat/chat-service.js';
import { modelLabels } from '../chat/model-label.js';
import { logRunWarning } from '../observability/log-run-warning.js';
import type { ServerAppParts } from './server-app-parts.js';

/** `createA2ARoutes` of `src/a2a/a2a-routes.ts`, loaded on demand. */
export type CreateA2ARoutes = (options: Record<string, unknown>) => Promise<Hono>;

/** The A2A routes, or why they are unavailable (the optional `@a2a-js/sdk` is not installed). */
export async function loadA2A(): Promise<{ create?: CreateA2ARoutes; missing?: string }> {
  const specifier = '../../a2a/server/a2a-routes.js';
  try {
    const mod = (await import(specifier)) as { createA2ARoutes?: CreateA2ARoutes };
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

/** What `createA2AMount` needs. */
export interface A2AMountOptions {
  create: CreateA2ARoutes;
  /** The server's parts: the A2A routes apply its visibility, metrics, rate limits and logger. */
  parts: ServerAppParts;
  /** The public URL the agent cards advertise (known once the server listens). */
  baseUrl: () => string;
  store?: () => Promise<Store>;
  tracing?: RunTracing;
  beforeTask?: (task: A2ATaskStart) => void | Promise<void>;
}

const principalOf = (c: Context): Principal => (c.get('principal' as never) as Principal | undefined) ?? { kind: 'anonymous' };

/**
 * A2A runs counted in the metrics and traces like chat turns, and their tokens charged against
 * the caller's rate limit.
 */
function observeA2ARuns(parts: ServerAppParts, tracing: RunTracing | undefined) {
  const { metrics, logger, limiter } = parts;
  const warnLog = logger && ((message: string) => logger.warn(message));
  return ({ agent, taskId, contextId, client }: A2ARunStart) => {
    const labels = modelLabels(agent);
    const tracer = tracing?.(labels, { 'corvid.a2a.task_id': taskId, 'corvid.a2a.context_id': contextId });
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
        if (limiter && client && tokens > 0) void limiter.addTokens(client, tokens).catch(reportRejection('counting A2A tokens', warnLog));
      },
    };
  };
}

/**
 * The A2A routes (agent cards, `/a2a/{name}`), to mount on the server app: behind its auth, with
 * its agent visibility (internal agents answer as unknown to anonymous callers, and are listed
 * on `GET /agents` to callers with a token only), body limit, metrics and logger.
 */
export async function createA2AMount(options: A2AMountOptions): Promise<Hono> {
  const { parts } = options;
  const { access, server, logger } = parts;
  // Who asked, for `GET /agents` (the A2A routes see the raw request).
  const principals = new WeakMap<Request, Principal>();
  const authOn = Boolean(server.auth?.jwt || server.auth?.apiKeys?.length);
  const routes = await options.create({
    runtime: parts.runtime,
    baseUrl: options.baseUrl,
    store: options.store,
    visibility: (name: string) => access.visibility(name),
    reachable: (name: string, c: Context) => access.reachable(name, principalOf(c)),
    listAgent: (name: string, request: Request) => {
      const v = access.visibility(name);
      if (v === 'public') return true;
      const who = principals.get(request);
      return v === 'internal' && who !== undefined && who.kind !== 'anonymous';
    },
    // What an authenticated caller creates over A2A is theirs alone (anonymous: auth is off).
    owner: (c: Context) => principalUser(principalOf(c)),
    pushAllowedHosts: server.a2a?.pushAllowedHosts,
    maxBodyBytes: parts.maxBodyBytes,
    ...(authOn
      ? { securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } }, security: [{ bearer: [] }], extendedCard: true }
      : {}),
    logger: { warn: (message: string) => logger.warn(message) },
    ...(options.beforeTask ? { beforeTask: options.beforeTask } : {}),
    observe: observeA2ARuns(parts, options.tracing),
  });
  const listing = new Hono();
  listing.use('/agents', async (c, next) => {
    const principal = c.get('principal' as never) as Principal | undefined;
    if (principal !== undefined) principals.set(c.req.raw, principal);
    await next();
  });
  listing.route('/', routes);
  return listing;
}
