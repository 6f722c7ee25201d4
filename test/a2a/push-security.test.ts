import { randomBytes } from 'node:crypto';

import { type StreamResponse, type TaskPushNotificationConfig, TaskState } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { callerOf } from '../../src/a2a/server/call-owner.js';
import { GuardedPushSender } from '../../src/a2a/server/push/guarded-push-sender.js';
import { MemoryPushNotificationStore } from '../../src/a2a/server/push/memory-push-store.js';
import { StorePushNotificationStore } from '../../src/a2a/server/push/store-push-notification-store.js';
import { SecretStore } from '../../src/secrets/index.js';
import { openStore } from '../../src/storage/index.js';
import { announceSkip, mysqlTarget, postgresTarget, sqliteTarget } from '../storage/support/targets.js';
import { echoAgent, fakeRuntime, startServer, type TestServer } from './harness.js';

const V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
const JSON_HEADERS = { 'content-type': 'application/json' };

/** URLs no webhook could ever be delivered to, and what the refusal says. */
const UNDELIVERABLE: Array<[string, string]> = [
  ['file:///etc/passwd', 'url must be http or https (got "file:")'],
  ['gopher://127.0.0.1:70/_x', 'url must be http or https (got "gopher:")'],
  ['ftp://127.0.0.1/x', 'url must be http or https (got "ftp:")'],
  ['javascript:alert(1)', 'url must be http or https (got "javascript:")'],
  [
    'http://u:pw-SECRET@127.0.0.1:9/x',
    "url must not contain credentials (user:password@); send them as the config's token or authentication",
  ],
  ['not a url', 'url "not a url" is not an absolute URL'],
  ['https://example.com/hook', 'host "example.com" is not in the server\'s allowed push hosts'],
];

