import { Agent as HttpAgent, createServer, type IncomingMessage, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type Message, Role, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { A2ATaskStart } from '../../src/a2a/index.js';
import { openStore } from '../../src/storage/index.js';
import { sqliteTarget } from '../storage/support/targets.js';
import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

// The direct path of `CorvidRequestHandler.sendMessage`: a blocking send that starts a new task.
// Tasks are held mid-run by a `beforeTask` hook keyed by message id, released by the test.

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A webhook receiver on 127.0.0.1; `waitUntil` resolves once a received body matches. */
async function receiver(): Promise<{
  url: string;
  received: Received[];
  waitUntil(match: (body: any) => boolean): Promise<void>;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(data) });
      waiters.forEach((w) => w());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    waitUntil: (match) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.some((r) => match(r.body))) resolve();
        };
        waiters.push(check);
        check();
      }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Held tasks by message id: `started` resolves when the task reaches the hook, `release` lets it run. */
const holds = new Map<string, { gate: Promise<void>; reached: (task: A2ATaskStart) => void }>();
function hold(messageId: string): { started: Promise<A2ATaskStart>; release: () => void } {
  let release!: () => void;
  let reached!: (task: A2ATaskStart) => void;
  const gate = new Promise<void>((r) => (release = r));
  const started = new Promise<A2ATaskStart>((r) => (reached = r));
  holds.set(messageId, { gate, reached });
  return { started, release };
}
const releaseAll: Array<() => void> = [];
async function beforeTask(task: A2ATaskStart): Promise<void> {
  const entry = holds.get(task.message.messageId);
  if (!entry) return;
  entry.reached(task);
  // A canceled task stops waiting: the run ends with the abort.
  await new Promise<void>((resolve, reject) => {
    void entry.gate.then(resolve);
    task.signal.addEventListener('abort', () => reject(task.signal.reason), { once: true });
  });
}

let server: TestServer;
beforeAll(async () => {
  const runtime = fakeRuntime([echoAgent()]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public', beforeTask });
});
afterAll(async () => {
  releaseAll.forEach((r) => r());
  await server.close();
});
afterEach(() => vi.restoreAllMocks());

const rpc = async (method: string, params: unknown, url = server.url): Promise<any> =>
  (await (
    await fetch(`${url}/a2a/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
  ).json()) as any;
const message = (text: string, messageId: string = crypto.randomUUID()) => ({
  kind: 'message',
  messageId,
  role: 'user',
  parts: [{ kind: 'text', text }],
});
const textOf = (m: any): string => m.parts.map((p: any) => p.text ?? '').join('');

/** Holds a new message's task; returns the message and the hold. */
function held(text: string) {
  const msg = message(text);
  const h = hold(msg.messageId);
  releaseAll.push(h.release);
  return { msg, ...h };
}

/** A v0.3 SSE stream read event by event (each `data:` line parsed); `next` is undefined at the end. */
async function openStream(method: string, params: unknown): Promise<{ next(): Promise<any | undefined>; rest(): Promise<any[]> }> {
  const res = await fetch(`${server.url}/a2a/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 's', method, params }),
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<any | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5))
          .join('');
        buffer = buffer.slice(end + 2);
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
    }
  };
  const rest = async () => {
    const out: any[] = [];
    for (let e = await next(); e !== undefined; e = await next()) out.push(e);
    return out;
  };
  return { next, rest };
}

