/**
 * A2A tasks, contexts, push configs and the session runs behind them belong to the caller that
 * created them: with `server.auth` on, user B gets "not found" for everything of user A's, in
 * v1.0 and v0.3, over JSON-RPC and HTTP+JSON, in memory and on every store, and across two
 * server instances sharing a database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { openStore } from '../../src/storage/open-store.js';
import type { Store } from '../../src/types/storage/store.js';
import { startServer } from '../server/helpers.js';
import { announceSkip, type Location, postgresTarget, sqliteTarget, type StoreTarget } from '../storage/support/targets.js';
import { echoModel } from './harness.js';

const KEYS = { a: 'key-of-user-a-0123456789', b: 'key-of-user-b-0123456789' };
const auth = {
  apiKeys: [
    { name: 'a', hash: hashApiKey(KEYS.a) },
    { name: 'b', hash: hashApiKey(KEYS.b) },
  ],
};
const NOT_FOUND = -32001;

type User = keyof typeof KEYS;

interface Backend {
  name: string;
  skip?: string;
  /** A store for one server (a second call gives another connection to the same database). */
  open?: () => Promise<Store>;
  drop?: () => Promise<void>;
}

function storeBackend(target: StoreTarget): Backend {
  let location: Location | undefined;
  return {
    name: target.name,
    skip: target.skip,
    open: async () => {
      location ??= await target.createLocation();
      return openStore(location.options);
    },
    drop: async () => location?.drop(),
  };
}

const backends: Backend[] = [{ name: 'memory (no store)' }, storeBackend(sqliteTarget), storeBackend(postgresTarget)];
for (const t of [sqliteTarget, postgresTarget]) announceSkip(t);

function client(url: string) {
  const headers = (user: User, version?: '1.0') => ({
    'content-type': 'application/json',
    'x-api-key': KEYS[user],
    ...(version ? { 'A2A-Version': version } : {}),
  });
  let n = 0;
  /** A JSON-RPC call; SSE answers are reduced to their first event's payload. */
  const rpc = async (user: User, version: '1.0' | '0.3', method: string, params: unknown) => {
    const res = await fetch(`${url}/a2a/echo`, {
      method: 'POST',
      headers: headers(user, version === '1.0' ? '1.0' : undefined),
      body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }),
    });
    const text = await res.text();
    if (res.headers.get('content-type')?.includes('text/event-stream')) {
      const data = text.split('\n').find((l) => l.startsWith('data:'));
      return JSON.parse(data!.slice(5)) as { result?: any; error?: { code: number; message: string } };
    }
    return JSON.parse(text) as { result?: any; error?: { code: number; message: string } };
  };
  const rest = async (user: User, version: '1.0' | '0.3', method: string, path: string, body?: unknown) => {
    const prefix = version === '1.0' ? '/rest' : '/rest/v1';
    const res = await fetch(`${url}/a2a/echo${prefix}${path}`, {
      method,
      headers: headers(user, version === '1.0' ? '1.0' : undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text };
  };
  const api = async (user: User, path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { 'x-api-key': KEYS[user] } });
    return { status: res.status, text: await res.text() };
  };
  return { rpc, rest, api };
}

const v1Message = (text: string, ids: { contextId?: string; taskId?: string } = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...ids },
});
const v03Message = (text: string, ids: { contextId?: string; taskId?: string } = {}) => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...ids },
});

