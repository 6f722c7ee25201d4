/**
 * Rate limits counted in the storage: two servers on one database share each client's windows
 * (requests and model tokens), `shared: false` keeps them per process, and a storage failure lets
 * requests through with a warning rather than refusing them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import type { RunningServer, ServeOptions } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { openStore } from '../../src/storage/open-store.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, scriptedAgent, startServer } from './helpers.js';

type RateLimit = NonNullable<NonNullable<ServeOptions['server']>['rateLimit']>;

describe('rate limits shared through the storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-rate-'));
  let n = 0;
  const open: Array<{ server: RunningServer; store: Store }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.server.close();
      await o.store.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Two servers on one SQLite database, each with its own connection, as two instances would be. */
  async function twoServers(rateLimit: RateLimit, agent = () => scriptedAgent('helper')) {
    const path = join(dir, `rate-${++n}.db`);
    const urls: string[] = [];
    const logs = [];
    for (let i = 0; i < 2; i++) {
      const store = await openStore({ driver: 'sqlite', path });
      const runtime = {
        ...runtimeOf([agent()], {
          config: { storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' } },
        }),
        store: async () => store,
      };
      const started = await startServer([], { runtime, server: { rateLimit } });
      open.push({ server: started.server, store });
      urls.push(started.url);
      logs.push(started.logs);
    }
    return { urls, logs, stores: open.slice(-2).map((o) => o.store) };
  }

  it("counts a client's requests across both servers: the limit holds for the pair, not per server", async () => {
    const {
      urls: [a, b],
    } = await twoServers({ requestsPerMinute: 3, by: 'ip' });
    const statuses = [];
    for (const url of [a, b, a, b, a]) statuses.push((await chat(url, 'helper', { message: 'x' })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await chat(b, 'helper', { message: 'x' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await limited.json()).error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('3 requests per minute') });
  });

  it('counts model tokens across both servers', async () => {
    const agent = () => scriptedAgent('helper', { text: 'ok', usage: { inputTokens: 60, outputTokens: 40 } });
    const {
      urls: [a, b],
    } = await twoServers({ tokensPerHour: 150, by: 'ip' }, agent);
    expect((await chat(a, 'helper', { message: 'x' })).status).toBe(200);
    expect((await chat(b, 'helper', { message: 'x' })).status).toBe(200);
    // 200 tokens used, 100 through each server: both now refuse.
    for (const url of [a, b]) {
      const res = await chat(url, 'helper', { message: 'x' });
      expect(res.status).toBe(429);
      expect((await res.json()).error.message).toContain('150 model tokens per hour');
    }
  });

  it('with shared: false each server counts on its own', async () => {
    const {
      urls: [a, b],
    } = await twoServers({ requestsPerMinute: 2, by: 'ip', shared: false });
    const statuses = [];
    for (const url of [a, a, b, b, a]) statuses.push((await chat(url, 'helper', { message: 'x' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('lets requests through, with one warning, when the storage fails', async () => {
    const {
      urls: [a],
      logs: [log],
      stores: [store],
    } = await twoServers({ requestsPerMinute: 1, by: 'ip' });
    expect((await fetch(`${a}/health`)).status).toBe(200);
    await store.close();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${a}/health`)).status, (await fetch(`${a}/agents`)).status);
    // /health is never counted; /agents (the A2A listing) is, and is let through.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    const warnings = log.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('rate limits not counted'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
  });
});