describe('blocking message/send over v0.3 JSON-RPC', () => {
  it('returns the completed task with the conversation, the answer artifact and the final message; tasks/get agrees', async () => {
    const sent = await rpc('message/send', { message: message('hi') });
    const task = sent.result;
    expect(task).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(task.history).toHaveLength(2);
    expect(task.history[0]).toMatchObject({
      role: 'user',
      parts: [{ kind: 'text', text: 'hi' }],
      taskId: task.id,
      contextId: task.contextId,
    });
    expect(task.history[1]).toMatchObject({ role: 'agent', parts: [{ kind: 'text', text: 'echo: hi' }] });
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0]).toMatchObject({ name: 'answer', parts: [{ kind: 'text', text: 'echo: hi' }] });
    expect(task.status.message).toEqual(task.history[1]);
    const got = (await rpc('tasks/get', { id: task.id })).result;
    expect(got.status).toEqual(task.status);
    expect(got.history).toEqual(task.history);
    expect(got.artifacts).toEqual(task.artifacts);
  });

  it('answers back-to-back sends of different sizes on one keep-alive connection, each with its own length', async () => {
    // The answer is written as a string with its headers: each must carry its own Content-Length
    // (a stale one would cut or run over into the next answer on the same connection).
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (const text of ['a', 'bb', 'a much longer message than the others', 'é"\\n', 'c']) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: text.length, method: 'message/send', params: { message: message(text) } });
        const { length, raw, socket } = await new Promise<{ length: string | undefined; raw: string; socket: unknown }>(
          (resolve, reject) => {
            const req = httpRequest(
              `${server.url}/a2a/echo`,
              { agent, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
              (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () =>
                  resolve({ length: res.headers['content-length'], raw: Buffer.concat(chunks).toString('utf8'), socket: req.socket }),
                );
              },
            );
            req.on('error', reject);
            req.end(body);
          },
        );
        sockets.add(socket);
        expect(Number(length)).toBe(Buffer.byteLength(raw));
        const answer = JSON.parse(raw);
        expect(answer.id).toBe(text.length);
        expect(textOf(answer.result.status.message)).toBe(`echo: ${text}`);
      }
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('applies historyLength to the answer only: the stored task keeps the whole conversation', async () => {
    // v0.3: a configuration without `blocking` means non-blocking (the SDK's reading), so it is set.
    const one = (await rpc('message/send', { message: message('short'), configuration: { blocking: true, historyLength: 1 } })).result;
    expect(one.status.state).toBe('completed');
    expect(one.history).toHaveLength(1);
    expect(one.history[0]).toMatchObject({ role: 'agent', parts: [{ kind: 'text', text: 'echo: short' }] });
    expect((await rpc('tasks/get', { id: one.id })).result.history.map((m: any) => m.role)).toEqual(['user', 'agent']);
    const none = (await rpc('message/send', { message: message('none'), configuration: { blocking: true, historyLength: 0 } })).result;
    expect(none.status.state).toBe('completed');
    expect(none.history ?? []).toEqual([]); // v0.3 may omit an empty history
    expect(none.artifacts[0].parts[0].text).toBe('echo: none');
    expect((await rpc('tasks/get', { id: none.id })).result.history).toHaveLength(2);
  });

  it('shows a held task as working to tasks/get and to a resubscriber, who then sees it complete; the send answers completed', async () => {
    const { msg, started, release } = held('held answer');
    const sending = rpc('message/send', { message: msg });
    const { taskId } = await started;
    const during = (await rpc('tasks/get', { id: taskId })).result;
    expect(during.status.state).toBe('working');
    expect(during.history[0].messageId).toBe(msg.messageId);
    const stream = await openStream('tasks/resubscribe', { id: taskId });
    const first = await stream.next();
    expect(first.result).toMatchObject({ kind: 'task', id: taskId, status: { state: 'working' } });
    release();
    const events = (await stream.rest()).map((e) => e.result);
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', taskId, final: true, status: { state: 'completed' } });
    const answer = events.filter((e) => e.kind === 'artifact-update').at(-1);
    expect(answer.artifact.parts[0].text).toBe('echo: held answer');
    const sent = (await sending).result;
    expect(sent).toMatchObject({ id: taskId, status: { state: 'completed' } });
    expect(sent.artifacts[0].parts[0].text).toBe('echo: held answer');
  });

  it('ends a held send canceled when tasks/cancel is called, and tasks/get says canceled', async () => {
    const { msg, started } = held('cancel me');
    const sending = rpc('message/send', { message: msg });
    const { taskId } = await started;
    const canceled = await rpc('tasks/cancel', { id: taskId });
    expect(canceled.result).toMatchObject({ id: taskId, status: { state: 'canceled' } });
    const sent = (await sending).result;
    expect(sent).toMatchObject({ id: taskId, status: { state: 'canceled' } });
    expect(sent.artifacts ?? []).toEqual([]);
    expect((await rpc('tasks/get', { id: taskId })).result.status.state).toBe('canceled');
    // The conversation is free again.
    expect((await rpc('message/send', { message: message('after cancel') })).result.status.state).toBe('completed');
  });

  it('delivers push notifications to a webhook registered while the task runs, the last one completed', async () => {
    const hook = await receiver();
    try {
      const { msg, started, release } = held('push later');
      const sending = rpc('message/send', { message: msg });
      const { taskId } = await started;
      const set = await rpc('tasks/pushNotificationConfig/set', {
        taskId,
        pushNotificationConfig: { url: `${hook.url}/held`, token: 'held-token' },
      });
      expect(set.result).toMatchObject({ taskId, pushNotificationConfig: { url: `${hook.url}/held` } });
      release();
      expect((await sending).result.status.state).toBe('completed');
      await hook.waitUntil((b) => b.status?.state === 'completed');
      const bodies = hook.received.map((r) => r.body);
      expect(bodies.every((b) => b.kind === 'task' && b.id === taskId)).toBe(true);
      expect(bodies.at(-1).status.state).toBe('completed');
      expect(bodies.at(-1).artifacts[0].parts[0]).toEqual({ kind: 'text', text: 'echo: push later' });
      expect(bodies.slice(0, -1).every((b) => b.status.state === 'working')).toBe(true);
      expect(hook.received.every((r) => r.url === '/held' && r.headers['x-a2a-notification-token'] === 'held-token')).toBe(true);
    } finally {
      await hook.close();
    }
  });

  it('serves sends with an inline push config, and with blocking: false, through the SDK handler', async () => {
    const sdkSend = vi.spyOn(DefaultRequestHandler.prototype, 'sendMessage');
    const hook = await receiver();
    try {
      const pushed = (
        await rpc('message/send', {
          message: message('inline push'),
          configuration: { blocking: true, pushNotificationConfig: { url: `${hook.url}/inline`, token: 'inline-token' } },
        })
      ).result;
      expect(pushed.status.state).toBe('completed');
      await hook.waitUntil((b) => b.status?.state === 'completed');
      expect(hook.received.at(-1)!.body).toMatchObject({
        kind: 'task',
        id: pushed.id,
        artifacts: [{ parts: [{ kind: 'text', text: 'echo: inline push' }] }],
      });
      expect(hook.received.every((r) => r.headers['x-a2a-notification-token'] === 'inline-token')).toBe(true);
    } finally {
      await hook.close();
    }
    // Non-blocking: the answer comes while the task is still held.
    const { msg, started, release } = held('later');
    const early = (await rpc('message/send', { message: msg, configuration: { blocking: false } })).result;
    expect(['submitted', 'working']).toContain(early.status.state);
    const { taskId } = await started;
    expect(taskId).toBe(early.id);
    const stream = await openStream('tasks/resubscribe', { id: taskId });
    expect((await stream.next()).result).toMatchObject({ kind: 'task', id: taskId });
    release();
    expect((await stream.rest()).at(-1).result).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
    const done = (await rpc('tasks/get', { id: taskId })).result;
    expect(done.status.state).toBe('completed');
    expect(done.artifacts[0].parts[0].text).toBe('echo: later');
    expect(sdkSend).toHaveBeenCalledTimes(2);
  });

  it('answers 50 concurrent sends each with its own completed task, as tasks/get stores it', async () => {
    const sent = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => (await rpc('message/send', { message: message(`n${i}`) })).result),
    );
    expect(new Set(sent.map((t) => t.id)).size).toBe(50);
    expect(new Set(sent.map((t) => t.contextId)).size).toBe(50);
    sent.forEach((t, i) => {
      expect(t.status.state).toBe('completed');
      expect(t.artifacts[0].parts[0].text).toBe(`echo: n${i}`);
      expect(t.history.map(textOf)).toEqual([`n${i}`, `echo: n${i}`]);
    });
    const got = await Promise.all(sent.map(async (t) => (await rpc('tasks/get', { id: t.id })).result));
    got.forEach((g, i) => {
      expect(g.status).toEqual(sent[i].status);
      expect(g.history).toEqual(sent[i].history);
      expect(g.artifacts).toEqual(sent[i].artifacts);
    });
  });
});

