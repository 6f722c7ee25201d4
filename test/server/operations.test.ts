import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { StorageError } from '../../src/errors/storage-error.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, scriptedAgent, startServer } from './helpers.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('readiness', () => {
  it('answers 503 with the reason when the storage cannot be reached, 200 once it can', async () => {
    let up = false;
    const runtime = {
      ...runtimeOf([scriptedAgent('helper')], {
        config: {
          storage: {
            driver: 'postgres',
            url: 'postgres://127.0.0.1:1/x',
            checkpoints: { strategy: 'event', intervalMs: 5000 },
            resume: 'manual',
          },
        },
      }),
      store: async (): Promise<Store> => {
        if (!up) throw new StorageError('cannot reach Postgres at 127.0.0.1:1 (connection refused)', { kind: 'unavailable' });
        return { sessions: { list: async () => ({ sessions: [] }) } } as unknown as Store;
      },
    };
    const { server, url } = await startServer([], { runtime });
    try {
      const down = await fetch(`${url}/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({
        status: 'not_ready',
        checks: { config: 'ok', storage: expect.stringContaining('connection refused') },
      });
      expect((await fetch(`${url}/health`)).status).toBe(200);
      up = true;
      const ready = await fetch(`${url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { storage: 'ok' } });
    } finally {
      await server.close();
    }
  });
});

describe('CORS and body limits from the server settings', () => {
  it('allows configured origins only and limits bodies to max_body_bytes', async () => {
    const { server, url } = await startServer([scriptedAgent('helper')], {
      server: { cors: { origins: ['https://app.example'] }, maxBodyBytes: 1000 },
    });
    try {
      const pre = await fetch(`${url}/api/v1/agents/helper/chat`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const other = await fetch(`${url}/health`, { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const big = await chat(url, 'helper', { message: 'x'.repeat(2000) });
      expect(big.status).toBe(413);
      expect((await big.json()).error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('1000 bytes') });
      expect((await chat(url, 'helper', { message: 'small' })).status).toBe(200);
      // Without a content-length (chunked), the limit holds while reading.
      const chunked = (text: string) =>
        fetch(`${url}/api/v1/agents/helper/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new ReadableStream({
            start(controller) {
              for (let i = 0; i < text.length; i += 100) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 100)));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit);
      const streamedBig = await chunked(JSON.stringify({ message: 'y'.repeat(5000) }));
      expect(streamedBig.status).toBe(413);
      const streamedSmall = await chunked(JSON.stringify({ message: 'fine' }));
      expect(streamedSmall.status).toBe(200);
      // Other routes read their bodies with the same limit (A2A JSON-RPC here).
      const a2aBig = await fetch(`${url}/a2a/helper`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 50; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(100)));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(a2aBig.status).toBe(413);
    } finally {
      await server.close();
    }
  });
});

describe('TLS', () => {
  it.skipIf(!hasOpenssl())('serves HTTPS from the cert and key files (skipped without openssl)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const runtime = { ...runtimeOf([scriptedAgent('helper')]), configPath: join(dir, 'corvid.yaml') };
      const { server, url } = await startServer([], { runtime, server: { tls: { cert: 'cert.pem', key: 'key.pem' } } });
      try {
        expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        const body = await new Promise<string>((resolve, reject) => {
          request(`${url}/health`, { rejectUnauthorized: false }, (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve(text));
          })
            .on('error', reject)
            .end();
        });
        expect(JSON.parse(body)).toEqual({ status: 'ok' });
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('DNS rebinding protection', () => {
  it('without auth, answers only requests addressed to localhost names', async () => {
    const { server, url } = await startServer([scriptedAgent('helper')]);
    try {
      const port = new URL(url).port;
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          import('node:http').then(({ request: httpRequest }) =>
            httpRequest({ host: '127.0.0.1', port, path: '/api/v1/agents', headers: { host } }, (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            })
              .on('error', reject)
              .end(),
          );
        });
      expect(await status(`localhost:${port}`)).toBe(200);
      expect(await status(`127.0.0.1:${port}`)).toBe(200);
      expect(await status(`evil.example:${port}`)).toBe(403);
    } finally {
      await server.close();
    }
  });
});
