import { type Message, Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Client } from '@a2a-js/sdk/client';
import { LegacyRestTransport, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

// Mandatory v0.3 JSON-RPC behaviours (A2A spec 0.3: §7 methods, §8 errors, §6 task states, §5 agent card),
// checked on the wire without a client library, plus the SDK's v0.3 client.

let server: TestServer;
let endpoint: string;
beforeAll(async () => {
  const runtime = fakeRuntime([echoAgent()]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
  endpoint = `${server.url}/a2a/echo`;
});
afterAll(() => server.close());

let nextId = 1;
async function rpc(
  method: string,
  params: unknown,
  id: string | number = nextId++,
): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function message(text: string, extra: Record<string, unknown> = {}) {
  return { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra };
}

async function sse(method: string, params: unknown): Promise<Record<string, any>[]> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'stream-1', method, params }),
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)) as Record<string, any>);
}

describe('A2A v0.3 JSON-RPC: mandatory behaviours', () => {
  it('serves a v0.3 agent card with the required fields', async () => {
    const card = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
    for (const key of [
      'name',
      'description',
      'url',
      'version',
      'protocolVersion',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ])
      expect(card).toHaveProperty(key);
    expect(card.protocolVersion).toBe('0.3.0');
    expect(card.preferredTransport).toBe('JSONRPC');
    for (const skill of card.skills) for (const key of ['id', 'name', 'description', 'tags']) expect(skill).toHaveProperty(key);
  });

  it('message/send returns a completed task echoing the request id', async () => {
    const { status, body } = await rpc('message/send', { message: message('hi') }, 'req-42');
    expect(status).toBe(200);
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe('req-42');
    const task = body.result;
    expect(task.kind).toBe('task');
    expect(typeof task.id).toBe('string');
    expect(typeof task.contextId).toBe('string');
    expect(task.status.state).toBe('completed');
    expect(task.artifacts[0].parts[0]).toEqual({ kind: 'text', text: 'echo: hi' });
    expect(task.history[0]).toMatchObject({ kind: 'message', role: 'user' });
  });

  it('tasks/get returns the task, honouring historyLength', async () => {
    const sent = await rpc('message/send', { message: message('remember') });
    const id = sent.body.result.id;
    const full = await rpc('tasks/get', { id });
    expect(full.body.result).toMatchObject({ id, kind: 'task', status: { state: 'completed' } });
    expect(full.body.result.history.length).toBeGreaterThanOrEqual(2);
    const one = await rpc('tasks/get', { id, historyLength: 1 });
    expect(one.body.result.history).toHaveLength(1);
  });

  it('message/stream sends task, status-update and artifact-update events, the last one final', async () => {
    const events = await sse('message/stream', { message: message('streaming') });
    expect(events.every((e) => e.jsonrpc === '2.0' && e.id === 'stream-1')).toBe(true);
    const results = events.map((e) => e.result);
    expect(results[0].kind).toBe('task');
    expect(results.some((r) => r.kind === 'artifact-update')).toBe(true);
    const last = results.at(-1);
    expect(last).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('continues a context: the second message sees the first', async () => {
    const contextId = crypto.randomUUID();
    await rpc('message/send', { message: message('one', { contextId }) });
    const second = await rpc('message/send', { message: message('history?', { contextId }) });
    expect(second.body.result.contextId).toBe(contextId);
    expect(second.body.result.artifacts[0].parts[0].text).toBe('I have seen 2 user messages');
  });

  it('answers the spec error codes', async () => {
    expect((await rpc('tasks/get', { id: 'missing-task' })).body.error.code).toBe(-32001);
    expect((await rpc('tasks/cancel', { id: 'missing-task' })).body.error.code).toBe(-32001);
    const done = await rpc('message/send', { message: message('done') });
    expect((await rpc('tasks/cancel', { id: done.body.result.id })).body.error.code).toBe(-32002);
    expect((await rpc('tasks/nonexistent', {})).body.error.code).toBe(-32601);
    expect((await rpc('message/send', { nope: true })).body.error.code).toBe(-32602);
    expect((await rpc('message/send', 'not an object')).body.error.code).toBe(-32602);
    const bad = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(bad.status).toBe(200);
    expect(((await bad.json()) as any).error.code).toBe(-32700);
    const noVersion = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, method: 'tasks/get', params: { id: 'x' } }),
    });
    expect(((await noVersion.json()) as any).error.code).toBe(-32600);
    const resub = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tasks/resubscribe', params: { id: 'missing-task' } }),
    });
    expect(resub.headers.get('content-type')).toMatch(/^text\/event-stream/); // refused streams are streams too
    const resubText = await resub.text();
    expect(resubText).toContain('-32001');
    // The envelope is checked before the params: a bad id, a missing method, a wrong version.
    for (const envelope of [
      { jsonrpc: '2.0', method: 'message/send', params: {}, id: { bad: 'type' } },
      { jsonrpc: '2.0', id: 2, params: {} },
      { jsonrpc: '1.0', id: 3, method: 'tasks/get', params: { id: 'x' } },
    ]) {
      const r = (await (
        await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope) })
      ).json()) as any;
      expect(r.error.code, JSON.stringify(envelope)).toBe(-32600);
      expect(r.id).toBe(typeof envelope.id === 'number' ? envelope.id : null);
    }
  });

  it('stores push notification configs: set, get, list, delete', async () => {
    const sent = await rpc('message/send', { message: message('push') });
    const taskId = sent.body.result.id;
    const set = await rpc('tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: { id: 'hook-1', url: 'http://127.0.0.1:9/hook', token: 'tok' },
    });
    expect(set.body.result).toMatchObject({ taskId, pushNotificationConfig: { id: 'hook-1', url: 'http://127.0.0.1:9/hook' } });
    const got = await rpc('tasks/pushNotificationConfig/get', { id: taskId, pushNotificationConfigId: 'hook-1' });
    expect(got.body.result.pushNotificationConfig.url).toBe('http://127.0.0.1:9/hook');
    const list = await rpc('tasks/pushNotificationConfig/list', { id: taskId });
    expect(list.body.result).toHaveLength(1);
    const del = await rpc('tasks/pushNotificationConfig/delete', { id: taskId, pushNotificationConfigId: 'hook-1' });
    expect(del.body.error).toBeUndefined();
    expect((await rpc('tasks/pushNotificationConfig/list', { id: taskId })).body.result).toHaveLength(0);
  });

  it('defaults a push config id to the task id, as v0.3 SDKs do, for set and get', async () => {
    const taskId = (await rpc('message/send', { message: message('push default') })).body.result.id;
    const set = await rpc('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url: 'http://127.0.0.1:9/hook' } });
    expect(set.body.result.pushNotificationConfig.id).toBe(taskId);
    const got = await rpc('tasks/pushNotificationConfig/get', { id: taskId });
    expect(got.body.result).toMatchObject({ taskId, pushNotificationConfig: { id: taskId, url: 'http://127.0.0.1:9/hook' } });
  });
});

