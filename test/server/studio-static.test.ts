/**
 * The Studio as a browser loads it from `corvid serve`: the real build, compressed with brotli or
 * gzip as the browser accepts, and an icon that loads without credentials on a server with auth.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningServer } from '../../src/server/app/serve.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { acceptedEncodings } from '../../src/server/studio/studio-static.js';
import { scriptedAgent, startServer } from './helpers.js';

/** A GET that keeps the body as sent (fetch would decompress it). */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'corvid-studio-static-'));

describe('the built Studio over HTTP', () => {
  let server: RunningServer;
  let url = '';
  let js = '';

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts/build-studio.mjs'), '--out', dir], { stdio: 'ignore' });
    js = readdirSync(join(dir, 'assets')).find((f) => /^studio-\w+\.js$/.test(f))!;
    ({ server, url } = await startServer([scriptedAgent('helper')], {
      studio: { dir },
      server: { auth: { apiKeys: [{ name: 'ci', hash: hashApiKey('secret-key') }] } },
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the script brotli-compressed to a browser that accepts br, a fraction of its size', async () => {
    const raw = readFileSync(join(dir, 'assets', js));
    const res = await rawGet(`${url}/studio/assets/${js}`, 'gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const body = res.body;
    expect(body.length).toBeLessThan(raw.length / 3);
    expect(brotliDecompressSync(body).equals(raw)).toBe(true);
  });

  it('sends gzip to a client without br, and the plain file to one that accepts neither', async () => {
    const raw = readFileSync(join(dir, 'assets', js));
    const gz = await rawGet(`${url}/studio/assets/${js}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(raw)).toBe(true);
    const plain = await rawGet(`${url}/studio/assets/${js}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);
  });

  it('compresses the page of client routes too', async () => {
    const res = await rawGet(`${url}/studio/sessions/abc`, 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).toString()).toContain('<title>Corvid Studio</title>');
  });

  it('answers /favicon.ico without credentials with the Studio icon', async () => {
    const res = await fetch(`${url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${url}/studio/favicon.svg`);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toContain('<svg');
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('rel="icon" href="./favicon.svg"');
    // The API still needs the key.
    expect((await fetch(`${url}/api/v1/agents`)).status).toBe(401);
  });

  it('reads Accept-Encoding with q-values', () => {
    expect(acceptedEncodings('gzip, br')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings('br;q=0, gzip;q=0.5')).toEqual(['gzip']);
    expect(acceptedEncodings('*')).toEqual(['br', 'gzip']);
    expect(acceptedEncodings(undefined)).toEqual([]);
  });
});