function userMessage(text: string): Message {
  const part = { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
  return {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
const partsText = (parts: Message['parts']) => parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('blocking SendMessage over v1.0 %s with the SDK client', (binding) => {
  it('returns the completed task with the answer; historyLength trims only the answer', async () => {
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
      preferredTransports: [binding],
    });
    const client: Client = await factory.createFromUrl(`${server.url}/agents/echo/.well-known/agent-card.json`, '');
    const task = (await client.sendMessage({
      tenant: '',
      message: userMessage(`hello ${binding}`),
      configuration: undefined,
      metadata: undefined,
    })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.map((a) => [a.name, partsText(a.parts)])).toEqual([['answer', `echo: hello ${binding}`]]);
    expect(task.history.map((m) => [m.role, partsText(m.parts)])).toEqual([
      [Role.ROLE_USER, `hello ${binding}`],
      [Role.ROLE_AGENT, `echo: hello ${binding}`],
    ]);
    expect(partsText(task.status!.message!.parts)).toBe(`echo: hello ${binding}`);
    const configuration = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, historyLength: 1, returnImmediately: false };
    const short = (await client.sendMessage({ tenant: '', message: userMessage('trimmed'), configuration, metadata: undefined })) as Task;
    expect(short.history.map((m) => m.role)).toEqual([Role.ROLE_AGENT]);
    const stored = await client.getTask({ tenant: '', id: short.id, historyLength: undefined });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(stored.history.map((m) => partsText(m.parts))).toEqual(['trimmed', 'echo: trimmed']);
  });
});

