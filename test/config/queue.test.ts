import { describe, expect, it } from 'vitest';

import { formatConfigIssue, printConfig, validateConfigText } from '../../src/config/index.js';
import { lines } from './temp-dir.js';

const AGENTS = ['agents:', '  a: { model: "openai:gpt-4.1-mini" }'];

function check(yaml: string[], env: Record<string, string> = {}) {
  return validateConfigText(lines(...yaml, ...AGENTS), { file: 'corvid.yaml', env, allowUnknownTools: true });
}

function problems(yaml: string[]): string[] {
  const r = check(yaml);
  expect(r.ok).toBe(false);
  return r.issues.map(formatConfigIssue);
}

describe('queue: config section', () => {
  it('is absent without one, and defaults to the embedded queue with 4 runs at once', () => {
    expect(check([]).config!.queue).toBeUndefined();
    expect(check(['queue: {}']).config!.queue).toEqual({ backend: 'embedded', concurrency: 4 });
  });

  it('takes a postgres or redis backend with its URL, and prints it with the password masked', () => {
    const r = check(
      ['queue:', '  backend: redis', '  url: "redis://:${REDIS_PASSWORD}@127.0.0.1:6379"', '  concurrency: 8', '  prefix: app1'],
      {
        REDIS_PASSWORD: 's3cret',
      },
    );
    expect(r.issues).toEqual([]);
    expect(r.config!.queue).toEqual({ backend: 'redis', url: 'redis://:s3cret@127.0.0.1:6379', concurrency: 8, prefix: 'app1' });
    const printed = printConfig(r.config!);
    expect(printed).toContain('backend: redis');
    expect(printed).not.toContain('s3cret');
    expect(check(['queue: { backend: postgres, url: "postgres://u@127.0.0.1/db" }']).ok).toBe(true);
    // Without a url of its own, the postgres queue uses the storage's, in the schema it names.
    const pg = check([
      'storage: { url: "postgres://u@127.0.0.1/db" }',
      'queue:',
      '  backend: postgres',
      '  schema: jobs',
      '  visibility_timeout_s: 10',
    ]);
    expect(pg.issues).toEqual([]);
    expect(pg.config!.queue).toEqual({ backend: 'postgres', concurrency: 4, schema: 'jobs', visibilityTimeoutS: 10 });
    expect(printConfig(pg.config!)).toContain('visibility_timeout_s: 10');
  });

  it("takes the redis queue's visibility timeout and event expiry, and prints them back", () => {
    const r = check(['queue:', '  backend: redis', '  url: redis://127.0.0.1:6379', '  visibility_timeout_s: 5', '  events_ttl_s: 3600']);
    expect(r.issues).toEqual([]);
    expect(r.config!.queue).toMatchObject({ backend: 'redis', visibilityTimeoutS: 5, eventsTtlS: 3600 });
    expect(printConfig(r.config!)).toMatch(/visibility_timeout_s: 5[\s\S]*events_ttl_s: 3600/);
  });

  it('names what is wrong and where', () => {
    expect(problems(['queue:', '  backend: kafka'])).toEqual([
      expect.stringMatching(/^corvid\.yaml:2:\d+ +queue\.backend: backend is one of embedded, postgres, redis/),
    ]);
    expect(problems(['queue:', '  backend: redis'])).toEqual([expect.stringMatching(/queue\.url: the redis queue needs a url/)]);
    expect(problems(['queue:', '  backend: postgres', '  url: "redis://127.0.0.1"'])).toEqual([
      expect.stringMatching(/queue\.url: the postgres queue takes a postgres:\/\/ URL/),
    ]);
    expect(problems(['queue:', '  concurrency: 0'])).toEqual([expect.stringMatching(/queue\.concurrency/)]);
    expect(problems(['queue:', '  prefix: x'])).toEqual([
      expect.stringMatching(/queue\.prefix: prefix is for the redis queue, not embedded/),
    ]);
    expect(problems(['queue:', '  visibility_timeout_s: 5', '  events_ttl_s: 60'])).toEqual([
      expect.stringMatching(/queue\.visibility_timeout_s: visibility_timeout_s is for the postgres and redis queues, not embedded/),
      expect.stringMatching(/queue\.events_ttl_s: events_ttl_s is for the redis queue, not embedded/),
    ]);
    expect(problems(['queue:', '  backend: redis', '  url: redis://h', '  visibility_timeout_s: 0'])).toEqual([
      expect.stringMatching(/queue\.visibility_timeout_s/),
    ]);
    expect(problems(['queue:', '  workers: 3'])).toEqual([expect.stringMatching(/queue.*workers/)]);
    expect(problems(['queue:', '  backend: postgres'])).toEqual([expect.stringMatching(/queue\.backend: the postgres queue needs a url/)]);
    expect(problems(['queue:', '  schema: q1'])).toEqual([expect.stringMatching(/queue\.schema: schema is for the postgres queue/)]);
    expect(problems(['queue:', '  backend: postgres', '  url: "postgres://u@h/db"', '  schema: "bad-name"'])).toEqual([
      expect.stringMatching(/queue\.schema: schema is a plain identifier/),
    ]);
  });
});
