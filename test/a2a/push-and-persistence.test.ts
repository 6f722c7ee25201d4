import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { GuardedPushSender } from '../../src/a2a/server/push/guarded-push-sender.js';
import { MemoryPushNotificationStore } from '../../src/a2a/server/push/memory-push-store.js';
import { SecretStore } from '../../src/secrets/index.js';
import { openStore } from '../../src/storage/index.js';
import type { Store } from '../../src/types/storage/store.js';
import { announceSkip, mysqlTarget, postgresTarget, sqliteTarget } from '../storage/support/targets.js';
import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A webhook receiver on 127.0.0.1 that fails the first `failFirst` deliveries with 503. */
async function receiver(
  failFirst = 0,
): Promise<{ url: string; received: Received[]; waitFor(n: number): Promise<void>; close(): Promise<void> }> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let failures = 0;
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      if (failures < failFirst) {
        failures++;
        res.writeHead(503).end();
        return;
      }
      received.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(data) });
      waiters.forEach((w) => w());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    waitFor: (n) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.length >= n) resolve();
        };
        waiters.push(check);
        check();
      }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const states = (r: Received[]) =>
  r.map((x) => x.body.statusUpdate?.status?.state ?? x.body.status?.state ?? x.body.task?.status?.state).filter(Boolean);

describe('push notifications', () => {
  let server: TestServer;
  const warnings: string[] = [];
  beforeAll(async () => {
    const runtime = fakeRuntime([echoAgent()]);
    server = await startServer({ runtime: () => runtime, visibility: () => 'public', logger: { warn: (m) => warnings.push(m) } });
  });
  afterAll(() => server.close());
  afterEach(() => vi.restoreAllMocks());

  it('POSTs every task event to a v1.0 webhook, in order, with its token, retrying failures', async () => {
    const hook = await receiver(2);
    try {
      const res = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({
          message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'push me' }] },
          configuration: { taskPushNotificationConfig: { url: `${hook.url}/hook`, token: 'secret-token' }, returnImmediately: true },
        }),
      });
      expect(res.status).toBe(200);
      const task = ((await res.json()) as any).task;
      await hook.waitFor(1);
      // Wait until the completed notification arrives.
      await vi.waitFor(() => expect(states(hook.received)).toContain('TASK_STATE_COMPLETED'), { timeout: 10_000 });
      expect(hook.received.every((r) => r.headers['x-a2a-notification-token'] === 'secret-token')).toBe(true);
      expect(hook.received.every((r) => r.url === '/hook')).toBe(true);
      const s = states(hook.received);
      expect(s.at(-1)).toBe('TASK_STATE_COMPLETED');
      expect(s.indexOf('TASK_STATE_WORKING')).toBeLessThan(s.indexOf('TASK_STATE_COMPLETED'));
      expect(JSON.stringify(hook.received)).toContain(task.id);
    } finally {
      await hook.close();
    }
  });

  it('delivers v0.3-shaped bodies to a webhook registered over v0.3', async () => {
    const hook = await receiver();
    try {
      const rpc = (method: string, params: unknown) =>
        fetch(`${server.url}/a2a/echo`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        }).then((r) => r.json() as Promise<any>);
      const sent = await rpc('message/send', {
        message: { kind: 'message', messageId: 'x', role: 'user', parts: [{ kind: 'text', text: 'hello push' }] },
        configuration: { blocking: true, pushNotificationConfig: { url: `${hook.url}/v03`, token: 't03' } },
      });
      expect(sent.result.status.state).toBe('completed');
      // v0.3 webhooks receive the whole task (kind "task") after each change.
      await vi.waitFor(() => expect(hook.received.some((r) => r.body.status?.state === 'completed')).toBe(true), { timeout: 10_000 });
      expect(hook.received.every((r) => r.body.kind === 'task' && r.body.id === sent.result.id)).toBe(true);
      expect(hook.received[0].body.status.state).toBe('submitted');
      expect(hook.received.at(-1)!.body.artifacts[0].parts[0]).toEqual({ kind: 'text', text: 'echo: hello push' });
      expect(hook.received.every((r) => r.headers['x-a2a-notification-token'] === 't03')).toBe(true);
    } finally {
      await hook.close();
    }
  });

  it('refuses a webhook on a host outside the allow-list when it is registered', async () => {
    const res = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'to the outside' }] },
        configuration: { taskPushNotificationConfig: { url: 'https://example.com/webhook', token: 'nope' } },
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.message).toContain('host "example.com" is not in the server\'s allowed push hosts');
    expect(JSON.stringify(body)).not.toContain('nope');
  });

  it('never contacts a stored webhook whose host is not allowed (checked again at delivery)', async () => {
    const original = globalThis.fetch;
    const contacted: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      contacted.push(String(input instanceof Request ? input.url : input));
      return original(input, init);
    });
    // As if registered while the host was allowed: the sender checks every delivery.
    const store = new MemoryPushNotificationStore();
    const ctx = new ServerCallContext({ requestedVersion: '1.0' });
    await store.save('t-out', ctx, {
      tenant: '',
      id: 'c1',
      taskId: 't-out',
      url: 'https://example.com/webhook?sig=QS',
      token: 'nope',
      authentication: undefined,
    });
    const seen: string[] = [];
    const sender = new GuardedPushSender({ store, logger: { warn: (m) => seen.push(m) } });
    const update = {
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: 't-out',
          contextId: 'c',
          status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
          metadata: undefined,
        },
      },
    } as StreamResponse;
    await sender.send(update, ctx);
    expect(seen).toEqual([
      'A2A push notification for task t-out to https://example.com/webhook not delivered: host "example.com" is not in the server\'s allowed push hosts',
    ]);
    expect(contacted).toEqual([]);
  });
});

