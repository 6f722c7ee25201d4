import { z } from 'zod';

import type { StorageConfig } from './corvid-config.js';

const DRIVERS = ['sqlite', 'postgres', 'mysql', 'memory'] as const;
type Driver = (typeof DRIVERS)[number];

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/;

/** Milliseconds of a duration: a number of seconds, or text like `7d`, `12h`, `30m`, `45s`, `500ms`; `undefined` when invalid. */
export function parseDuration(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
  const m = DURATION.exec(value);
  if (!m) return undefined;
  const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 's']!);
  return ms > 0 ? ms : undefined;
}

/** A duration in the largest unit that divides it: `7d`, `12h`, `90s`, `1500ms`. */
export function formatDuration(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm', 's'] as const) if (ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  return `${ms}ms`;
}

/** The driver a URL's scheme names, `undefined` for an unknown scheme. */
export function driverOfUrl(url: string): Driver | undefined {
  const scheme = url.slice(0, Math.max(0, url.indexOf(':'))).toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  if (scheme === 'mysql' || scheme === 'mariadb') return 'mysql';
  if (scheme === 'sqlite' || scheme === 'file') return 'sqlite';
  if (scheme === 'memory') return 'memory';
  return undefined;
}

const duration = () =>
  z.union([z.number(), z.string()]).refine((v) => parseDuration(v) !== undefined, {
    error: 'a duration is a positive number of seconds or text like 7d, 12h, 30m, 45s, 500ms',
  });

/** `storage.checkpoints:` */
export const checkpointsSchema = z
  .strictObject({
    strategy: z
      .enum(['event', 'interval', 'hybrid'])
      .optional()
      .describe(
        'When a run is checkpointed: `event` (before each model call and after each model response with tools), `interval` (those at most every interval_ms) or `hybrid` (responses always, the rest by interval). Tool results are always checkpointed before they count as done. Default event.',
      ),
    interval_ms: z.int().positive().optional().describe('Checkpoint interval for `interval` / `hybrid`, in ms. Default 5000.'),
    ttl: duration()
      .optional()
      .describe('Remove checkpoints older than this: seconds, or a duration such as `7d`, `12h`, `30m`. Default: kept until the run ends.'),
  })
  .describe('Checkpoints of running agents, so an interrupted run can be resumed.');

