import type { Hono } from 'hono';

import type { ServerEnv } from '../app/server-env.js';
import { EvalRunFiles } from './eval-run-files.js';

/** What the eval routes need. */
export interface EvalRoutesOptions {
  /** Where `corvid eval` saves its results: `.corvid/evals/` of the project. */
  dir: string;
}

/**
 * Registers `GET /api/v1/evals` (the eval runs `corvid eval` saved, newest first, with their
 * gates) and `GET /api/v1/evals/{id}` (one run's results and the changes since the previous run
 * of its suite). The results are the project's, like its agents: any caller that may reach the
 * API may read them.
 */
export function registerEvalRoutes(app: Hono<ServerEnv>, options: EvalRoutesOptions): void {
  const files = new EvalRunFiles(options.dir);
  app.get('/api/v1/evals', async (c) => c.json(await files.list()));
  app.get('/api/v1/evals/:id', async (c) => c.json(await files.get(c.req.param('id'))));
}
