import { type Message, Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

function userMessage(text: string, extra: Partial<Message> = {}): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

function textOf(task: Task): string {
  return task.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');
}

let server: TestServer;
beforeAll(async () => {
  const runtime = fakeRuntime([echoAgent(), echoAgent('hidden', 'A private agent')]);
  server = await startServer({ runtime: () => runtime, visibility: (n) => (n === 'hidden' ? 'private' : 'public') });
});
afterAll(() => server.close());

async function v1Client(binding: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
    preferredTransports: [binding],
  });
  return factory.createFromUrl(`${server.url}/agents/echo/.well-known/agent-card.json`, '');
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('A2A v1.0 over %s with the official SDK client', (binding) => {
  it('sends a message and gets a completed task with the answer as an artifact', async () => {
    const client = await v1Client(binding);
    const result = await client.sendMessage({
      tenant: '',
      message: userMessage('hello there'),
      configuration: undefined,
      metadata: undefined,
    });
    expect('id' in result && 'status' in result).toBe(true);
    const task = result as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task)).toBe('echo: hello there');
    // The task can be fetched again, with its history.
    const again = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(again.history.length).toBeGreaterThanOrEqual(1);
    const short = await client.getTask({ tenant: '', id: task.id, historyLength: 0 });
    expect(short.history).toEqual([]);
  });

  it('streams status updates and artifact chunks in order, ending completed', async () => {
    const client = await v1Client(binding);
    const events: StreamResponse[] = [];
    for await (const e of client.sendMessageStream({
      tenant: '',
      message: userMessage('stream me please'),
      configuration: undefined,
      metadata: undefined,
    }))
      events.push(e);
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    const states = events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : []));
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const last = events.filter((e) => e.payload?.$case === 'artifactUpdate').at(-1);
    expect(last?.payload?.$case === 'artifactUpdate' && last.payload.value.lastChunk).toBe(true);
    const text =
      last?.payload?.$case === 'artifactUpdate'
        ? last.payload.value.artifact?.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('')
        : '';
    expect(text).toBe('echo: stream me please');
  });

  it('keeps the conversation of a context across tasks', async () => {
    const client = await v1Client(binding);
    const contextId = crypto.randomUUID();
    await client.sendMessage({ tenant: '', message: userMessage('first', { contextId }), configuration: undefined, metadata: undefined });
    const second = (await client.sendMessage({
      tenant: '',
      message: userMessage('history?', { contextId }),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(textOf(second)).toBe('I have seen 2 user messages');
    const listed = await client.listTasks({ tenant: '', contextId, status: 0, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map((t) => t.contextId)).toEqual([contextId, contextId]);
  });

  it('cancels a running task and resubscribes to one', async () => {
    const client = await v1Client(binding);
    const stream = client.sendMessageStream({
      tenant: '',
      message: userMessage('slow please'),
      configuration: undefined,
      metadata: undefined,
    });
    const first = await stream.next();
    const task = first.value?.payload?.$case === 'task' ? first.value.payload.value : undefined;
    expect(task).toBeDefined();
    // A second subscriber sees the same task.
    const resub = client.resubscribeTask({ tenant: '', id: task!.id });
    const resubFirst = await resub.next();
    expect(resubFirst.value?.payload?.$case).toBe('task');
    const canceled = await client.cancelTask({ tenant: '', id: task!.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest: StreamResponse[] = [];
    for await (const e of stream) rest.push(e);
    const final = rest.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value.status?.state] : [])).at(-1);
    expect(final).toBe(TaskState.TASK_STATE_CANCELED);
    await resub.return(undefined);
    // A finished task cannot be canceled again.
    await expect(client.cancelTask({ tenant: '', id: crypto.randomUUID(), metadata: undefined })).rejects.toThrow(/not found/i);
  });

  it('reports an unknown task as TaskNotFound', async () => {
    const client = await v1Client(binding);
    await expect(client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined })).rejects.toThrow(/not found/i);
  });
});