/** `storage:` — where sessions, memories, checkpoints and approvals are kept. */
export const storageSchema = z
  .strictObject({
    driver: z
      .enum(DRIVERS, { error: 'driver is one of sqlite, postgres, mysql, memory' })
      .optional()
      .describe(
        'Backend: `sqlite` (default, an embedded file), `postgres`, `mysql` (also MariaDB) or `memory` (nothing kept after exit). Default: from the url scheme, else sqlite.',
      ),
    url: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Connection URL: `postgres://user:${PGPASSWORD}@host:5432/db`, `mysql://user:${PASSWORD}@host:3306/db`, or `sqlite:<path>`. Passwords are never printed; use `${ENV_VAR}`.',
      ),
    path: z
      .string()
      .min(1)
      .optional()
      .describe(
        'SQLite: the database file, relative to this config file; created with its directory on first use. Default ./.corvid/corvid.db in the working directory.',
      ),
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { error: 'a Postgres schema is a plain identifier (letters, digits, _)' })
      .optional()
      .describe("Postgres: the schema to use (created when missing). Default: the connection's search_path."),
    pool_size: z.int().positive().max(1000).optional().describe('Postgres / MySQL: connections in the pool. Default 10.'),
    busy_timeout_ms: z
      .int()
      .min(0)
      .max(600_000)
      .optional()
      .describe('SQLite: how long to wait for a lock held by another process before failing, in ms. Default 5000.'),
    embedder: z
      .string()
      .min(1)
      .optional()
      .describe(
        'An embedder from `embedders`: memory and conversation search (search_memories, search_conversations, `corvid memories search`, `corvid sessions search`) become hybrid, keyword plus vector (RRF), so a paraphrase finds the memory or message; appended messages are embedded. MySQL storage is not supported.',
      ),
    checkpoints: checkpointsSchema.optional(),
    resume: z
      .enum(['manual', 'auto'])
      .optional()
      .describe(
        'Interrupted runs: `manual` (resume with `corvid runs resume <id>`) or `auto` (resumed when the runtime starts). Default manual.',
      ),
  })
  .superRefine((s, ctx) => {
    const fromUrl = s.url === undefined ? undefined : driverOfUrl(s.url);
    if (s.url !== undefined && fromUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'the URL scheme must be postgres://, postgresql://, mysql://, mariadb://, sqlite: or file:',
      });
    }
    const driver: Driver = s.driver ?? fromUrl ?? 'sqlite';
    if (s.driver && fromUrl && fromUrl !== s.driver) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: `a ${fromUrl} URL does not fit driver: ${s.driver}` });
    }
    if ((driver === 'postgres' || driver === 'mysql') && s.url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['driver'],
        message: `driver ${driver} needs a url, e.g. ${driver}://user:\${DB_PASSWORD}@localhost:${driver === 'mysql' ? 3306 : 5432}/app`,
      });
    }
    if (s.path !== undefined && driver !== 'sqlite')
      ctx.addIssue({ code: 'custom', path: ['path'], message: `path is for the sqlite driver, not ${driver} (use url)` });
    if (s.path !== undefined && fromUrl === 'sqlite')
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'give either path or a sqlite: url, not both' });
    if (s.schema !== undefined && driver !== 'postgres')
      ctx.addIssue({ code: 'custom', path: ['schema'], message: `schema is for the postgres driver, not ${driver}` });
    if (s.pool_size !== undefined && driver !== 'postgres' && driver !== 'mysql') {
      ctx.addIssue({ code: 'custom', path: ['pool_size'], message: `pool_size is for the postgres and mysql drivers, not ${driver}` });
    }
    if (s.embedder !== undefined && driver === 'mysql') {
      ctx.addIssue({
        code: 'custom',
        path: ['embedder'],
        message: 'vector memory search needs sqlite, postgres or memory storage, not mysql',
      });
    }
    if (s.busy_timeout_ms !== undefined && driver !== 'sqlite') {
      ctx.addIssue({ code: 'custom', path: ['busy_timeout_ms'], message: `busy_timeout_ms is for the sqlite driver, not ${driver}` });
    }
  })
  .describe(
    'Where sessions, memories, run checkpoints and approvals are stored. Default: SQLite at ./.corvid/corvid.db, created on first use.',
  );

/** Converts a schema-valid `storage:` section into the normalised `StorageConfig`. */
export function normalizeStorage(s: z.output<typeof storageSchema>): StorageConfig {
  const driver: Driver = s.driver ?? (s.url !== undefined ? driverOfUrl(s.url) : undefined) ?? 'sqlite';
  const ttlMs = s.checkpoints?.ttl === undefined ? undefined : parseDuration(s.checkpoints.ttl);
  const out: StorageConfig = {
    driver,
    checkpoints: {
      strategy: s.checkpoints?.strategy ?? 'event',
      intervalMs: s.checkpoints?.interval_ms ?? 5000,
      ...(ttlMs !== undefined ? { ttlMs } : {}),
    },
    resume: s.resume ?? 'manual',
  };
  if (s.url !== undefined) out.url = s.url;
  if (s.path !== undefined) out.path = s.path;
  if (s.schema !== undefined) out.schema = s.schema;
  if (s.pool_size !== undefined) out.poolSize = s.pool_size;
  if (s.busy_timeout_ms !== undefined) out.busyTimeoutMs = s.busy_timeout_ms;
  if (s.embedder !== undefined) out.embedder = s.embedder;
  return out;
}

/** A normalised `storage:` in file form (snake_case, `ttl` in seconds), its URL password masked with `mask`. */
export function storageToFile(s: StorageConfig, maskUrl: (url: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = { driver: s.driver };
  if (s.url !== undefined) out.url = maskUrl(s.url);
  if (s.path !== undefined) out.path = s.path;
  if (s.schema !== undefined) out.schema = s.schema;
  if (s.poolSize !== undefined) out.pool_size = s.poolSize;
  if (s.busyTimeoutMs !== undefined) out.busy_timeout_ms = s.busyTimeoutMs;
  if (s.embedder !== undefined) out.embedder = s.embedder;
  out.checkpoints = {
    strategy: s.checkpoints.strategy,
    interval_ms: s.checkpoints.intervalMs,
    ...(s.checkpoints.ttlMs !== undefined ? { ttl: formatDuration(s.checkpoints.ttlMs) } : {}),
  };
  out.resume = s.resume;
  return out;
}