async function sendAndGet(server: TestServer, text: string): Promise<any> {
  const res = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], contextId: 'ctx-shared' } }),
  });
  return ((await res.json()) as any).task;
}

/** `store` with its state reads of A2A tasks and listings of cancel marks counted. */
function counted(store: Store): { store: Store; counts: { taskReads: string[]; markLists: number } } {
  const counts = { taskReads: [] as string[], markLists: 0 };
  const state = store.state;
  const countedState: Store['state'] = {
    get: (scope, key) => (key.startsWith('a2a/task/') && counts.taskReads.push(key.slice(key.lastIndexOf('/') + 1)), state.get(scope, key)),
    set: (scope, key, value) => state.set(scope, key, value),
    delete: (scope, key) => state.delete(scope, key),
    list: (scope, options) => ((counts.markLists += options?.prefix?.startsWith('a2a/cancel/') ? 1 : 0), state.list(scope, options)),
  };
  const proxy = new Proxy(store, {
    get: (target, key) => {
      if (key === 'state') return countedState;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, counts };
}

const SHARED_KEY = randomBytes(32);

async function sharedStoreSuite(open: () => Promise<Store>): Promise<void> {
  const storeA = await open();
  const storeB = await open();
  const runtime = fakeRuntime([echoAgent()]);
  const quiet = { warn: () => undefined };
  // Every instance on the database has the same key for push tokens (CORVID_SECRET_KEY in production).
  const secrets = () => SecretStore.open({ key: SHARED_KEY });
  const { store: watchedA, counts } = counted(storeA);
  const a = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => watchedA, logger: quiet, secrets });
  const b = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => storeB, secrets });
  try {
    const task = await sendAndGet(a, 'persist me');
    // Another instance on the same database sees the task, its artifacts and the conversation.
    const got = await fetch(`${b.url}/a2a/echo/rest/tasks/${task.id}`, { headers: { 'A2A-Version': '1.0' } });
    expect(got.status).toBe(200);
    const seen = (await got.json()) as any;
    expect(seen.status.state).toBe('TASK_STATE_COMPLETED');
    expect(seen.artifacts[0].parts[0].text).toBe('echo: persist me');
    // Push configs too: registered on one instance, listed on the other.
    const created = await fetch(`${a.url}/a2a/echo/rest/tasks/${task.id}/pushNotificationConfigs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', token: 'push-token-1' }),
    });
    expect(created.status).toBe(201);
    const configs = await fetch(`${b.url}/a2a/echo/rest/tasks/${task.id}/pushNotificationConfigs`, { headers: { 'A2A-Version': '1.0' } });
    expect(((await configs.json()) as any).configs.map((c: any) => [c.url, c.token])).toEqual([
      ['http://127.0.0.1:9/hook', 'push-token-1'],
    ]);
    // The token is stored encrypted.
    expect(JSON.stringify(await storeB.state.get('app', `a2a/push/echo/${task.id}`))).not.toContain('push-token-1');
    const second = await sendAndGet(b, 'history?');
    expect(second.artifacts[0].parts[0].text).toBe('I have seen 2 user messages');
    const session = await storeA.sessions.get('ctx-shared');
    expect(session?.agent).toBe('echo');
    const listed = await fetch(`${a.url}/a2a/echo/rest/tasks?contextId=ctx-shared`, { headers: { 'A2A-Version': '1.0' } });
    expect(((await listed.json()) as any).tasks.map((t: any) => t.id).sort()).toEqual([task.id, second.id].sort());
    // Tasks running on A, canceled through B: their runs on A stop too (their contexts are free
    // again). A looks for cancellations with one query per second for all its running tasks,
    // not one read per task.
    const send = (server: TestServer, text: string, contextId: string, returnImmediately = false) =>
      fetch(`${server.url}/a2a/echo/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({
          message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], contextId },
          configuration: { returnImmediately },
        }),
        signal: AbortSignal.timeout(10_000), // a slow run would hold its context for 60 s
      }).then(async (r) => ((await r.json()) as any).task);
    const cancel = async (id: string) => {
      const res = await fetch(`${b.url}/a2a/echo/rest/tasks/${id}:cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: '{}',
      });
      expect(((await res.json()) as any).status.state).toBe('TASK_STATE_CANCELED');
    };
    const slow = await Promise.all([0, 1, 2, 3].map((i) => send(a, 'slow', `ctx-cancel-${i}`, true)));
    // Once all four are working, the SDK on A (which reloads a task for each of its events) is done with them.
    const stateOn = async (server: TestServer, id: string) =>
      ((await (await fetch(`${server.url}/a2a/echo/rest/tasks/${id}`, { headers: { 'A2A-Version': '1.0' } })).json()) as any).status.state;
    await vi.waitFor(
      async () => {
        for (const t of slow) expect(await stateOn(b, t.id)).toBe('TASK_STATE_WORKING');
      },
      { timeout: 5000 },
    );
    counts.taskReads = [];
    counts.markLists = 0;
    await cancel(slow[0].id);
    const after = await send(a, 'after the cancel', 'ctx-cancel-0');
    expect(after.status.state).toBe('TASK_STATE_COMPLETED');
    expect(counts.markLists).toBeGreaterThan(0);
    // Only the canceled task is read (to record how its run ended), besides the new send's own
    // task (the SDK reloads the task it runs for each of its events); the tasks still running are not.
    expect(counts.taskReads.filter((id) => id !== slow[0].id && id !== after.id)).toEqual([]);
    await Promise.all(slow.slice(1).map((t) => cancel(t.id)));
    for (const i of [1, 2, 3]) expect((await send(a, 'after the cancel', `ctx-cancel-${i}`)).status.state).toBe('TASK_STATE_COMPLETED');
    // Each mark was taken by the instance that ran its task.
    expect(await storeB.state.list('app', { prefix: 'a2a/cancel/' })).toEqual([]);
  } finally {
    await a.close();
    await b.close();
  }
  // A restart: a fresh instance on a fresh connection still has the task.
  await storeA.close();
  const storeC = await open();
  const c = await startServer({ runtime: () => runtime, visibility: () => 'public', store: async () => storeC });
  try {
    const list = await fetch(`${c.url}/a2a/echo/rest/tasks?contextId=ctx-shared`, { headers: { 'A2A-Version': '1.0' } });
    expect(((await list.json()) as any).tasks).toHaveLength(2);
  } finally {
    await c.close();
    await storeB.close();
    await storeC.close();
  }
}

describe('tasks persisted through the storage layer', () => {
  // Two server instances on one database (SQLite file, Postgres schema, MySQL database), then a third after a "restart".
  for (const target of [sqliteTarget, postgresTarget, mysqlTarget]) {
    announceSkip(target);
    it.skipIf(target.skip !== undefined)(`are shared by two instances on one ${target.name} database and survive a restart`, async () => {
      const location = await target.createLocation();
      try {
        await sharedStoreSuite(() => openStore(location.options));
      } finally {
        await location.drop();
      }
    });
  }
});
