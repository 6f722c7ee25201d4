import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Runtime } from '../../src/runtime/load-runtime.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

// Details of A2A v1.0 and v0.3 the TCK checks: agent URLs with a trailing slash, card caching
// headers, the REST content type, refusals of SubscribeToTask, state names in v0.3 error
// messages, push configs read back by their id (and v0.3's "default"), and the extended card.

type Json = Record<string, any>;

let server: TestServer;
let runtime: Runtime;
beforeAll(async () => {
  runtime = fakeRuntime([echoAgent()]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
});
afterAll(() => server.close());

async function rpc(path: string, method: string, params: unknown, version?: string): Promise<{ res: Response; body: Json }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version) headers['A2A-Version'] = version;
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  const body = res.headers.get('content-type')?.includes('text/event-stream') ? { stream: await res.text() } : ((await res.json()) as Json);
  return { res, body };
}
const v1Send = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
const v03Send = (text: string, extra: Json = {}) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
});

describe('agent URLs with a trailing slash', () => {
  it('JSON-RPC answers at /a2a/{name}/ in v1.0 and v0.3', async () => {
    const v1 = await rpc('/a2a/echo/', 'SendMessage', v1Send('slash'), '1.0');
    expect(v1.res.status).toBe(200);
    expect(v1.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const v03 = await rpc('/a2a/echo/', 'message/send', v03Send('slash'));
    expect(v03.body.result.status.state).toBe('completed');
  });

  it('REST answers with the slash doubled or trailing', async () => {
    const sent = await fetch(`${server.url}/a2a/echo/rest//message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify(v1Send('rest slash')),
    });
    expect(sent.status).toBe(200);
    const id = ((await sent.json()) as Json).task.id;
    const got = await fetch(`${server.url}/a2a/echo/rest/tasks/${id}/`, { headers: { 'A2A-Version': '1.0' } });
    expect(got.status).toBe(200);
    expect(((await got.json()) as Json).id).toBe(id);
  });
});

describe('agent card caching', () => {
  it('sends Cache-Control with max-age, ETag and Last-Modified, and 304 for a matching If-None-Match or If-Modified-Since', async () => {
    const url = `${server.url}/.well-known/agent-card.json`;
    const v1 = await fetch(url, { headers: { 'A2A-Version': '1.0' } });
    expect(v1.status).toBe(200);
    expect(v1.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(v1.headers.get('vary')).toContain('A2A-Version');
    const etag = v1.headers.get('etag')!;
    const lastModified = v1.headers.get('last-modified')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false);

    // The v0.3 card is another body, with another ETag.
    const v03 = await fetch(url);
    expect(v03.headers.get('etag')).not.toBe(etag);

    const same = await fetch(url, { headers: { 'A2A-Version': '1.0', 'If-None-Match': etag } });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    expect(same.headers.get('etag')).toBe(etag);
    expect((await fetch(url, { headers: { 'A2A-Version': '1.0', 'If-None-Match': `"other", ${etag.slice(2)}` } })).status).toBe(304);
    expect((await fetch(url, { headers: { 'A2A-Version': '1.0', 'If-None-Match': '"other"' } })).status).toBe(200);
    expect((await fetch(url, { headers: { 'A2A-Version': '1.0', 'If-Modified-Since': lastModified } })).status).toBe(304);
    // The v0.3 card does not match the v1.0 ETag.
    expect((await fetch(url, { headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('gives a changed card (a config reload) a new ETag', async () => {
    const url = `${server.url}/agents/echo/.well-known/agent-card.json`;
    const before = (await fetch(url, { headers: { 'A2A-Version': '1.0' } })).headers.get('etag')!;
    const old = runtime;
    runtime = fakeRuntime([echoAgent('echo', 'Echoes, now with a new description')]);
    try {
      const after = await fetch(url, { headers: { 'A2A-Version': '1.0', 'If-None-Match': before } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before);
      expect(((await after.json()) as Json).description).toBe('Echoes, now with a new description');
    } finally {
      runtime = old;
    }
  });
});

describe('REST content type', () => {
  it('answers application/json, or application/a2a+json to clients that accept it', async () => {
    const send = (accept?: string) =>
      fetch(`${server.url}/a2a/echo/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...(accept ? { accept } : {}) },
        body: JSON.stringify(v1Send('type')),
      });
    expect((await send()).headers.get('content-type')).toBe('application/json');
    expect((await send('*/*')).headers.get('content-type')).toBe('application/json');
    expect((await send('application/a2a+json, application/json')).headers.get('content-type')).toBe('application/a2a+json');
    // Errors too.
    const missing = await fetch(`${server.url}/a2a/echo/rest/tasks/no-such-task`, { headers: { 'A2A-Version': '1.0' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(((await missing.json()) as Json).error.code).toBe(404);
  });
});

describe('refusals of finished tasks', () => {
  it('SubscribeToTask (v1.0) answers a finished task with a JSON-RPC error body, naming the state', async () => {
    const id = (await rpc('/a2a/echo', 'SendMessage', v1Send('done'), '1.0')).body.result.task.id;
    const { res, body } = await rpc('/a2a/echo', 'SubscribeToTask', { id }, '1.0');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32004 } });
    expect(body.error.message).toContain('terminal state (TASK_STATE_COMPLETED)');
    const unknown = await rpc('/a2a/echo', 'SubscribeToTask', { id: 'no-such-task' }, '1.0');
    expect(unknown.body.error.code).toBe(-32001);
  });

  it('v0.3 keeps the stream form for tasks/resubscribe, and its messages name v0.3 states', async () => {
    const task = (await rpc('/a2a/echo', 'message/send', v03Send('done'))).body.result;
    const resub = await rpc('/a2a/echo', 'tasks/resubscribe', { id: task.id });
    expect(resub.res.headers.get('content-type')).toContain('text/event-stream');
    expect(resub.body.stream).toContain('terminal state (completed)');
    const again = await rpc('/a2a/echo', 'message/send', v03Send('more', { taskId: task.id, contextId: task.contextId }));
    expect(again.body.error).toMatchObject({
      code: -32004,
      message: expect.stringMatching(/terminal state \(completed\) and cannot be modified/),
    });
    expect(JSON.stringify(again.body)).not.toMatch(/state \(\d+\)/);
  });
});