describe('push configs are checked when they are registered', () => {
  let server: TestServer;
  let anyHost: TestServer;
  let taskId: string;
  const warnings: string[] = [];
  beforeAll(async () => {
    const runtime = fakeRuntime([echoAgent()]);
    server = await startServer({ runtime: () => runtime, visibility: () => 'public', logger: { warn: (m) => warnings.push(m) } });
    anyHost = await startServer({
      runtime: () => runtime,
      visibility: () => 'public',
      pushAllowedHosts: ['*'],
      logger: { warn: (m) => warnings.push(m) },
    });
    const res = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ message: { messageId: 'm0', role: 'ROLE_USER', parts: [{ text: 'hi' }] } }),
    });
    taskId = ((await res.json()) as any).task.id;
  });
  afterAll(async () => {
    await server.close();
    await anyHost.close();
  });

  const rpc = async (base: string, method: string, params: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    (await (
      await fetch(`${base}/a2a/echo`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
    ).json()) as any;
  const configs = async () =>
    ((await (await fetch(`${server.url}/a2a/echo/rest/tasks/${taskId}/pushNotificationConfigs`, { headers: V1 })).json()) as any).configs ??
    [];

  it('refuses undeliverable URLs over every binding with an invalid-params error naming the problem', async () => {
    for (const [url, problem] of UNDELIVERABLE) {
      // v1.0 HTTP+JSON
      const rest = await fetch(`${server.url}/a2a/echo/rest/tasks/${taskId}/pushNotificationConfigs`, {
        method: 'POST',
        headers: V1,
        body: JSON.stringify({ url, token: 'tok' }),
      });
      expect(rest.status, url).toBe(400);
      expect(((await rest.json()) as any).error.message).toBe(`Invalid push notification config: ${problem}`);
      // v1.0 JSON-RPC
      const v1 = await rpc(server.url, 'CreateTaskPushNotificationConfig', { taskId, url, token: 'tok' }, V1);
      expect(v1.error, url).toMatchObject({ code: -32602 });
      expect(v1.error.message).toContain(problem);
      // v0.3 JSON-RPC
      const v03 = await rpc(server.url, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url, token: 'tok' } });
      expect(v03.error, url).toMatchObject({ code: -32602 });
      expect(v03.error.message).toContain(problem);
      // v0.3 HTTP+JSON (the SDK's router, through the bridge)
      const legacyRest = await fetch(`${server.url}/a2a/echo/rest/v1/tasks/${taskId}/pushNotificationConfigs`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: `tasks/${taskId}/pushNotificationConfigs/c1`, pushNotificationConfig: { url, token: 'tok' } }),
      });
      expect(legacyRest.status, url).toBe(400);
      expect(((await legacyRest.json()) as any).message).toContain(problem);
    }
    expect(await configs()).toEqual([]);
    // Nothing refused is echoed back with its secret.
    const withCredentials = await rpc(server.url, 'tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: { url: 'http://u:pw-SECRET@127.0.0.1:9/x' },
    });
    expect(JSON.stringify(withCredentials)).not.toContain('pw-SECRET');
  });

  it('refuses an undeliverable inline config in a send or a streaming send, before any task starts', async () => {
    const message = (id: string) => ({ messageId: id, role: 'ROLE_USER', parts: [{ text: 'hello' }] });
    const inline = { url: 'file:///etc/passwd', token: 'tok' };
    const restSend = await fetch(`${server.url}/a2a/echo/rest/message:send`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ message: message('i1'), configuration: { taskPushNotificationConfig: inline } }),
    });
    expect(restSend.status).toBe(400);
    expect(((await restSend.json()) as any).error.message).toBe(
      'Invalid configuration.taskPushNotificationConfig: url must be http or https (got "file:")',
    );
    const restStream = await fetch(`${server.url}/a2a/echo/rest/message:stream`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ message: message('i2'), configuration: { taskPushNotificationConfig: inline } }),
    });
    expect(restStream.status).toBe(400);
    expect(((await restStream.json()) as any).error.message).toContain('url must be http or https');
    const v1 = await rpc(server.url, 'SendMessage', { message: message('i3'), configuration: { taskPushNotificationConfig: inline } }, V1);
    expect(v1.error).toMatchObject({
      code: -32602,
      message: 'Invalid configuration.taskPushNotificationConfig: url must be http or https (got "file:")',
    });
    const v03 = await rpc(server.url, 'message/send', {
      message: { kind: 'message', messageId: 'i4', role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
      configuration: { blocking: true, pushNotificationConfig: { url: 'gopher://127.0.0.1:70/_x' } },
    });
    expect(v03.error).toMatchObject({
      code: -32602,
      message: 'Invalid configuration.pushNotificationConfig: url must be http or https (got "gopher:")',
    });
    const v03Stream = await fetch(`${server.url}/a2a/echo`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'message/stream',
        params: {
          message: { kind: 'message', messageId: 'i5', role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
          configuration: { pushNotificationConfig: { url: 'http://example.com/x' } },
        },
      }),
    });
    expect(await v03Stream.text()).toContain('host \\"example.com\\" is not in the server\'s allowed push hosts');
    // No task was started by any of them.
    const tasks = ((await (await fetch(`${server.url}/a2a/echo/rest/tasks`, { headers: V1 })).json()) as any).tasks;
    expect(tasks.map((t: any) => t.id)).toEqual([taskId]);
  });

  it('accepts a loopback webhook by default, any http(s) host with "*", but never another scheme or credentials', async () => {
    const ok = await fetch(`${server.url}/a2a/echo/rest/tasks/${taskId}/pushNotificationConfigs`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', token: 'tok' }),
    });
    expect(ok.status).toBe(201);
    expect(((await configs()) as any[]).map((c) => c.url)).toEqual(['http://127.0.0.1:9/hook']);
    const res = await fetch(`${anyHost.url}/a2a/echo/rest/message:send`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ message: { messageId: 'a0', role: 'ROLE_USER', parts: [{ text: 'hi' }] } }),
    });
    const other = ((await res.json()) as any).task.id;
    const anywhere = await fetch(`${anyHost.url}/a2a/echo/rest/tasks/${other}/pushNotificationConfigs`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ url: 'https://hooks.example.com/x' }),
    });
    expect(anywhere.status).toBe(201);
    for (const url of ['file:///etc/passwd', 'http://u:p@hooks.example.com/x']) {
      const refused = await fetch(`${anyHost.url}/a2a/echo/rest/tasks/${other}/pushNotificationConfigs`, {
        method: 'POST',
        headers: V1,
        body: JSON.stringify({ url }),
      });
      expect(refused.status, url).toBe(400);
    }
  });

  it('still checks at delivery: a stored config with credentials or another scheme is skipped with a redacted warning', async () => {
    const store = new MemoryPushNotificationStore();
    const ctx = new ServerCallContext({ requestedVersion: '1.0' });
    const config = (id: string, url: string): TaskPushNotificationConfig => ({
      tenant: '',
      id,
      taskId: 't1',
      url,
      token: 'TOKEN-SECRET',
      authentication: undefined,
    });
    await store.save('t1', ctx, config('a', 'http://u:pw-SECRET@127.0.0.1:9/x?sig=QSECRET1'));
    await store.save('t1', ctx, config('b', 'file:///etc/passwd?QSECRET2'));
    const seen: string[] = [];
    const sender = new GuardedPushSender({ store, logger: { warn: (m) => seen.push(m) }, allowedHosts: ['*'] });
    await sender.send(statusUpdate('t1'), ctx);
    expect(seen).toEqual([
      "A2A push notification for task t1 to http://***@127.0.0.1:9/x not delivered: url must not contain credentials (user:password@); send them as the config's token or authentication",
      'A2A push notification for task t1 to file:///etc/passwd not delivered: url must be http or https (got "file:")',
    ]);
  });
});

