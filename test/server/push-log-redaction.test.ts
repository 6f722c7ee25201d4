import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningServer } from '../../src/server/app/serve.js';
import { openStore } from '../../src/storage/index.js';
import type { Store } from '../../src/types/storage/store.js';
import { type LogSink, scriptedAgent, startServer } from './helpers.js';

// A real `corvid serve` (serve()) with its pino logs captured and a SQLite store: secrets planted
// in a webhook's URL and token never reach the logs or the database in clear.

const SECRETS = ['pw-SECRET', 'QSECRET1', 'TOKEN-SECRET-9'];

describe('push notification secrets and the server logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-push-logs-'));
  const saved = { home: process.env.CORVID_HOME, key: process.env.CORVID_SECRET_KEY };
  let hook: Server;
  let hookUrl: string;
  const received: Array<{ url: string; token: string | undefined }> = [];
  let store: Store;
  let server: RunningServer;
  let logs: LogSink;

  beforeAll(async () => {
    // The push-token key comes from Corvid's usual place: the key file in $CORVID_HOME.
    process.env.CORVID_HOME = join(dir, 'home');
    delete process.env.CORVID_SECRET_KEY;
    // A webhook that refuses every notification (HTTP 400: not retried), so the server warns.
    hook = createServer((req, res) => {
      received.push({ url: req.url ?? '', token: req.headers['x-a2a-notification-token'] as string | undefined });
      req.resume().on('end', () => res.writeHead(400).end());
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    store = await openStore({ driver: 'sqlite', path: join(dir, 'corvid.db') });
    ({ server, logs } = await startServer([scriptedAgent('echo', { text: 'done' })], { store }));
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await new Promise((r) => hook.close(r));
    if (saved.home === undefined) delete process.env.CORVID_HOME;
    else process.env.CORVID_HOME = saved.home;
    if (saved.key !== undefined) process.env.CORVID_SECRET_KEY = saved.key;
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (messageId: string, push: Record<string, unknown>) =>
    fetch(`${server.url}/a2a/echo/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        message: { messageId, role: 'ROLE_USER', parts: [{ text: 'hi' }] },
        configuration: { taskPushNotificationConfig: push },
      }),
    });

  it('warns about a failed delivery without the URL credentials, query string or token', async () => {
    // Credentials in the URL can never be delivered: refused at registration, without echoing them.
    const refused = await send('m-cred', {
      url: `http://u:pw-SECRET@127.0.0.1:${new URL(hookUrl).port}/x?sig=QSECRET1`,
      token: 'TOKEN-SECRET-9',
    });
    expect(refused.status).toBe(400);
    const refusal = JSON.stringify(await refused.json());
    expect(refusal).toContain('url must not contain credentials');
    for (const secret of SECRETS) expect(refusal).not.toContain(secret);

    const res = await send('m-push', { url: `${hookUrl}/x?sig=QSECRET1`, token: 'TOKEN-SECRET-9' });
    expect(res.status).toBe(200);
    const task = ((await res.json()) as any).task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const warning = await logs.waitFor((l) => typeof l.msg === 'string' && l.msg.includes(`A2A push notification for task ${task.id}`));
    expect(warning).toMatchObject({ level: 40, msg: `A2A push notification for task ${task.id} to ${hookUrl}/x failed: HTTP 400` });
    // The webhook did get the token and query: only the logs leave them out.
    expect(received.some((r) => r.url === '/x?sig=QSECRET1' && r.token === 'TOKEN-SECRET-9')).toBe(true);

    // Errors logged by the server (an `err` with its cause, a message) lose URL secrets as well.
    const fetchError = await fetch(`http://u:pw-SECRET@127.0.0.1:9/x?sig=QSECRET1`).catch((e: unknown) => e);
    expect(String((fetchError as Error).message)).toContain('pw-SECRET');
    server.logger.error({ err: new Error('wrapped', { cause: fetchError }), url: `${hookUrl}/y?sig=QSECRET1` }, 'request failed');
    server.logger.warn(`could not reach http://u:pw-SECRET@127.0.0.1:9/z?sig=QSECRET1 (${(fetchError as Error).message})`);
    const errLine = await logs.waitFor((l) => l.msg === 'request failed');
    expect(JSON.stringify(errLine)).toContain('includes credentials: http://***@127.0.0.1:9/x');
    expect(errLine.url).toBe(`${hookUrl}/y`);
    expect(logs.lines.at(-1)!.msg).toBe(
      'could not reach http://***@127.0.0.1:9/z (Request cannot be constructed from a URL that includes credentials: http://***@127.0.0.1:9/x)',
    );

    for (const secret of SECRETS) expect(logs.raw).not.toContain(secret);
  });

  it('keeps the push token encrypted in the database, with the key file Corvid uses for its secrets', async () => {
    const files = readdirSync(dir).filter((f) => f.startsWith('corvid.db'));
    expect(files).toContain('corvid.db');
    const bytes = files.map((f) => readFileSync(join(dir, f)).toString('latin1')).join('');
    expect(bytes).toContain('a2a/push/echo/');
    expect(bytes).not.toContain('TOKEN-SECRET-9');
    const keyFile = join(dir, 'home', 'secret.key');
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });
});