describe('agent cards', () => {
  it('serves v1.0 cards with both bindings and v0.3 cards without A2A-Version', async () => {
    const v1 = await (await fetch(`${server.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(v1.name).toBe('echo');
    expect(v1.capabilities).toMatchObject({ streaming: true, pushNotifications: true });
    expect(v1.supportedInterfaces).toEqual([
      { url: `${server.url}/a2a/echo`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${server.url}/a2a/echo/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${server.url}/a2a/echo`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      // express is installed here, so v0.3 HTTP+JSON is served too.
      { url: `${server.url}/a2a/echo/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(v1.skills[0]).toMatchObject({ id: 'echo', description: 'Echoes what you say' });
    const v03 = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
    expect(v03).toMatchObject({ protocolVersion: '0.3.0', url: `${server.url}/a2a/echo`, preferredTransport: 'JSONRPC' });
    expect(v03.capabilities.stateTransitionHistory).toBe(true);
  });

  it('lists visible agents and hides private ones (404)', async () => {
    const list = await (await fetch(`${server.url}/agents`)).json();
    expect(list.agents.map((a: { name: string }) => a.name)).toEqual(['echo']);
    expect((await fetch(`${server.url}/agents/hidden/.well-known/agent-card.json`)).status).toBe(404);
    const rpc = await fetch(`${server.url}/a2a/hidden`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(rpc.status).toBe(404);
    expect((await fetch(`${server.url}/a2a/hidden/rest/tasks`)).status).toBe(404);
    expect((await fetch(`${server.url}/agents/nobody/.well-known/agent-card.json`)).status).toBe(404);
  });

  it('resolves with the SDK card resolver', async () => {
    const card = await new DefaultAgentCardResolver().resolve(`${server.url}/agents/echo/`, '.well-known/agent-card.json');
    expect(card.name).toBe('echo');
  });
});

describe('security schemes on the cards', () => {
  it('advertises schemes given in either form on v1.0 and v0.3 cards, and the SDK resolver reads them', async () => {
    const runtime = fakeRuntime([echoAgent()]);
    for (const schemes of [
      { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      { bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } } },
    ]) {
      const s = await startServer({
        runtime: () => runtime,
        visibility: () => 'public',
        securitySchemes: schemes,
        security: [{ bearer: [] }],
      });
      try {
        const v1 = await (await fetch(`${s.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
        expect(v1.securitySchemes).toEqual({ bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } } });
        expect(v1.securityRequirements).toEqual([{ schemes: { bearer: {} } }]); // empty scope lists are omitted in the JSON form
        const v03 = await (await fetch(`${s.url}/.well-known/agent-card.json`)).json();
        expect(v03.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
        expect(v03.security).toEqual([{ bearer: [] }]);
        const card = await new DefaultAgentCardResolver().resolve(s.url);
        expect(card.securitySchemes.bearer.scheme?.$case).toBe('httpAuthSecurityScheme');
      } finally {
        await s.close();
      }
    }
  });
});

describe('GET /agents', () => {
  it('lists public agents, and internal ones only when listAgent says so', async () => {
    const runtime = fakeRuntime([echoAgent('pub'), echoAgent('inside'), echoAgent('secret')]);
    const visibility = (n: string): 'public' | 'internal' | 'private' =>
      n === 'inside' ? 'internal' : n === 'secret' ? 'private' : 'public';
    const plain = await startServer({ runtime: () => runtime, visibility });
    const custom = await startServer({
      runtime: () => runtime,
      visibility,
      listAgent: (n, req) => visibility(n) === 'public' || req.headers.get('authorization') === 'Bearer ok',
    });
    try {
      const names = async (url: string, headers: Record<string, string> = {}) =>
        ((await (await fetch(`${url}/agents`, { headers })).json()) as { agents: Array<{ name: string }> }).agents.map((a) => a.name);
      expect(await names(plain.url)).toEqual(['pub']);
      expect(await names(custom.url)).toEqual(['pub']);
      expect(await names(custom.url, { authorization: 'Bearer ok' })).toEqual(['pub', 'inside']);
    } finally {
      await plain.close();
      await custom.close();
    }
  });
});
