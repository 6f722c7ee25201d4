import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningServer } from '../../src/server/app/serve.js';
import { scriptedAgent, startServer } from './helpers.js';

/** Small seeded PRNG (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick };
}

const SEED = Number(process.env.CORVID_FUZZ_SEED ?? 20261126);
const COUNT = Number(process.env.CORVID_FUZZ_COUNT ?? 3000);

describe('fuzzing the server routes', () => {
  let server: RunningServer;
  let url: string;
  let sessionId: string;

  beforeAll(async () => {
    ({ server, url } = await startServer(
      [scriptedAgent('helper', { text: 'ok', usage: { inputTokens: 1, outputTokens: 1 } }), scriptedAgent('other')],
      { server: { maxBodyBytes: 64 * 1024 } },
    ));
    const res = await fetch(`${url}/api/v1/agents/helper/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'seed' }),
    });
    sessionId = (await res.json()).sessionId;
  });
  afterAll(() => server.close());

  it(`answers ${COUNT} random and mutated requests with proper statuses, never a 5xx, and stays up`, async () => {
    const r = rng(SEED);
    const weird = [
      '',
      ' ',
      '%',
      '%00',
      '%E0%A4%A',
      '..',
      '../../etc/passwd',
      'ü',
      '🦜',
      'a'.repeat(3000),
      '<script>',
      '\'"',
      '{}',
      'null',
      '__proto__',
      'constructor',
    ];
    const agents = ['helper', 'other', 'nobody', ...weird];
    const sessions = [sessionId, 'missing', ...weird];
    const paths = () =>
      r.pick([
        () => `/api/v1/agents/${encodeURIComponent(r.pick(agents))}/chat`,
        () => `/api/v1/agents/${r.pick(agents)}/chat`,
        () => `/api/v1/agents/${encodeURIComponent(r.pick(agents))}`,
        () => `/api/v1/agents`,
        () => `/api/v1/agents/${encodeURIComponent(r.pick(agents))}/ws`,
        () =>
          `/api/v1/sessions?${r.pick(['', 'limit=', 'limit=-1', 'limit=5', 'limit=1e9', 'cursor=abc', 'cursor=1', 'agent=helper', 'userId=', 'x=y', 'limit=2&limit=3'])}`,
        () => `/api/v1/sessions/${encodeURIComponent(r.pick(sessions))}`,
        () => `/api/v1/sessions/${r.pick(sessions)}`,
        () =>
          r.pick([
            '/health',
            '/ready',
            '/metrics',
            '/api/v1/openapi.json',
            '/',
            '/api',
            '/api/v1',
            '/.well-known/agent-card.json',
            '/agents',
            '/agents/nobody/.well-known/agent-card.json',
          ]),
        () => `/${r.pick(weird)}/${r.pick(weird)}`,
      ])();
    const messages = () => r.pick<unknown>(['hi', '', 42, null, true, [], {}, 'x'.repeat(r.int(5000)), '\u0000', '🦜'.repeat(10)]);
    const validBody = (): Record<string, unknown> => {
      const b: Record<string, unknown> = { message: 'hello' };
      if (r.next() < 0.3) b.sessionId = r.pick(sessions);
      if (r.next() < 0.3) b.stream = r.pick<unknown>([true, false, 'true', 1, null]);
      if (r.next() < 0.2) b.userId = r.pick<unknown>(['u1', '', 5, null]);
      return b;
    };
    const mutate = (b: Record<string, unknown>): unknown => {
      switch (r.int(8)) {
        case 0:
          return { ...b, message: messages() };
        case 1:
          return { ...b, [r.pick(['extra', '__proto__', 'constructor', 'Message'])]: 1 };
        case 2: {
          const c = { ...b };
          delete c.message;
          return c;
        }
        case 3:
          return [b];
        case 4:
          return r.pick<unknown>([null, 1, 'str', true]);
        case 5:
          return { message: { nested: b } };
        default:
          return b;
      }
    };
    const body = (): string | Uint8Array | undefined => {
      switch (r.int(9)) {
        case 0:
          return undefined;
        case 1:
          return JSON.stringify(validBody()).slice(0, r.int(40));
        case 2:
          return new Uint8Array(Array.from({ length: r.int(200) }, () => r.int(256)));
        case 3:
          return 'x'.repeat(64 * 1024 + r.int(10_000));
        case 4:
          return '{"message":"' + 'a'.repeat(70_000) + '"}';
        case 5:
          return '{"message":"hi"'.repeat(r.int(4) + 1);
        default:
          return JSON.stringify(mutate(validBody()));
      }
    };
    const methods = ['GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'];
    const headerSets = (): Record<string, string> => {
      const h: Record<string, string> = {};
      if (r.next() < 0.6)
        h['content-type'] = r.pick([
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          '',
        ]);
      if (r.next() < 0.3) h.accept = r.pick(['text/event-stream', '*/*', 'application/json', 'garbage']);
      if (r.next() < 0.2) h.authorization = r.pick(['Bearer', 'Bearer x', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c', '']);
      if (r.next() < 0.1) h['x-api-key'] = r.pick(['', 'k', 'x'.repeat(9000)]);
      if (r.next() < 0.2) h['x-request-id'] = r.pick(['ok-id', 'bad id', 'x'.repeat(500), '../']);
      if (r.next() < 0.1) h['x-forwarded-for'] = r.pick(['1.2.3.4', 'garbage', '']);
      return h;
    };

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let i = 0;
    const worker = async () => {
      while (i < COUNT) {
        const n = i++;
        const method = r.pick(methods);
        const path = paths();
        const b = method === 'GET' || method === 'HEAD' ? undefined : body();
        const headers = headerSets();
        let status: number;
        try {
          const res = await fetch(`${url}${path}`, { method, headers, body: b as BodyInit | undefined });
          status = res.status;
          const text = await res.text();
          if (status >= 400 && method !== 'HEAD' && status !== 404 && !res.headers.get('content-type')?.includes('json'))
            failures.push(`#${n} ${method} ${path.slice(0, 80)} → ${status} non-JSON error: ${text.slice(0, 80)}`);
        } catch (err) {
          failures.push(
            `#${n} ${method} ${path.slice(0, 80)} → request failed: ${(err as Error).message} ${String((err as { cause?: unknown }).cause)} ${JSON.stringify(headers).slice(0, 100)}`,
          );
          continue;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500) failures.push(`#${n} ${method} ${path.slice(0, 80)} ${JSON.stringify(headers).slice(0, 120)} → ${status}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(failures, `seed ${SEED}`).toEqual([]);
    // A healthy mix of outcomes, not one status for everything.
    for (const s of [200, 400, 404, 413])
      expect(statuses.get(s) ?? 0, `status ${s} in ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const ok = await fetch(`${url}/api/v1/agents/helper/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'still alive?' }),
    });
    expect(ok.status).toBe(200);
  }, 120_000);
});
