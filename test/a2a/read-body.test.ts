import type { AddressInfo } from 'node:net';

import { serve, type ServerType } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

import { readRequestBody as readBody } from '../../src/http/read-body.js';

// The A2A routes read request bodies straight from the Node request when nothing else has touched
// it, and through the web Request otherwise. Either way the route must see the whole body, once.

let server: ServerType | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(before?: MiddlewareHandler): Promise<string> {
  const app = new Hono<{ Bindings: { incoming: unknown } }>();
  if (before) app.use(before);
  app.post('/echo', async (c) => {
    const body = await readBody(c.req.raw, 1000, c.env);
    return c.json(body.ok ? { text: body.text } : { reason: body.reason }, body.ok ? 200 : 413);
  });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
}

const post = async (url: string, body: string) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, json: await res.json() };
};

describe('readBody on @hono/node-server', () => {
  it('reads an untouched body, and refuses one over the limit', async () => {
    const url = await start();
    expect(await post(url, '{"a":1}')).toEqual({ status: 200, json: { text: '{"a":1}' } });
    expect(await post(url, 'x'.repeat(1001))).toEqual({ status: 413, json: { reason: 'too_large' } });
    expect(await post(url, 'ü'.repeat(100))).toEqual({ status: 200, json: { text: 'ü'.repeat(100) } });
  });

  it('reads the body after a middleware made the web Request (headers, signal) without reading it', async () => {
    const url = await start(async (c, next) => {
      void c.req.raw.headers.get('content-type');
      void c.req.raw.signal; // makes node-server build the full Request
      await next();
    });
    expect(await post(url, '{"b":2}')).toEqual({ status: 200, json: { text: '{"b":2}' } });
    expect(await post(url, '{"b":3}')).toEqual({ status: 200, json: { text: '{"b":3}' } });
  });

  it('reads the body after a middleware read a clone of it', async () => {
    let seen = '';
    const url = await start(async (c, next) => {
      seen = await c.req.raw.clone().text();
      await next();
    });
    expect(await post(url, '{"c":4}')).toEqual({ status: 200, json: { text: '{"c":4}' } });
    expect(seen).toBe('{"c":4}');
  });
});
