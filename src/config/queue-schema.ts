import { z } from 'zod';

import type { QueueConfig } from './corvid-config.js';

const BACKENDS = ['embedded', 'postgres', 'redis'] as const;

/** `queue:` — where submitted (background) runs wait for a worker. */
export const queueSchema = z
  .strictObject({
    backend: z
      .enum(BACKENDS, { error: 'backend is one of embedded, postgres, redis' })
      .optional()
      .describe(
        'Where submitted runs wait: `embedded` (default, the store itself; workers are the processes on that database), `postgres` (pg-boss; its tables in their own schema) or `redis` (BullMQ). Default embedded.',
      ),
    url: z
      .string()
      .min(1)
      .optional()
      .describe('postgres: the database (default: storage.url); redis: redis://host:6379. Passwords are never printed; use `${ENV_VAR}`.'),
    concurrency: z
      .int()
      .positive()
      .max(1000)
      .optional()
      .describe('Runs one worker executes at once (`corvid worker --concurrency` overrides). Default 4.'),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_:-]{1,64}$/, { error: 'prefix uses 1-64 letters, digits, "_", ":" or "-"' })
      .optional()
      .describe('redis: the key prefix of the queue and the event streams. Default corvid.'),
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,49}$/, { error: 'schema is a plain identifier: letters, digits, "_" (at most 50)' })
      .optional()
      .describe("postgres: the schema of the queue's tables (pg-boss). Default <storage.schema>_queue, else corvid_queue."),
    visibility_timeout_s: z
      .int()
      .min(1)
      .max(3600)
      .optional()
      .describe(
        'postgres, redis: a run whose worker died (went silent) is offered to another worker after about this many seconds; it resumes from its checkpoints. Default 30.',
      ),
    events_ttl_s: z
      .int()
      .positive()
      .optional()
      .describe("redis: a finished run's event stream is deleted this many seconds after its end. Default 604800 (7 days)."),
  })
  .superRefine((q, ctx) => {
    const backend = q.backend ?? 'embedded';
    if (q.url !== undefined) {
      const scheme = q.url.slice(0, Math.max(0, q.url.indexOf(':'))).toLowerCase();
      const ok =
        backend === 'postgres'
          ? scheme === 'postgres' || scheme === 'postgresql'
          : backend === 'redis'
            ? scheme === 'redis' || scheme === 'rediss'
            : false;
      if (!ok) {
        const want =
          backend === 'postgres' ? 'a postgres:// URL' : backend === 'redis' ? 'a redis:// or rediss:// URL' : 'no url (it uses the store)';
        ctx.addIssue({ code: 'custom', path: ['url'], message: `the ${backend} queue takes ${want}` });
      }
    }
    if (backend === 'redis' && q.url === undefined)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'the redis queue needs a url, e.g. redis://localhost:6379' });
    if (q.schema !== undefined && backend !== 'postgres')
      ctx.addIssue({ code: 'custom', path: ['schema'], message: `schema is for the postgres queue, not ${backend}` });
    if (q.visibility_timeout_s !== undefined && backend === 'embedded')
      ctx.addIssue({
        code: 'custom',
        path: ['visibility_timeout_s'],
        message: 'visibility_timeout_s is for the postgres and redis queues, not embedded',
      });
    for (const key of ['prefix', 'events_ttl_s'] as const)
      if (q[key] !== undefined && backend !== 'redis')
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} is for the redis queue, not ${backend}` });
  })
  .describe('Background runs (POST /api/v1/runs, runtime.runs.submit): the queue workers take them from. Default: embedded in the store.');

/** Converts a schema-valid `queue:` section into the normalised `QueueConfig`. */
export function normalizeQueue(q: z.output<typeof queueSchema>): QueueConfig {
  const out: QueueConfig = { backend: q.backend ?? 'embedded', concurrency: q.concurrency ?? 4 };
  if (q.url !== undefined) out.url = q.url;
  if (q.prefix !== undefined) out.prefix = q.prefix;
  if (q.schema !== undefined) out.schema = q.schema;
  if (q.visibility_timeout_s !== undefined) out.visibilityTimeoutS = q.visibility_timeout_s;
  if (q.events_ttl_s !== undefined) out.eventsTtlS = q.events_ttl_s;
  return out;
}

/** A normalised `queue:` in file form, its URL password masked with `mask`. */
export function queueToFile(q: QueueConfig, maskUrl: (url: string) => string): Record<string, unknown> {
  return {
    backend: q.backend,
    ...(q.url !== undefined ? { url: maskUrl(q.url) } : {}),
    concurrency: q.concurrency,
    ...(q.prefix ? { prefix: q.prefix } : {}),
    ...(q.schema ? { schema: q.schema } : {}),
    ...(q.visibilityTimeoutS !== undefined ? { visibility_timeout_s: q.visibilityTimeoutS } : {}),
    ...(q.eventsTtlS !== undefined ? { events_ttl_s: q.eventsTtlS } : {}),
  };
}
