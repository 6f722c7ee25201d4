import type { Hono } from 'hono';

import type { BackgroundRuns } from '../../durable/background-runs.js';
import type { ServerEnv } from '../app/server-env.js';

/** `GET /api/v1/schedules`: the cron schedules (`schedules:` in corvid.yaml) with their next tick. */
export function registerScheduleRoutes(app: Hono<ServerEnv>, runs: () => BackgroundRuns): void {
  app.get('/api/v1/schedules', (c) => {
    const schedules = runs()
      .schedules.list()
      .map((s) => ({
        name: s.name,
        agent: s.agent,
        cron: s.cron,
        timezone: s.timezone ?? 'UTC',
        ...(s.session !== undefined ? { sessionId: s.session } : {}),
        missed: s.missed,
        ...(s.nextRunAt !== undefined ? { nextRunAt: s.nextRunAt.toISOString() } : {}),
      }));
    return c.json({ schedules });
  });
}