describe('blocking sends with a shared SQLite store', () => {
  it('are visible, completed with conversation and answer, on another server instance', async () => {
    const location = await sqliteTarget.createLocation();
    const store = await openStore(location.options);
    const runtime = fakeRuntime([echoAgent()]);
    const a = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => store });
    const b = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => store });
    try {
      const sent = (await rpc('message/send', { message: message('stored') }, a.url)).result;
      expect(sent.status.state).toBe('completed');
      const got = (await rpc('tasks/get', { id: sent.id }, b.url)).result;
      expect(got).toMatchObject({ id: sent.id, contextId: sent.contextId, status: { state: 'completed' } });
      expect(got.history.map((m: any) => [m.role, textOf(m)])).toEqual([
        ['user', 'stored'],
        ['agent', 'echo: stored'],
      ]);
      expect(got.artifacts).toEqual(sent.artifacts);
      expect(got.artifacts[0]).toMatchObject({ name: 'answer', parts: [{ kind: 'text', text: 'echo: stored' }] });
    } finally {
      await a.close();
      await b.close();
      await store.close();
      await location.drop();
    }
  });
});

describe('blocking sends and a store that copies what it saves', () => {
  // A database store keeps a copy of each save, so the handler must save the task's last state,
  // however the executor spaces its changes (the last ones may arrive while a save is finishing).
  it('stores the final state the send answers with, for any spacing of the last change', async () => {
    const { InMemoryPushNotificationStore, ServerCallContext } = await import('@a2a-js/sdk/server');
    const { WaitingBusManager } = await import('../../src/a2a/server/request-handler/waiting-bus-manager.js');
    const { Task: TaskCodec } = await import('@a2a-js/sdk');
    const { CorvidRequestHandler } = await import('../../src/a2a/server/request-handler/corvid-request-handler.js');
    const { BusSink } = await import('../../src/a2a/server/execution/task-sink.js');
    const { GuardedPushSender } = await import('../../src/a2a/server/push/guarded-push-sender.js');
    const { buildAgentCard } = await import('../../src/a2a/server/agent-card.js');
    const saved = new Map<string, unknown>();
    const taskStore = {
      save: async (t: Task) => void saved.set(t.id, JSON.parse(JSON.stringify(TaskCodec.toJSON(t)))),
      load: async (id: string) => (saved.has(id) ? TaskCodec.fromJSON(saved.get(id)) : undefined),
      list: async () => ({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }),
    };
    let gap = 0;
    const executor = {
      run: async (
        start: { taskId: string; contextId: string; userMessage: Message },
        sink: import('../../src/a2a/server/execution/task-sink.js').TaskSink,
      ) => {
        sink.start({
          id: start.taskId,
          contextId: start.contextId,
          status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
          artifacts: [],
          history: [start.userMessage],
          metadata: undefined,
        });
        for (let i = 0; i < gap; i++) await null;
        sink.status(TaskState.TASK_STATE_COMPLETED);
        sink.end(false);
      },
      // The SDK calls `execute` with the task's event bus, as CorvidAgentExecutor does with a BusSink.
      execute: async (
        ctx: { taskId: string; contextId: string; userMessage: Message },
        bus: import('@a2a-js/sdk/server').ExecutionEventBus,
      ) => {
        await executor.run(ctx, new BusSink(bus, ctx.taskId, ctx.contextId));
      },
      cancelTask: async () => undefined,
    };
    const pushStore = new InMemoryPushNotificationStore();
    const card = buildAgentCard({ name: 'copy', description: 'copy', baseUrl: 'http://127.0.0.1:1', version: '1' });
    const handler = new CorvidRequestHandler({
      card,
      taskStore,
      executor: executor as never,
      buses: new WaitingBusManager(),
      pushStore,
      sender: new GuardedPushSender({ store: pushStore }),
    });
    for (gap = 0; gap < 12; gap++) {
      const message: Message = {
        messageId: `gap-${gap}`,
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      const result = (await handler.sendMessage(
        { tenant: '', message, configuration: undefined, metadata: undefined },
        new ServerCallContext(),
      )) as Task;
      expect(result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect((await taskStore.load(result.id))?.status?.state, `gap of ${gap} microtasks`).toBe(TaskState.TASK_STATE_COMPLETED);
    }
  });
});
