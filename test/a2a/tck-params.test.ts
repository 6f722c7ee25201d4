import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

// Requests the A2A TCK sends to check input validation, over real HTTP: a message without parts,
// a negative historyLength, and a push config for a task that does not exist (with a webhook on a
// host the server would refuse anyway: the unknown task is what the caller must be told).

type Json = Record<string, any>;

let server: TestServer;
beforeAll(async () => {
  const runtime = fakeRuntime([echoAgent()]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
});
afterAll(() => server.close());

async function rpc(method: string, params: unknown, version?: string): Promise<Json> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version) headers['A2A-Version'] = version;
  const res = await fetch(`${server.url}/a2a/echo`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method, params }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}
const v03Message = (parts: unknown[]) => ({ kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts });
const v1Message = (parts?: unknown[]) => ({ messageId: crypto.randomUUID(), role: 'ROLE_USER', ...(parts ? { parts } : {}) });

describe('a message without parts', () => {
  it('is refused with -32602 over v0.3 and v1.0 JSON-RPC, sent or streamed', async () => {
    for (const method of ['message/send', 'message/stream']) {
      const answer = await rpc(method, { message: v03Message([]) });
      expect(answer.error).toMatchObject({ code: -32602 });
      expect(answer.error.message).toContain('params.message.parts must not be empty');
    }
    for (const parts of [[], undefined]) {
      const answer = await rpc('SendMessage', { message: v1Message(parts) }, '1.0');
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error.message).toContain('params.message.parts');
    }
  });

  it('is refused with 400 over v1.0 REST', async () => {
    for (const parts of [[], undefined]) {
      const res = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ message: v1Message(parts) }),
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain('parts');
    }
  });
});

describe('a negative historyLength', () => {
  it('is refused with -32602 by tasks/get, GetTask and a send configuration; 0 and large values are fine', async () => {
    const task = (await rpc('message/send', { message: v03Message([{ kind: 'text', text: 'hi' }]) })).result;
    expect(task.status.state).toBe('completed');
    const v03 = await rpc('tasks/get', { id: task.id, historyLength: -1 });
    expect(v03.error).toMatchObject({ code: -32602 });
    expect(v03.error.message).toContain('params.historyLength must be a non-negative integer');
    const v1 = await rpc('GetTask', { id: task.id, historyLength: -1 }, '1.0');
    expect(v1.error?.code).toBe(-32602);
    const send = await rpc('message/send', { message: v03Message([{ kind: 'text', text: 'hi' }]), configuration: { historyLength: -2 } });
    expect(send.error).toMatchObject({ code: -32602 });
    expect((await rpc('tasks/get', { id: task.id, historyLength: 0 })).result.id).toBe(task.id);
    expect((await rpc('tasks/get', { id: task.id, historyLength: 2147483647 })).result.history.length).toBeGreaterThan(0);
  });
});

describe('a push config for a task that does not exist', () => {
  it('is TaskNotFound (-32001), even when its webhook host would be refused', async () => {
    const v03 = await rpc('tasks/pushNotificationConfig/set', {
      taskId: 'no-such-task',
      pushNotificationConfig: { url: 'https://example.com/webhook' },
    });
    expect(v03.error).toMatchObject({ code: -32001 });
    expect(v03.error.message).toContain('not found');
    const v1 = await rpc(
      'CreateTaskPushNotificationConfig',
      { taskId: 'no-such-task', id: 'c1', url: 'https://example.com/webhook' },
      '1.0',
    );
    expect(v1.error?.code).toBe(-32001);
  });

  it('for a task that exists, the host is still checked', async () => {
    const task = (await rpc('message/send', { message: v03Message([{ kind: 'text', text: 'hi' }]) })).result;
    const answer = await rpc('tasks/pushNotificationConfig/set', {
      taskId: task.id,
      pushNotificationConfig: { url: 'https://example.com/webhook' },
    });
    expect(answer.error).toMatchObject({ code: -32602 });
    expect(answer.error.message).toContain('allowed push hosts');
  });
});
