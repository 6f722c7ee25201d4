/**
 * http_request against a local API (its host allowed by name through a stub resolver, or by
 * address): methods, headers and bodies arrive as sent; status, headers and body come back;
 * headers only the tool may set are ignored; credentials are not carried to another origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type HostLookup, webTools } from '../../../src/tools/web/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';
import { startPageServer } from './support.js';

const ctx = (): ToolContext => ({
  signal: new AbortController().signal,
  agent: 't',
  path: ['t'],
  runId: 'r',
  toolCallId: 'c',
  idempotencyKey: 'r:c',
  messages: [],
  state: undefined as never,
});
const lookup: HostLookup = async (name) =>
  ['api.test', 'v2.api.test', 'other.test'].includes(name) ? [{ address: '127.0.0.1', family: 4 }] : [];

let server: Awaited<ReturnType<typeof startPageServer>>;
let http: Tool;

beforeAll(async () => {
  server = await startPageServer({
    '/items': (req, res, body) =>
      res
        .writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-request-id': 'abc' })
        .end(req.method === 'HEAD' ? undefined : JSON.stringify({ method: req.method, got: body ? JSON.parse(body) : null })),
    '/text': (_q, res, body) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(`echo: ${body}`),
    '/binary': (_q, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3])),
    '/post-redirect': (_q, res) => res.writeHead(303, { location: '/items' }).end(),
    '/cross-origin': (_q, res) => res.writeHead(307, { location: `http://other.test:${server.port}/text` }).end(),
    '/same-origin': (_q, res) => res.writeHead(307, { location: '/text' }).end(),
  });
  http = webTools({ allowHosts: ['*.api.test', 'api.test', 'other.test'], lookup, maxChars: 1000 }).find((t) => t.name === 'http_request')!;
});
afterAll(() => server.close());

const url = (path: string, host = 'api.test') => `http://${host}:${server.port}${path}`;
const call = async (args: Record<string, unknown>) =>
  (await http.execute(args, ctx())) as {
    url: string;
    method: string;
    status: number;
    statusText: string;
    headers: Record<string, string>;
    body: string;
  };

describe('http_request', () => {
  it('sends method, headers and a JSON body, and returns status, headers and body', async () => {
    const res = await call({
      url: url('/items'),
      method: 'POST',
      headers: { 'X-Api-Key': 'k1', Accept: 'application/json' },
      json: { name: 'crow' },
    });
    expect(res).toMatchObject({
      url: url('/items'),
      method: 'POST',
      status: 201,
      statusText: 'Created',
      body: '{"method":"POST","got":{"name":"crow"}}',
    });
    expect(res.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'abc' });
    const sent = server.received.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', body: '{"name":"crow"}' });
    expect(sent.headers).toMatchObject({
      'x-api-key': 'k1',
      accept: 'application/json',
      'content-type': 'application/json',
      host: `api.test:${server.port}`,
    });
  });

  it('sends a text body, and matches subdomain wildcards', async () => {
    expect((await call({ url: url('/text', 'v2.api.test'), method: 'PUT', body: 'plain words' })).body).toBe('echo: plain words');
    expect(server.received.at(-1)).toMatchObject({ method: 'PUT', body: 'plain words' });
  });

  it('answers HEAD, describes binary bodies, and passes error statuses through as results', async () => {
    expect(await call({ url: url('/items'), method: 'HEAD' })).toMatchObject({ status: 200, body: '' });
    expect((await call({ url: url('/binary') })).body).toBe('(binary body: 4 bytes of application/octet-stream)');
    expect(await call({ url: url('/nothing') })).toMatchObject({ status: 404, statusText: 'Not Found', body: 'no such page' });
  });

  it('ignores headers only the tool sets (Host, Content-Length, Transfer-Encoding, Connection)', async () => {
    await call({
      url: url('/text'),
      method: 'POST',
      body: 'hi',
      headers: { Host: 'evil.test', 'Content-Length': '999', 'Transfer-Encoding': 'chunked', Connection: 'upgrade' },
    });
    const sent = server.received.at(-1)!;
    expect(sent.headers.host).toBe(`api.test:${server.port}`);
    expect(sent.headers['content-length']).toBe('2');
    expect(sent.body).toBe('hi');
  });

  it('turns a POST into a GET on 303, as browsers do', async () => {
    expect(await call({ url: url('/post-redirect'), method: 'POST', json: { a: 1 } })).toMatchObject({
      url: url('/items'),
      body: '{"method":"GET","got":null}',
    });
  });

  it('keeps credentials on a same-origin redirect and drops them on a cross-origin one', async () => {
    const headers = { Authorization: 'Bearer s3cret', Cookie: 'sid=1', 'X-Trace': 't' };
    await call({ url: url('/same-origin'), method: 'POST', body: 'x', headers });
    expect(server.received.at(-1)!.headers).toMatchObject({ authorization: 'Bearer s3cret', cookie: 'sid=1', 'x-trace': 't' });
    await call({ url: url('/cross-origin'), method: 'POST', body: 'x', headers });
    const last = server.received.at(-1)!;
    expect(last.headers.host).toBe(`other.test:${server.port}`);
    expect(last.headers.authorization).toBeUndefined();
    expect(last.headers.cookie).toBeUndefined();
    expect(last).toMatchObject({ method: 'POST', body: 'x', headers: { 'x-trace': 't' } });
  });

  it('rejects methods it does not know before sending anything', async () => {
    const { validateToolInput } = await import('../../../src/core/tool.js');
    expect(await validateToolInput(http, { url: url('/items'), method: 'TRACE' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^method: /),
    });
  });

  it('shows the approver the request it would send, credentials hidden', async () => {
    expect(
      await http.preview!({
        url: url('/items'),
        method: 'POST',
        headers: { Authorization: 'Bearer s3cret', 'X-Trace': 't' },
        json: { name: 'crow' },
      }),
    ).toBe(`POST ${url('/items')}\nAuthorization: …\nX-Trace: t\n\n{\n  "name": "crow"\n}`);
  });
});