describe.each(backends)('A2A ownership: $name', (backend) => {
  const servers: RunningServer[] = [];
  const stores: Store[] = [];
  let url = '';
  let second = '';

  const start = async () => {
    const store = backend.open ? await backend.open() : undefined;
    if (store) stores.push(store);
    const agent = new Agent({ name: 'echo', instructions: 'Echo.', model: echoModel() });
    const { server } = await startServer([agent], { server: { auth }, ...(store ? { store } : {}) });
    servers.push(server);
    return server.url;
  };

  beforeAll(async () => {
    if (backend.skip) return;
    url = await start();
    // With a store: a second instance on the same database.
    if (backend.open) second = await start();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const s of stores) await s.close();
    await backend.drop?.();
  });

  it.skipIf(backend.skip !== undefined)(
    "user B cannot see, continue, cancel, subscribe to or hook onto user A's tasks and contexts (v1.0 and v0.3, JSON-RPC and REST)",
    async () => {
      const { rpc, rest, api } = client(url);
      // A's tasks: one over v1.0, one over v0.3 (same context), and a push config on the first.
      const sent = await rpc('a', '1.0', 'SendMessage', v1Message('history: hello from A'));
      const taskA = sent.result.task;
      expect(taskA.status.state).toBe('TASK_STATE_COMPLETED');
      const contextA: string = taskA.contextId;
      const legacy = await rpc('a', '0.3', 'message/send', v03Message('history again', { contextId: contextA }));
      expect(legacy.result.status.state).toBe('completed');
      // The same conversation: the model saw A's two messages.
      expect(legacy.result.status.message.parts[0].text).toContain('seen 2 user messages');
      const taskA3: string = legacy.result.id;
      const hook = { taskId: taskA.id, id: 'hook-a', url: 'http://127.0.0.1:9/hook-a', token: 'token-of-a' };
      expect((await rpc('a', '1.0', 'CreateTaskPushNotificationConfig', hook)).error).toBeUndefined();

      for (const id of [taskA.id, taskA3]) {
        // v1.0 JSON-RPC
        for (const [method, params] of [
          ['GetTask', { id }],
          ['CancelTask', { id }],
          ['SubscribeToTask', { id }],
          ['CreateTaskPushNotificationConfig', { taskId: id, id: 'hook-b', url: 'http://127.0.0.1:9/hook-b' }],
          ['GetTaskPushNotificationConfig', { taskId: id, id: 'hook-a' }],
          ['ListTaskPushNotificationConfigs', { taskId: id }],
          ['DeleteTaskPushNotificationConfig', { taskId: id, id: 'hook-a' }],
          ['SendMessage', v1Message('let me in', { taskId: id })],
          ['SendStreamingMessage', v1Message('let me in', { taskId: id })],
        ] as const) {
          const r = await rpc('b', '1.0', method, params);
          expect(r.error?.code, `${method} v1.0`).toBe(NOT_FOUND);
        }
        // v0.3 JSON-RPC
        for (const [method, params] of [
          ['tasks/get', { id }],
          ['tasks/cancel', { id }],
          ['tasks/resubscribe', { id }],
          ['tasks/pushNotificationConfig/set', { taskId: id, pushNotificationConfig: { id: 'hook-b', url: 'http://127.0.0.1:9/hook-b' } }],
          ['tasks/pushNotificationConfig/get', { id, pushNotificationConfigId: 'hook-a' }],
          ['tasks/pushNotificationConfig/list', { id }],
          ['tasks/pushNotificationConfig/delete', { id, pushNotificationConfigId: 'hook-a' }],
          ['message/send', v03Message('let me in', { taskId: id })],
          ['message/stream', v03Message('let me in', { taskId: id })],
        ] as const) {
          const r = await rpc('b', '0.3', method, params);
          expect(r.error?.code, `${method} v0.3`).toBe(NOT_FOUND);
        }
        // v1.0 HTTP+JSON
        for (const [method, path, body] of [
          ['GET', `/tasks/${id}`],
          ['POST', `/tasks/${id}:cancel`],
          ['GET', `/tasks/${id}:subscribe`],
          ['POST', `/tasks/${id}/pushNotificationConfigs`, { url: 'http://127.0.0.1:9/hook-b' }],
          ['GET', `/tasks/${id}/pushNotificationConfigs`],
          ['GET', `/tasks/${id}/pushNotificationConfigs/hook-a`],
          ['DELETE', `/tasks/${id}/pushNotificationConfigs/hook-a`],
          ['POST', '/message:send', v1Message('let me in', { taskId: id })],
        ] as const) {
          const r = await rest('b', '1.0', method, path, body);
          expect(r.status, `${method} ${path} v1.0 REST: ${r.text}`).toBe(404);
        }
        // v0.3 HTTP+JSON
        for (const [method, path, body] of [
          ['GET', `/tasks/${id}`],
          ['POST', `/tasks/${id}:cancel`],
          [
            'POST',
            `/tasks/${id}/pushNotificationConfigs`,
            { name: `tasks/${id}/pushNotificationConfigs/hook-b`, pushNotificationConfig: { url: 'http://127.0.0.1:9/hook-b' } },
          ],
          ['GET', `/tasks/${id}/pushNotificationConfigs`],
          ['GET', `/tasks/${id}/pushNotificationConfigs/hook-a`],
          ['DELETE', `/tasks/${id}/pushNotificationConfigs/hook-a`],
        ] as const) {
          const r = await rest('b', '0.3', method, path, body);
          expect(r.status, `${method} ${path} v0.3 REST: ${r.text}`).toBe(404);
        }
      }

      // Joining A's context is refused (as an unknown task), on every binding.
      expect((await rpc('b', '1.0', 'SendMessage', v1Message('history', { contextId: contextA }))).error?.code).toBe(NOT_FOUND);
      expect((await rpc('b', '1.0', 'SendStreamingMessage', v1Message('history', { contextId: contextA }))).error?.code).toBe(NOT_FOUND);
      expect((await rpc('b', '0.3', 'message/send', v03Message('history', { contextId: contextA }))).error?.code).toBe(NOT_FOUND);
      expect((await rest('b', '1.0', 'POST', '/message:send', v1Message('history', { contextId: contextA }))).status).toBe(404);

      // Listing shows B nothing of A's.
      const listed = await rpc('b', '1.0', 'ListTasks', {});
      expect(listed.result.tasks).toEqual([]);
      expect((await rpc('b', '1.0', 'ListTasks', { contextId: contextA })).result.tasks).toEqual([]);
      expect(JSON.parse((await rest('b', '1.0', 'GET', '/tasks')).text).tasks ?? []).toEqual([]);

      // B's own task is B's; A's push config, untouched by B's delete attempts, is still there for A.
      const own = await rpc('b', '1.0', 'SendMessage', v1Message('history from B'));
      expect(own.result.task.status.message.parts[0].text).toContain('seen 1 user messages');
      expect((await rpc('b', '1.0', 'ListTasks', {})).result.tasks.map((t: { id: string }) => t.id)).toEqual([own.result.task.id]);
      expect((await rpc('a', '1.0', 'GetTask', { id: own.result.task.id })).error?.code).toBe(NOT_FOUND);
      const aList = (await rpc('a', '1.0', 'ListTasks', {})).result.tasks.map((t: { id: string }) => t.id).sort();
      expect(aList).toEqual([taskA.id, taskA3].sort());
      const hooks = await rpc('a', '1.0', 'ListTaskPushNotificationConfigs', { taskId: taskA.id });
      expect(hooks.result.configs.map((c: { id: string }) => c.id)).toEqual(['hook-a']);
      // A continues their own context as before.
      const more = await rpc('a', '1.0', 'SendMessage', v1Message('history third', { contextId: contextA }));
      expect(more.result.task.status.message.parts[0].text).toContain('seen 3 user messages');

      if (backend.open) {
        // The session and runs behind A's context are A's in the chat API too.
        expect((await api('b', `/api/v1/sessions/${contextA}`)).status).toBe(404);
        expect((await api('a', `/api/v1/sessions/${contextA}`)).status).toBe(200);
        expect((await api('b', '/api/v1/sessions')).text).not.toContain(contextA);
        const runsB = await api('b', '/api/v1/runs');
        expect(runsB.status).toBe(200);
        expect(runsB.text).not.toContain(contextA);
        expect((await api('a', '/api/v1/runs')).text).toContain(contextA);

        // Another instance on the same database answers the same.
        const other = client(second);
        expect((await other.rpc('b', '1.0', 'GetTask', { id: taskA.id })).error?.code).toBe(NOT_FOUND);
        expect((await other.rpc('b', '1.0', 'ListTasks', {})).result.tasks.map((t: { id: string }) => t.id)).toEqual([own.result.task.id]);
        expect((await other.rpc('a', '1.0', 'GetTask', { id: taskA.id })).result.id).toBe(taskA.id);
        expect((await other.rpc('b', '0.3', 'message/send', v03Message('history', { contextId: contextA }))).error?.code).toBe(NOT_FOUND);
      }
    },
  );

  // (Sessions exist only on a store.)
  if (backend.open)
    it.skipIf(backend.skip !== undefined)(
      'with auth on, sessions without an owner (made outside the server) are shown to no authenticated caller',
      async () => {
        const store = stores[0];
        const session = await store.sessions.create({ agent: 'echo' });
        await store.sessions.append(session.id, { message: { role: 'user', content: [{ type: 'text', text: 'cli secret' }] } });
        const { api, rpc } = client(url);
        for (const user of ['a', 'b'] as const) {
          expect((await api(user, `/api/v1/sessions/${session.id}`)).status).toBe(404);
          expect((await api(user, '/api/v1/sessions')).text).not.toContain(session.id);
          // Nor can it be continued over A2A as a context.
          expect((await rpc(user, '1.0', 'SendMessage', v1Message('history', { contextId: session.id }))).error?.code).toBe(NOT_FOUND);
        }
      },
    );
});
