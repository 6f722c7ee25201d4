import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { echoModel, fakeRuntime, startServer, type TestServer } from './harness.js';

// What the A2A routes check before anything runs, served on their own (without `corvid serve`):
// bodies must be JSON (415 otherwise, in each binding's error format), unknown JSON-RPC methods
// are -32601 whatever their params, and an agent the request may not reach answers like an
// unknown one.

const model = echoModel();
const echo = new Agent({ name: 'echo', instructions: 'Echo.', model });
const inside = new Agent({ name: 'inside', instructions: 'Echo.', model: echoModel() });
let server: TestServer;

beforeAll(async () => {
  const runtime = fakeRuntime([echo, inside]);
  server = await startServer({
    runtime: () => runtime,
    visibility: (n) => (n === 'inside' ? 'internal' : 'public'),
    // The embedder's rule: `inside` only for requests with the right token.
    reachable: (n, c) => n !== 'inside' || c.req.header('authorization') === 'Bearer ok',
  });
});
afterAll(() => server.close());

const v03Send = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: { message: { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
});
const v1Send = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
});
const restSend = JSON.stringify({ message: { messageId: 'm-3', role: 'ROLE_USER', parts: [{ text: 'hi' }] } });

/** A body sent as `type`; `undefined`: bytes without any Content-Type. */
function body(text: string, type: string | undefined): { headers: Record<string, string>; body: BodyInit } {
  return type === undefined ? { headers: {}, body: new TextEncoder().encode(text) } : { headers: { 'content-type': type }, body: text };
}

const NOT_JSON = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', undefined];

describe('A2A request bodies must be JSON', () => {
  it('answers 415 on JSON-RPC (v0.3 and v1.0), REST v1.0 and REST v0.3 for forms, text/plain and a missing type, and runs nothing', async () => {
    const before = model.calls.length;
    for (const type of NOT_JSON) {
      const v03 = await fetch(`${server.url}/a2a/echo`, { method: 'POST', ...body(v03Send, type) });
      expect({ type, status: v03.status }).toEqual({ type, status: 415 });
      const v03Body = await v03.json();
      expect(v03Body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } });
      expect(v03Body.error.message).toContain('application/json');

      const b = body(v1Send, type);
      const v1 = await fetch(`${server.url}/a2a/echo`, { method: 'POST', headers: { ...b.headers, 'A2A-Version': '1.0' }, body: b.body });
      expect({ type, status: v1.status }).toEqual({ type, status: 415 });
      expect(await v1.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } });

      const r = body(restSend, type);
      const rest = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
        method: 'POST',
        headers: { ...r.headers, 'A2A-Version': '1.0' },
        body: r.body,
      });
      expect({ type, status: rest.status }).toEqual({ type, status: 415 });
      expect((await rest.json()).error).toMatchObject({ code: 415, message: expect.stringContaining('application/json') });

      const legacy = await fetch(`${server.url}/a2a/echo/rest/v1/message:send`, { method: 'POST', ...body(v03Send, type) });
      expect({ type, status: legacy.status }).toEqual({ type, status: 415 });
      expect(await legacy.json()).toMatchObject({ code: -32005, message: expect.stringContaining('application/json') });
    }
    // Nothing reached the agent, and no task was made.
    expect(model.calls.length).toBe(before);
    const tasks = await fetch(`${server.url}/a2a/echo/rest/tasks`, { headers: { 'A2A-Version': '1.0' } });
    expect(tasks.status).toBe(200);
    // An empty list is left out of the JSON (proto3 form).
    expect((await tasks.json()).tasks ?? []).toEqual([]);
  });

  it('accepts application/json with a charset and application/a2a+json', async () => {
    const v03 = await fetch(`${server.url}/a2a/echo`, {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: v03Send,
    });
    expect((await v03.json()).result.status.state).toBe('completed');
    const v1 = await fetch(`${server.url}/a2a/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', 'A2A-Version': '1.0' },
      body: v1Send.replace('m-2', 'm-2b'),
    });
    expect((await v1.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const rest = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/a2a+json', 'A2A-Version': '1.0' },
      body: restSend,
    });
    expect(rest.status).toBe(200);
    const tasks = await (await fetch(`${server.url}/a2a/echo/rest/tasks`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(tasks.tasks.length).toBe(3);
  });

  it('lets a POST without a body through (a cancel), whatever its Content-Type', async () => {
    const cancel = await fetch(`${server.url}/a2a/echo/rest/tasks/no-such-task:cancel`, {
      method: 'POST',
      headers: { 'A2A-Version': '1.0' },
    });
    expect(cancel.status).toBe(404);
    const typed = await fetch(`${server.url}/a2a/echo/rest/tasks/no-such-task:cancel`, {
      method: 'POST',
      headers: { 'A2A-Version': '1.0', 'content-type': 'text/plain' },
    });
    expect(typed.status).toBe(404);
  });
});

describe('unknown JSON-RPC methods', () => {
  const call = async (request: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/a2a/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(request),
    });
    return { status: res.status, body: await res.json() };
  };

  it('are -32601 Method not found, with or without params, on v0.3 and v1.0', async () => {
    for (const headers of [{}, { 'A2A-Version': '0.3' }, { 'A2A-Version': '1.0' }] as Record<string, string>[]) {
      for (const request of [
        { jsonrpc: '2.0', id: 1, method: 'nope' },
        { jsonrpc: '2.0', id: 2, method: 'nope', params: {} },
        { jsonrpc: '2.0', id: 3, method: 'nope', params: 'not an object' },
      ]) {
        const r = await call(request, headers);
        expect({ headers, request, status: r.status, body: r.body }).toEqual({
          headers,
          request,
          status: 200,
          body: { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found: nope' } },
        });
      }
    }
  });

  it('known methods with bad params are still -32602', async () => {
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'tasks/get' })).body.error.code).toBe(-32602);
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: 'x' }, { 'A2A-Version': '1.0' })).body.error.code).toBe(
      -32602,
    );
  });
});

describe('agents the request may not reach', () => {
  it('answer exactly like unknown agents: card, JSON-RPC, REST v1.0 and REST v0.3', async () => {
    const same = async (path: (agent: string) => string, init: RequestInit = {}) => {
      const a = await fetch(`${server.url}${path('inside')}`, init);
      const b = await fetch(`${server.url}${path('nobody')}`, init);
      const seen = async (res: Response, name: string) => ({
        status: res.status,
        type: res.headers.get('content-type'),
        body: (await res.text()).replaceAll(name, '<agent>'),
      });
      const [x, y] = [await seen(a, 'inside'), await seen(b, 'nobody')];
      expect(x).toEqual(y);
      expect(x.status).toBe(404);
    };
    await same((n) => `/agents/${n}/.well-known/agent-card.json`);
    await same((n) => `/a2a/${n}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: v03Send });
    await same((n) => `/a2a/${n}`, { method: 'POST', headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' }, body: v1Send });
    await same((n) => `/a2a/${n}/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: restSend,
    });
    await same((n) => `/a2a/${n}/rest/v1/message:send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: v03Send });
    // With the embedder's token it is there.
    const card = await fetch(`${server.url}/agents/inside/.well-known/agent-card.json`, { headers: { authorization: 'Bearer ok' } });
    expect((await card.json()).name).toBe('inside');
  });
});