describe('the SDK v0.3 client', () => {
  it('sends, streams, gets and cancels through the v0.3 JSON-RPC transport', async () => {
    const raw = (await (await fetch(`${server.url}/agents/echo/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    delete raw.supportedInterfaces; // as a pure v0.3 card
    const card = parseLegacyAgentCard(raw);
    expect(card.supportedInterfaces.every((i) => i.protocolVersion.startsWith('0.3'))).toBe(true);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
      cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
    });
    const client = await factory.createFromAgentCard(card);
    const msg: Message = {
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: 'old client' }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const task = (await client.sendMessage({ tenant: '', message: msg, configuration: undefined, metadata: undefined })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'echo: old client' });
    const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(got.id).toBe(task.id);
    const events: StreamResponse[] = [];
    for await (const e of client.sendMessageStream({
      tenant: '',
      message: { ...msg, messageId: crypto.randomUUID() },
      configuration: undefined,
      metadata: undefined,
    }))
      events.push(e);
    expect(events[0].payload?.$case).toBe('task');
    const states = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : []));
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(client.cancelTask({ tenant: '', id: task.id, metadata: undefined })).rejects.toThrow(/cancel/i);
  });
});

describe('version mix-ups', () => {
  it('says which header to send when a method of the other version arrives', async () => {
    const v1 = await rpc('GetTask', { id: 'x' });
    expect(v1.body.error).toEqual({
      code: -32601,
      message: 'Method not found: GetTask (a v1.0 method: send the header "A2A-Version: 1.0")',
    });
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { id: 'x' } }),
    });
    expect(((await res.json()) as any).error.message).toContain('a v0.3 method');
    const unsupported = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '2.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(((await unsupported.json()) as any).error.code).toBe(-32009);
  });

  it('rejects a push config without a url as invalid params', async () => {
    const r = await rpc('tasks/pushNotificationConfig/set', { taskId: 'x' });
    expect(r.body.error).toEqual({ code: -32602, message: 'Invalid params: params.pushNotificationConfig must be an object with a url' });
  });
});

describe('A2A v0.3 over HTTP+JSON (REST)', () => {
  it('serves the SDK v0.3 REST client: send, stream, get, cancel errors, push configs', async () => {
    const transport = new LegacyRestTransport({ endpoint: `${server.url}/a2a/echo/rest` });
    const card = parseLegacyAgentCard(await (await fetch(`${server.url}/agents/echo/.well-known/agent-card.json`)).json());
    const client = new Client(transport, card);
    const msg = (text: string): Message => ({
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    });
    const task = (await client.sendMessage({
      tenant: '',
      message: msg('over v0.3 REST'),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'echo: over v0.3 REST' });
    expect((await client.getTask({ tenant: '', id: task.id, historyLength: undefined })).id).toBe(task.id);
    const events: StreamResponse[] = [];
    for await (const e of client.sendMessageStream({
      tenant: '',
      message: msg('streamed v0.3 REST'),
      configuration: undefined,
      metadata: undefined,
    }))
      events.push(e);
    const states = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : []));
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(client.getTask({ tenant: '', id: 'missing-task', historyLength: undefined })).rejects.toThrow(/not found/i);
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'hook',
      taskId: task.id,
      url: 'http://127.0.0.1:1/hook',
      token: 't',
      authentication: undefined,
    });
    expect(created.url).toBe('http://127.0.0.1:1/hook');
    // The same task is visible over JSON-RPC.
    expect((await rpc('tasks/get', { id: task.id })).body.result.status.state).toBe('completed');
  });

  it('answers raw v0.3 REST requests, and unknown paths with 404', async () => {
    const bad = await fetch(`${server.url}/a2a/echo/rest/v1/tasks/missing-task`);
    expect(bad.status).toBe(404);
    const unknown = await fetch(`${server.url}/a2a/echo/rest/v1/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain('No A2A v0.3 REST operation');
  });
});
