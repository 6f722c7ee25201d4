import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

// Thousands of random and mutated requests against the JSON-RPC (v1.0 and v0.3) and REST
// endpoints: every answer must be a protocol error or result with the right HTTP status — never
// a 500, never a hang — and the server must keep serving. Seeded, so failures reproduce.

const SEED = Number(process.env.CORVID_FUZZ_SEED ?? 20261126);
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const int = (n: number) => Math.floor(rand() * n);

const V03_METHODS = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
];
const V1_METHODS = [
  'SendMessage',
  'SendStreamingMessage',
  'GetTask',
  'ListTasks',
  'CancelTask',
  'SubscribeToTask',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
];
const ODD_STRINGS = [
  '',
  ' ',
  'x'.repeat(5000),
  '../../etc/passwd',
  '%00',
  '\u0000',
  '💥',
  '<script>',
  'null',
  '-1',
  '1e309',
  'task-1',
  'a/b',
  '?q=1',
];

function randomValue(depth = 0): unknown {
  switch (int(depth > 2 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), NaN]);
    case 3:
      return pick(ODD_STRINGS);
    case 4:
      return Math.random().toString(36).slice(2);
    case 5:
      return undefined;
    case 6:
      return Array.from({ length: int(4) }, () => randomValue(depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < int(5); i++)
        o[
          pick([
            'message',
            'id',
            'taskId',
            'parts',
            'kind',
            'role',
            'text',
            'configuration',
            'historyLength',
            'metadata',
            'url',
            'pushNotificationConfig',
            'contextId',
            '',
            '__proto__',
          ])
        ] = randomValue(depth + 1);
      return o;
    }
  }
}

function validParams(method: string, legacy: boolean): Record<string, unknown> {
  if (method.includes('essage')) {
    return legacy
      ? { message: { kind: 'message', messageId: `m${int(1e9)}`, role: 'user', parts: [{ kind: 'text', text: 'fuzz' }] } }
      : { message: { messageId: `m${int(1e9)}`, role: 'ROLE_USER', parts: [{ text: 'fuzz' }] } };
  }
  return { id: pick(['missing', ...ODD_STRINGS]), taskId: pick(['missing', 'x']), pushNotificationConfig: { url: 'http://127.0.0.1:1/x' } };
}

/** Deletes, retypes or adds one field somewhere in `value`. */
function mutate(value: unknown): unknown {
  if (!value || typeof value !== 'object') return rand() < 0.5 ? randomValue() : value;
  const o: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(o);
  const r = rand();
  if (keys.length && r < 0.3) delete o[pick(keys)];
  else if (keys.length && r < 0.7) {
    const k = pick(keys);
    o[k] = rand() < 0.5 ? mutate(o[k]) : randomValue();
  } else o[pick(['extra', 'jsonrpc', 'id', 'method', 'params'])] = randomValue();
  return o;
}

interface Probe {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  kind: 'rpc' | 'rest' | 'other';
}

function jsonRpcProbe(): Probe {
  const legacy = rand() < 0.5;
  const headers: Record<string, string> = {
    'content-type': pick(['application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/a2a+json']),
  };
  if (!legacy) headers['A2A-Version'] = pick(['1.0', '1.0', '2.0', 'abc']);
  else if (rand() < 0.3) headers['A2A-Version'] = '0.3';
  const method =
    rand() < 0.85
      ? pick(legacy ? V03_METHODS : V1_METHODS)
      : pick(['', 'tasks/unknown', 'rpc.discover', 'Foo', 'message/send ', 'MESSAGE/SEND']);
  const id = pick<unknown>([1, 'abc', null, 1.5, {}, [], true, undefined]);
  let request: unknown = { jsonrpc: '2.0', id, method, params: rand() < 0.5 ? validParams(method, legacy) : randomValue() };
  for (let i = 0; i < int(3); i++) request = mutate(request);
  let body = JSON.stringify(request) ?? 'undefined';
  const r = rand();
  if (r < 0.08)
    body = body.slice(0, int(body.length)); // truncated JSON
  else if (r < 0.12)
    body = Array.from({ length: int(200) }, () => String.fromCharCode(int(256))).join(''); // noise
  else if (r < 0.14)
    body = JSON.stringify([request, request]); // batch
  else if (r < 0.16) body = pick(['', 'null', '42', '"x"', '[]', '{}']);
  const agent = rand() < 0.92 ? 'echo' : pick(['nobody', 'hidden', '%2e%2e', 'x'.repeat(300)]);
  return { path: `/a2a/${agent}`, method: 'POST', headers, body, kind: 'rpc' };
}