describe.each([
  ['in memory', false],
  ['with a store', true],
] as const)('push configs read back by id (%s)', (_label, withStore) => {
  let s: TestServer;
  let store: Store | undefined;
  beforeAll(async () => {
    store = withStore ? await openStore({ driver: 'memory' }) : undefined;
    const rt = fakeRuntime([echoAgent()]);
    s = await startServer({ runtime: () => rt, visibility: () => 'public', ...(store ? { store: async () => store! } : {}) });
  });
  afterAll(async () => {
    await s.close();
    await store?.close();
  });
  const call = async (method: string, params: unknown, version?: string): Promise<Json> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(version ? { 'A2A-Version': version } : {}) };
    return (await (
      await fetch(`${s.url}/a2a/echo`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    ).json()) as Json;
  };
  const hook = 'http://127.0.0.1:9/hook';

  it('v1.0 JSON-RPC and REST: the id the client gave', async () => {
    const taskId = (await call('SendMessage', v1Send('push'), '1.0')).result.task.id;
    const created = await call('CreateTaskPushNotificationConfig', { task_id: taskId, id: 'tck-push-1', url: hook }, '1.0');
    expect(created.result).toMatchObject({ id: 'tck-push-1', taskId, url: hook });
    expect((await call('GetTaskPushNotificationConfig', { taskId, id: 'tck-push-1' }, '1.0')).result).toMatchObject({
      id: 'tck-push-1',
      url: hook,
    });
    const rest = await fetch(`${s.url}/a2a/echo/rest/tasks/${taskId}/pushNotificationConfigs/tck-push-1`, {
      headers: { 'A2A-Version': '1.0' },
    });
    expect(((await rest.json()) as Json).id).toBe('tck-push-1');
    await call('CreateTaskPushNotificationConfig', { taskId, id: 'tck-push-2', url: hook }, '1.0');
    expect((await call('DeleteTaskPushNotificationConfig', { task_id: taskId, id: 'tck-push-1' }, '1.0')).error).toBeUndefined();
    const del = await fetch(`${s.url}/a2a/echo/rest/tasks/${taskId}/pushNotificationConfigs/tck-push-2`, {
      method: 'DELETE',
      headers: { 'A2A-Version': '1.0' },
    });
    expect(del.status).toBe(204);
    expect((await call('ListTaskPushNotificationConfigs', { taskId }, '1.0')).result.configs ?? []).toEqual([]);
  });

  it('v0.3: a config set without an id is read back by the task id and as "default", and deleted as "default"', async () => {
    const taskId = (await call('message/send', v03Send('push'))).result.id;
    const set = await call('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url: hook } });
    expect(set.result.pushNotificationConfig).toMatchObject({ id: taskId, url: hook });
    for (const pushNotificationConfigId of ['default', taskId, undefined]) {
      const got = await call('tasks/pushNotificationConfig/get', {
        id: taskId,
        ...(pushNotificationConfigId ? { pushNotificationConfigId } : {}),
      });
      expect(got.result.pushNotificationConfig, String(pushNotificationConfigId)).toMatchObject({ url: hook });
    }
    // A config really named "default" is that one.
    await call('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { id: 'default', url: `${hook}2` } });
    expect(
      (await call('tasks/pushNotificationConfig/get', { id: taskId, pushNotificationConfigId: 'default' })).result.pushNotificationConfig
        .url,
    ).toBe(`${hook}2`);
    await call('tasks/pushNotificationConfig/delete', { id: taskId, pushNotificationConfigId: 'default' });
    await call('tasks/pushNotificationConfig/delete', { id: taskId, pushNotificationConfigId: 'default' });
    expect((await call('tasks/pushNotificationConfig/list', { id: taskId })).result).toEqual([]);
    expect((await call('tasks/pushNotificationConfig/get', { id: taskId, pushNotificationConfigId: 'default' })).error.code).toBe(-32001);
  });
});

describe('the extended agent card', () => {
  it('is unsupported unless turned on', async () => {
    const v1 = await rpc('/a2a/echo', 'GetExtendedAgentCard', {}, '1.0');
    expect(v1.body.error.code).toBe(-32004);
    const card = (await (await fetch(`${server.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as Json;
    expect(card.capabilities.extendedAgentCard).toBeFalsy();
    const v03 = (await (await fetch(`${server.url}/.well-known/agent-card.json`)).json()) as Json;
    expect(v03.supportsAuthenticatedExtendedCard).toBe(false);
  });

  it('with extendedCard: the cards say so, and every binding serves it', async () => {
    const rt = fakeRuntime([echoAgent()]);
    const s = await startServer({
      runtime: () => rt,
      visibility: () => 'public',
      extendedCard: true,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
      owner: () => 'ann',
    });
    try {
      const public1 = (await (await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as Json;
      expect(public1.capabilities.extendedAgentCard).toBe(true);
      expect(((await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as Json).supportsAuthenticatedExtendedCard).toBe(true);
      const post = (method: string, version?: string) =>
        fetch(`${s.url}/a2a/echo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(version ? { 'A2A-Version': version } : {}) },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
        }).then((r) => r.json() as Promise<Json>);
      const v1 = (await post('GetExtendedAgentCard', '1.0')).result;
      expect(v1).toMatchObject({
        name: 'echo',
        capabilities: { extendedAgentCard: true },
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
      });
      const v03 = (await post('agent/getAuthenticatedExtendedCard')).result;
      expect(v03).toMatchObject({ name: 'echo', url: `${s.url}/a2a/echo`, supportsAuthenticatedExtendedCard: true });
      const rest = (await (await fetch(`${s.url}/a2a/echo/rest/extendedAgentCard`, { headers: { 'A2A-Version': '1.0' } })).json()) as Json;
      expect(rest).toMatchObject({ name: 'echo', capabilities: { extendedAgentCard: true } });
    } finally {
      await s.close();
    }
  });
});