function statusUpdate(taskId: string): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: {
        taskId,
        contextId: 'c',
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
        metadata: undefined,
      },
    },
  } as StreamResponse;
}

/** A call context of `name` (authenticated), or of an anonymous caller. */
function contextOf(name?: string): ServerCallContext {
  const user: User | undefined = name === undefined ? undefined : { isAuthenticated: true, userName: name };
  return new ServerCallContext({ requestedVersion: '1.0', user });
}

const config = (url: string): TaskPushNotificationConfig => ({
  tenant: '',
  id: 'cfg-1',
  taskId: 't1',
  url,
  token: 'tok-ALICE',
  authentication: { scheme: 'Bearer', credentials: 'cred-ALICE' },
});

describe('push config tokens', () => {
  it('callerOf names authenticated users only', () => {
    expect(callerOf(contextOf('alice'))).toBe('alice');
    expect(callerOf(contextOf())).toBe('');
    expect(callerOf(new ServerCallContext({ user: { isAuthenticated: false, userName: 'guest' } }))).toBe('');
  });

  it('in memory: the owner reads its token back, another user gets none', async () => {
    const store = new MemoryPushNotificationStore();
    await store.save('t1', contextOf('alice'), config('http://127.0.0.1:9/a'));
    const [mine] = await store.load('t1', contextOf('alice'));
    expect(mine).toMatchObject({
      url: 'http://127.0.0.1:9/a',
      token: 'tok-ALICE',
      authentication: { scheme: 'Bearer', credentials: 'cred-ALICE' },
    });
    expect(Object.keys(mine)).not.toContain('corvidOwner');
    expect(JSON.stringify(await store.load('t1', contextOf('bob')))).not.toMatch(/tok-ALICE|cred-ALICE/);
    // Delivery reads the config whole.
    const [delivered] = await store.loadWithMetadata('t1', contextOf('alice'));
    expect(delivered.config).toEqual({ ...config('http://127.0.0.1:9/a') });
  });

  for (const target of [sqliteTarget, postgresTarget, mysqlTarget]) {
    announceSkip(target);
    it.skipIf(target.skip !== undefined)(
      `in a ${target.name} store: encrypted at rest, given to the owner only, legacy records still load`,
      async () => {
        const location = await target.createLocation();
        const store = await openStore(location.options);
        try {
          const key = randomBytes(32);
          const push = new StorePushNotificationStore(store.state, 'echo', { sealer: () => SecretStore.open({ key }) });
          await push.save('t1', contextOf('alice'), config('http://127.0.0.1:9/a'));
          // The stored row has neither the token nor the credentials in clear.
          const rows = JSON.stringify(await location.rows('SELECT * FROM corvid_state'));
          expect(rows).toContain('a2a/push/echo/t1');
          expect(rows).toContain('http://127.0.0.1:9/a');
          expect(rows).not.toMatch(/tok-ALICE|cred-ALICE/);
          expect(rows).toContain('corvid-sealed:v1:');
          // The owner reads them back (through another instance with the same key); others do not.
          const again = new StorePushNotificationStore(store.state, 'echo', { sealer: () => SecretStore.open({ key }) });
          const [mine] = await again.load('t1', contextOf('alice'));
          expect(mine).toMatchObject({
            id: 'cfg-1',
            url: 'http://127.0.0.1:9/a',
            token: 'tok-ALICE',
            authentication: { scheme: 'Bearer', credentials: 'cred-ALICE' },
          });
          for (const other of [contextOf('bob'), contextOf()]) {
            const [theirs] = await again.load('t1', other);
            expect(theirs).toMatchObject({
              id: 'cfg-1',
              url: 'http://127.0.0.1:9/a',
              token: '',
              authentication: { scheme: 'Bearer', credentials: '' },
            });
          }
          // Delivery gets the secrets whatever the context.
          expect((await again.loadWithMetadata('t1', contextOf('bob')))[0].config.token).toBe('tok-ALICE');
          // Another key cannot open them, and says so.
          const wrongKey = new StorePushNotificationStore(store.state, 'echo', {
            sealer: () => SecretStore.open({ key: randomBytes(32) }),
          });
          await expect(wrongKey.loadWithMetadata('t1', contextOf('alice'))).rejects.toThrow(
            /encrypted with a different key .*CORVID_SECRET_KEY/,
          );
          // Delivery from a server with another key sends nothing and says why.
          const seen: string[] = [];
          await new GuardedPushSender({ store: wrongKey, logger: { warn: (m) => seen.push(m) } }).send(
            statusUpdate('t1'),
            contextOf('alice'),
          );
          expect(seen).toHaveLength(1);
          expect(seen[0]).toMatch(
            /^A2A push notifications for task t1 not sent: its push configs cannot be read: The value of A2A push config echo\/t1\/cfg-1 was encrypted with a different key/,
          );
          // Its owner still sees the config, without what cannot be decrypted.
          expect((await wrongKey.load('t1', contextOf('alice')))[0]).toMatchObject({
            url: 'http://127.0.0.1:9/a',
            token: '',
            authentication: { credentials: '' },
          });
          // A record written before tokens were encrypted (clear text, no owner) still loads.
          await store.state.set('app', 'a2a/push/echo/t2', {
            old: { config: { id: 'old', taskId: 't2', url: 'http://127.0.0.1:9/old', token: 'legacy-token' }, wireVersion: '0.3' },
          });
          expect(await again.loadWithMetadata('t2', contextOf('bob'))).toEqual([
            { config: expect.objectContaining({ id: 'old', token: 'legacy-token' }), wireVersion: '0.3' },
          ]);
          expect((await again.load('t2', contextOf('alice')))[0].token).toBe('');
          expect((await again.load('t2', contextOf()))[0].token).toBe('legacy-token');
          // A config without secrets needs no key at all.
          const keyless = new StorePushNotificationStore(store.state, 'echo', { sealer: () => Promise.reject(new Error('no key wanted')) });
          await keyless.save('t3', contextOf('alice'), { ...config('http://127.0.0.1:9/c'), token: '', authentication: undefined });
          expect((await keyless.load('t3', contextOf('alice')))[0].url).toBe('http://127.0.0.1:9/c');
        } finally {
          await store.close();
          await location.drop();
        }
      },
    );
  }
});
