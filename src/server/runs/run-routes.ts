import type { Hono } from 'hono';

import { HttpError } from '../../http/http-error.js';
import type { Store } from '../../types/storage/store.js';
import { RECORD_ID } from '../api/request-schemas.js';
import type { ServerEnv } from '../app/server-env.js';
import { type ChatService, noStore } from '../chat/chat-service.js';
import { runStatus } from './run-status.js';
import { runTimelineView } from './run-timeline-view.js';

/**
 * Registers `GET /api/v1/runs/{id}/timeline` (the steps, durations, tokens and tool spans its
 * checkpoints record) and `POST /api/v1/runs/{id}/cancel` (stops a run a turn of this process is
 * running: 202; 409 when it runs nowhere here). Runs are visible as on `GET /api/v1/runs/{id}`.
 */
export function registerRunRoutes(app: Hono<ServerEnv>, options: { chat: ChatService }): void {
  const { chat } = options;
  const visible = async (id: string, principal: Parameters<ChatService['visibleRun']>[1]) => {
    if (!RECORD_ID.test(id)) throw new HttpError(404, 'run_not_found', `Unknown run "${id.slice(0, 128)}"`);
    const source = chat.store;
    if (!source) throw noStore();
    const store: Store = await source();
    const run = await chat.visibleRun(id, principal);
    if (!run) throw new HttpError(404, 'run_not_found', `Unknown run "${id}"`);
    return { store, run };
  };

  app.get('/api/v1/runs/:id/timeline', async (c) => {
    const { store, run } = await visible(c.req.param('id'), c.get('principal'));
    const checkpoint = await store.checkpoints.latest(run.runId);
    return c.json(runTimelineView({ run, status: await runStatus(store, run, chat), checkpoint }));
  });

  app.post('/api/v1/runs/:id/cancel', async (c) => {
    const { run } = await visible(c.req.param('id'), c.get('principal'));
    if (!chat.cancelRun(run.runId)) {
      throw new HttpError(
        409,
        'run_not_running',
        `Run "${run.runId}" is not running in this server (status ${run.status}); only a run this server is executing can be cancelled`,
      );
    }
    c.get('log').info({ runId: run.runId }, 'run cancelled');
    return c.json({ runId: run.runId, status: 'cancelling' as const }, 202);
  });
}
