import type { Hono } from 'hono';

import type { Store } from '../../types/storage/store.js';
import { openApiDocument } from '../api/openapi.js';
import type { ServedRuntime } from '../app/served-runtime.js';
import type { ServerEnv } from '../app/server-env.js';
import type { ServerMetrics } from './server-metrics.js';

/** What `registerOperationalRoutes` needs. */
export interface OperationalRoutesOptions {
  runtime: () => ServedRuntime;
  metrics: ServerMetrics;
  /** The store `/ready` checks (default: the runtime's, when its config has `storage:`). */
  store?: () => Promise<Store>;
  /** The public URL, for the OpenAPI `servers`. */
  baseUrl?: string;
}

/** Readiness: agents to serve, and the store (when there is one) answering a query. */
async function readiness(
  runtime: ServedRuntime,
  store: (() => Promise<Store>) | undefined,
): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const checks: Record<string, string> = { config: 'ok' };
  let ready = runtime.agents.size > 0;
  if (!ready) checks.config = 'no agents';
  const storeOf = store ?? (runtime.config.storage && runtime.store ? runtime.store.bind(runtime) : undefined);
  if (storeOf) {
    try {
      await (await storeOf()).sessions.list({ limit: 1 });
      checks.storage = 'ok';
    } catch (err) {
      ready = false;
      checks.storage = (err as Error).message;
    }
  }
  return { ready, checks };
}

/** Registers `GET /health`, `/ready`, `/metrics` (Prometheus) and `/api/v1/openapi.json`. */
export function registerOperationalRoutes(app: Hono<ServerEnv>, options: OperationalRoutesOptions): void {
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    const { ready, checks } = await readiness(options.runtime(), options.store);
    return c.json({ status: ready ? 'ready' : 'not_ready', checks }, ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    const { body, contentType } = await options.metrics.render();
    return c.body(body, 200, { 'content-type': contentType });
  });
  app.get('/api/v1/openapi.json', (c) => c.json(openApiDocument({ serverUrl: options.baseUrl })));
}