function restProbe(): Probe {
  const task = pick(['missing', 'x'.repeat(400), '%20', 'a%2Fb', '%E0%A4%A', '..', 'task:cancel']);
  const path = pick([
    '/message:send',
    '/message:stream',
    `/tasks/${task}`,
    `/tasks/${task}:cancel`,
    `/tasks/${task}:subscribe`,
    `/tasks/${task}/pushNotificationConfigs`,
    `/tasks/${task}/pushNotificationConfigs/${task}`,
    '/tasks',
    `/tasks?pageSize=${pick(['0', '1000', 'abc', '-1', '5'])}&historyLength=${pick(['-1', 'x', '2', ''])}&status=${pick(['TASK_STATE_WORKING', '99', 'nope'])}&pageToken=${pick(['', 'zz', 'eyJ4Ijox'])}`,
    '/extendedAgentCard',
    '/unknown/thing',
    '',
  ]);
  const method = pick(['GET', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH']);
  const headers: Record<string, string> = {
    'A2A-Version': pick(['1.0', '1.0', '0.3', '']),
    'content-type': pick(['application/json', 'application/a2a+json', 'text/xml']),
  };
  let body: string | undefined;
  if (method !== 'GET' && method !== 'DELETE') {
    let value: unknown =
      rand() < 0.5
        ? { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'fuzz' }] }, url: 'http://127.0.0.1:1/x' }
        : randomValue();
    for (let i = 0; i < int(3); i++) value = mutate(value);
    body = rand() < 0.1 ? '{"message": ' : (JSON.stringify(value) ?? '');
  }
  const agent = rand() < 0.9 ? 'echo' : pick(['nobody', 'hidden']);
  // A quarter go to the v0.3 binding (`/v1/...`, no A2A-Version).
  if (rand() < 0.25) {
    delete headers['A2A-Version'];
    return { path: `/a2a/${agent}/rest/v1${path}`, method, headers, body, kind: 'rest' };
  }
  return { path: `/a2a/${agent}/rest${path}`, method, headers, body, kind: 'rest' };
}

function otherProbe(): Probe {
  return {
    path: pick([
      '/agents',
      '/.well-known/agent-card.json',
      '/agents/echo/.well-known/agent-card.json',
      '/agents/nobody/.well-known/agent-card.json',
      '/a2a',
      '/a2a/echo/other',
      '/agents/%ZZ/.well-known/agent-card.json',
    ]),
    method: pick(['GET', 'POST', 'HEAD']),
    headers: { 'A2A-Version': pick(['1.0', '0.3', 'x']) },
    kind: 'other',
  };
}

const JSONRPC_CODES = new Set([-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004, -32005, -32006, -32007, -32008, -32009]);

let server: TestServer;
beforeAll(async () => {
  const fast = new Agent({ name: 'echo', model: new ScriptedModel(() => ({ text: 'ok' })), instructions: '-' });
  const hidden = new Agent({ name: 'hidden', model: new ScriptedModel(() => ({ text: 'ok' })), instructions: '-' });
  const runtime = fakeRuntime([fast, hidden]);
  server = await startServer({
    runtime: () => runtime,
    visibility: (n) => (n === 'hidden' ? 'private' : 'public'),
    maxBodyBytes: 256 * 1024,
    logger: { warn: () => undefined },
  });
});
afterAll(() => server.close());

async function send(p: Probe): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`${server.url}${p.path}`, {
    method: p.method,
    headers: p.headers,
    body: p.body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

describe('fuzzing the A2A endpoints', () => {
  it(`answers ${3000} random and mutated requests with protocol errors, never a 500 (seed ${SEED})`, async () => {
    const probes: Probe[] = Array.from({ length: 3000 }, () => {
      const r = rand();
      return r < 0.6 ? jsonRpcProbe() : r < 0.93 ? restProbe() : otherProbe();
    });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const codes = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < probes.length) {
        const p = probes[next++];
        const describe = `${p.method} ${p.path.slice(0, 80)} ${JSON.stringify(p.headers)} ${String(p.body).slice(0, 200)}`;
        try {
          const r = await send(p);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status >= 500) failures.push(`${r.status} for ${describe}: ${r.text.slice(0, 300)}`);
          if (p.kind === 'rpc' && r.status !== 404 && !r.type.includes('text/event-stream')) {
            const body = JSON.parse(r.text) as { jsonrpc?: string; error?: { code: number }; result?: unknown };
            if (body.jsonrpc !== '2.0' || (body.error === undefined) === (body.result === undefined))
              failures.push(`not a JSON-RPC response for ${describe}: ${r.text.slice(0, 200)}`);
            if (body.error) {
              codes.set(body.error.code, (codes.get(body.error.code) ?? 0) + 1);
              if (!JSONRPC_CODES.has(body.error.code)) failures.push(`code ${body.error.code} for ${describe}: ${r.text.slice(0, 200)}`);
            }
          }
          if (p.kind === 'rest' && r.status >= 400 && r.text) {
            // v1.0 errors are { error: { message } }, v0.3 ones { code, message }.
            const body = JSON.parse(r.text) as { error?: { message?: string }; message?: string };
            if (!body.error?.message && !body.message)
              failures.push(`REST error without a message for ${describe}: ${r.text.slice(0, 200)}`);
          }
        } catch (err) {
          failures.push(`${(err as Error).message} for ${describe}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures.slice(0, 10)).toEqual([]);
    // The mix really exercised errors of every kind, and successes.
    for (const code of [-32700, -32600, -32601, -32602, -32001]) expect(codes.get(code) ?? 0, `JSON-RPC code ${code}`).toBeGreaterThan(0);
    for (const status of [200, 400, 404, 405]) expect(statuses.get(status) ?? 0, `HTTP ${status}`).toBeGreaterThan(0);
  }, 120_000);

  it('rejects huge bodies with 413 without reading them whole, and keeps serving', async () => {
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const rpc = await send({
      path: '/a2a/echo',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"x":"${huge}"}}`,
      kind: 'rpc',
    });
    expect(rpc.status).toBe(413);
    expect(JSON.parse(rpc.text).error.code).toBe(-32600);
    const rest = await send({
      path: '/a2a/echo/rest/message:send',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: huge,
      kind: 'rest',
    });
    expect(rest.status).toBe(413);
    // Still alive and answering.
    const ok = await send({
      path: '/a2a/echo',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'alive', role: 'user', parts: [{ kind: 'text', text: 'still there?' }] } },
      }),
      kind: 'rpc',
    });
    expect(JSON.parse(ok.text).result.status.state).toBe('completed');
  });
});
