import { describe, expect, it } from 'vitest';

import { configJsonSchema, formatConfigIssue, printConfig, validateConfigText } from '../../src/config/index.js';
import { lines } from './temp-dir.js';

const AGENTS = ['agents:', '  a: { model: "openai:gpt-4.1-mini" }'];

function check(yaml: string[], env: Record<string, string> = {}) {
  return validateConfigText(lines(...yaml, ...AGENTS), { file: 'corvid.yaml', env, allowUnknownTools: true });
}

function problems(yaml: string[], env: Record<string, string> = {}): string[] {
  const r = check(yaml, env);
  expect(r.ok).toBe(false);
  return r.issues.map(formatConfigIssue);
}

function storage(yaml: string[], env: Record<string, string> = {}) {
  const r = check(yaml, env);
  expect(r.issues.map(formatConfigIssue)).toEqual([]);
  return r.config!.storage;
}

describe('storage: config section', () => {
  it('is absent when the file has none (the runtime defaults to SQLite)', () => {
    expect(check([]).config!.storage).toBeUndefined();
  });

  it('fills defaults: event checkpoints every 5000 ms, manual resume', () => {
    expect(storage(['storage: {}'])).toEqual({ driver: 'sqlite', checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' });
  });

  it('normalises every key, infers the driver from the url and parses ttl durations', () => {
    expect(
      storage(
        [
          'storage:',
          '  url: "postgres://app:${DB_PASSWORD}@db.internal:5432/app"',
          '  schema: corvid',
          '  pool_size: 4',
          '  checkpoints: { strategy: hybrid, interval_ms: 2000, ttl: 7d }',
          '  resume: auto',
        ],
        { DB_PASSWORD: 's3cret' },
      ),
    ).toEqual({
      driver: 'postgres',
      url: 'postgres://app:s3cret@db.internal:5432/app',
      schema: 'corvid',
      poolSize: 4,
      checkpoints: { strategy: 'hybrid', intervalMs: 2000, ttlMs: 7 * 86_400_000 },
      resume: 'auto',
    });
    expect(storage(['storage: { url: "mariadb://root@127.0.0.1/x" }'])!.driver).toBe('mysql');
    expect(storage(['storage: { driver: memory }'])!.driver).toBe('memory');
    expect(storage(['storage: { path: data/app.db, checkpoints: { ttl: 12h } }'])).toMatchObject({
      driver: 'sqlite',
      path: 'data/app.db',
      checkpoints: { ttlMs: 43_200_000 },
    });
    expect(storage(['storage: { checkpoints: { ttl: 90 } }'])!.checkpoints.ttlMs).toBe(90_000);
    expect(storage(['storage: { busy_timeout_ms: 200 }'])!.busyTimeoutMs).toBe(200);
    expect(problems(['storage: { url: "mysql://u@h/db", embedder: small }'])).toContain(
      'corvid.yaml:1:45  storage.embedder: vector memory search needs sqlite, postgres or memory storage, not mysql',
    );
    expect(problems(['storage: { url: "postgres://u@h/db", busy_timeout_ms: 200 }'])).toEqual([
      'corvid.yaml:1:55  storage.busy_timeout_ms: busy_timeout_ms is for the sqlite driver, not postgres',
    ]);
    expect(storage(['storage: { checkpoints: { ttl: 30m } }'])!.checkpoints.ttlMs).toBe(1_800_000);
  });

  it('reports bad values at their line and column', () => {
    expect(
      problems([
        'storage:',
        '  driver: oracle',
        '  pool_size: 0',
        '  checkpoints:',
        '    strategy: sometimes',
        '    ttl: 7 days',
        '  resume: always',
        '  poolsize: 3',
      ]),
    ).toEqual([
      'corvid.yaml:2:11  storage.driver: driver is one of sqlite, postgres, mysql, memory',
      'corvid.yaml:3:14  storage.pool_size: too small: expected number to be >0',
      'corvid.yaml:5:15  storage.checkpoints.strategy: invalid option: expected one of "event"|"interval"|"hybrid"',
      'corvid.yaml:6:10  storage.checkpoints.ttl: a duration is a positive number of seconds or text like 7d, 12h, 30m, 45s, 500ms',
      'corvid.yaml:7:11  storage.resume: invalid option: expected one of "manual"|"auto"',
      'corvid.yaml:8:3  storage.poolsize: unknown key "poolsize" (did you mean "pool_size"?)',
    ]);
  });

  it('reports combinations that cannot work', () => {
    expect(problems(['storage:', '  driver: postgres'])).toEqual([
      'corvid.yaml:2:11  storage.driver: driver postgres needs a url, e.g. postgres://user:${DB_PASSWORD}@localhost:5432/app',
    ]);
    expect(problems(['storage:', '  driver: sqlite', '  url: "mysql://root@localhost/app"'])).toEqual([
      'corvid.yaml:3:8  storage.url: a mysql URL does not fit driver: sqlite',
    ]);
    expect(problems(['storage:', '  url: "redis://localhost"'])).toEqual([
      'corvid.yaml:2:8  storage.url: the URL scheme must be postgres://, postgresql://, mysql://, mariadb://, sqlite: or file:',
    ]);
    expect(problems(['storage:', '  url: "postgres://u@h/db"', '  path: x.db', '  pool_size: 2'])).toEqual([
      'corvid.yaml:3:9  storage.path: path is for the sqlite driver, not postgres (use url)',
    ]);
    expect(problems(['storage:', '  path: x.db', '  schema: s', '  pool_size: 2'])).toEqual([
      'corvid.yaml:3:11  storage.schema: schema is for the postgres driver, not sqlite',
      'corvid.yaml:4:14  storage.pool_size: pool_size is for the postgres and mysql drivers, not sqlite',
    ]);
  });

  it('never prints the password: --print-config masks it', () => {
    const r = check(['storage: { url: "postgres://app:${DB_PASSWORD}@db:5432/app" }'], { DB_PASSWORD: 'hunter2' });
    const yaml = printConfig(r.config!);
    expect(yaml).not.toContain('hunter2');
    expect(yaml).toContain('url: postgres://app:***@db:5432/app');
    expect(yaml).toContain('resume: manual');
    const withTtl = check(['storage: { checkpoints: { ttl: 36h } }']);
    expect(printConfig(withTtl.config!)).toContain('ttl: 36h');
    // What --print-config prints loads back to the same config.
    const again = validateConfigText(printConfig(withTtl.config!), { file: 'printed.yaml', allowUnknownTools: true });
    expect(again.config!.storage).toEqual(withTtl.config!.storage);
    const json = JSON.parse(printConfig(r.config!, 'json'));
    expect(json.storage).toEqual({
      driver: 'postgres',
      url: 'postgres://app:***@db:5432/app',
      checkpoints: { strategy: 'event', interval_ms: 5000 },
      resume: 'manual',
    });
  });

  it('keeps an interpolated password out of error messages', () => {
    const p = problems(['storage: { url: "postgres://app:${DB_PASSWORD}@db:5432/app", path: x.db }'], { DB_PASSWORD: 'hunter2' });
    expect(p.join('\n')).not.toContain('hunter2');
    expect(p).toHaveLength(1);
  });

  it('is described in the JSON schema (corvid schema)', () => {
    const schema = configJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(Object.keys(schema.properties.storage!.properties!)).toEqual([
      'driver',
      'url',
      'path',
      'schema',
      'pool_size',
      'busy_timeout_ms',
      'embedder',
      'checkpoints',
      'resume',
    ]);
  });
});

describe('built-in memory tools in agents.*.tools', () => {
  it('are accepted by validation without being registered, with no warnings', () => {
    const r = validateConfigText(
      lines(
        'agents:',
        '  a:',
        '    model: "openai:gpt-4.1-mini"',
        '    tools: [save_memory, get_memories, search_memories, search_conversations]',
      ),
      {
        file: 'corvid.yaml',
        knownTools: [],
      },
    );
    expect(r.issues).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.config!.agents.a!.tools).toEqual(['save_memory', 'get_memories', 'search_memories', 'search_conversations']);
  });

  it('a misspelt one is still an error at its line', () => {
    const r = validateConfigText(lines('agents:', '  a:', '    model: "openai:gpt-4.1-mini"', '    tools: [save_memories]'), {
      file: 'corvid.yaml',
      knownTools: [],
    });
    expect(r.issues.map(formatConfigIssue)).toEqual([
      'corvid.yaml:4:13  agents.a.tools[0]: unknown tool "save_memories" in agent "a"; registered tools: (none)',
    ]);
  });
});
