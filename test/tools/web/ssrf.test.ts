/**
 * Escape tests of the SSRF guard. Every refusal happens before a connection: a tripwire on the
 * http/https agents records each address a request connects to and stops any that is not
 * 127.0.0.1 / ::1, so a guard failure shows up as an escape (and never leaves the machine).
 * Names are resolved by stub lookups; the only real server is on 127.0.0.1.
 */
import { gzipSync } from 'node:zlib';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { Agent } from '../../../src/core/agent.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { type HostLookup, webTools, type WebToolsOptions } from '../../../src/tools/web/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';
import { installTripwire, startPageServer } from './support.js';

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
const BLOCKED =
  /^Refused: .* is an? (loopback|private|link-local|metadata|unspecified|multicast|reserved) address\. Requests to loopback, private, link-local and cloud metadata addresses are blocked/;

let server: Awaited<ReturnType<typeof startPageServer>>;
let wire: ReturnType<typeof installTripwire>;
const lookups: string[] = [];

/** A resolver stub: `names` maps a host name to its addresses; the call is recorded. */
const stubLookup =
  (names: Record<string, string[] | (() => string[])>): HostLookup =>
  async (hostname) => {
    lookups.push(hostname);
    const entry = names[hostname];
    if (!entry) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (typeof entry === 'function' ? entry() : entry).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const tools = (options: WebToolsOptions = {}): Record<string, Tool> =>
  Object.fromEntries(webTools({ timeoutMs: 5_000, ...options }).map((t) => [t.name, t]));
const fetchUrl = async (url: string, options: WebToolsOptions = {}): Promise<unknown> => tools(options).web_fetch.execute({ url }, ctx());

beforeAll(async () => {
  server = await startPageServer({
    '/': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('secret admin page'),
    '/to-loopback': (_q, res) => res.writeHead(302, { location: `http://127.0.0.1:${server.port}/` }).end(),
    '/to-ipv6-loopback': (_q, res) => res.writeHead(301, { location: `http://[::1]:${server.port}/` }).end(),
    '/to-metadata': (_q, res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/to-private': (_q, res) => res.writeHead(308, { location: 'http://10.1.2.3/' }).end(),
    '/to-rebound-name': (_q, res) => res.writeHead(302, { location: `http://internal.test:${server.port}/` }).end(),
    '/to-file': (_q, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/to-other-host': (_q, res) => res.writeHead(302, { location: `http://other.test:${server.port}/` }).end(),
    '/loop': (_q, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/big': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4096' }).end('x'.repeat(4096)),
    '/big-chunked': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 8; i++) res.write('y'.repeat(1024));
      res.end();
    },
    '/bomb': (_q, res) =>
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x61))),
    '/slow-headers': () => undefined, // never answers
    '/slow-body': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part…'); // and nothing more
    },
  });
});
afterAll(() => server.close());
beforeAll(() => {
  wire = installTripwire();
  return () => wire.restore();
});
let attemptsBefore = 0;
/** Addresses connected to since the test started. */
const newAttempts = () => wire.attempts.slice(attemptsBefore);
beforeEach(() => {
  attemptsBefore = wire.attempts.length;
});
afterEach(() => {
  expect(wire.escapes).toEqual([]);
});

describe('the tripwire', () => {
  it('stops (and counts) a connection the guard lets through, before any packet leaves', async () => {
    await expect(fetchUrl('http://10.255.255.1/', { allowHosts: ['10.0.0.0/8'] })).rejects.toThrow(
      'tripwire: connection to 10.255.255.1 stopped',
    );
    expect(wire.escapes).toEqual(['10.255.255.1']);
    wire.escapes.length = 0;
  });
});

describe('addresses refused before any connection', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['IPv4 loopback', 'http://127.0.0.1:{port}/', /"127\.0\.0\.1" is a loopback address/],
    ['another 127/8 address', 'http://127.5.6.7/', /is a loopback address/],
    ['IPv6 loopback', 'http://[::1]:{port}/', /"\[::1\]" is a loopback address/],
    ['RFC 1918 10/8', 'http://10.0.0.1/', /is a private address/],
    ['RFC 1918 172.16/12', 'http://172.16.5.4/', /is a private address/],
    ['RFC 1918 192.168/16', 'http://192.168.1.1/', /is a private address/],
    ['CGNAT 100.64/10', 'http://100.64.0.1/', /is a private address/],
    ['IPv6 unique local', 'http://[fd12:3456::1]/', /is a private address/],
    ['IPv4 link-local', 'http://169.254.1.1/', /is a link-local address/],
    ['IPv6 link-local', 'http://[fe80::1]/', /is a link-local address/],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', /is a metadata address/],
    ['AWS IPv6 metadata', 'http://[fd00:ec2::254]/', /is a metadata address/],
    ['unspecified 0.0.0.0', 'http://0.0.0.0:{port}/', /is an unspecified address/],
    ['unspecified ::', 'http://[::]/', /is an unspecified address/],
    ['IPv4 multicast', 'http://224.0.0.1/', /is a multicast address/],
    ['IPv6 multicast', 'http://[ff02::1]/', /is a multicast address/],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:{port}/', /"\[::ffff:7f00:1\]" is a loopback address/],
    ['IPv4-mapped IPv6 metadata (hex)', 'http://[::ffff:a9fe:a9fe]/', /is a metadata address/],
    ['NAT64 of the metadata address', 'http://[64:ff9b::169.254.169.254]/', /is a metadata address/],
    ['6to4 of a private address', 'http://[2002:c0a8:101::1]/', /is a private address/],
    ['decimal IPv4', 'http://2130706433:{port}/', /"127\.0\.0\.1" is a loopback address/],
    ['octal IPv4', 'http://0177.0.0.1:{port}/', /"127\.0\.0\.1" is a loopback address/],
    ['hex IPv4', 'http://0x7f.0.0.1:{port}/', /"127\.0\.0\.1" is a loopback address/],
    ['hex IPv4 as one number', 'http://0xa9fea9fe/', /"169\.254\.169\.254" is a metadata address/],
    ['short IPv4', 'http://127.1:{port}/', /"127\.0\.0\.1" is a loopback address/],
    ['short private IPv4', 'http://10.1/', /"10\.0\.0\.1" is a private address/],
    ['broadcast', 'http://255.255.255.255/', /is a reserved address/],
  ];
  it.each(cases)('%s: %s', async (_name, template, message) => {
    const before = server.received.length;
    const error = await fetchUrl(template.replace('{port}', String(server.port))).then(
      (): Error | undefined => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(BLOCKED);
    expect(error?.message).toMatch(message);
    expect(server.received.length).toBe(before);
    expect(newAttempts()).toEqual([]);
  });

  it('metadata stays refused with allowPrivate, and with a listed name resolving to it', async () => {
    await expect(fetchUrl('http://169.254.169.254/', { allowPrivate: true })).rejects.toThrow(/is a metadata address/);
    const lookup = stubLookup({ 'meta.test': ['169.254.169.254'] });
    await expect(fetchUrl('http://meta.test/', { allowHosts: ['meta.test'], lookup })).rejects.toThrow(
      /host "meta\.test" resolves to 169\.254\.169\.254, which is a metadata address/,
    );
  });

  it('refuses non-http schemes and credentials in the URL', async () => {
    await expect(fetchUrl('file:///etc/passwd')).rejects.toThrow('Refused file URL: only http and https URLs can be fetched');
    await expect(fetchUrl('ftp://example.com/')).rejects.toThrow('Refused ftp URL');
    await expect(fetchUrl('data:text/plain,hello')).rejects.toThrow('Refused data URL');
    await expect(fetchUrl('http://user:pw@example.com/')).rejects.toThrow(/user name or password/);
    expect(newAttempts()).toEqual([]);
  });
});

describe('names are resolved and every address checked', () => {
  it('refuses "localhost" (system resolver) and a name a stub resolves to 127.0.0.1', async () => {
    await expect(fetchUrl(`http://localhost:${server.port}/`)).rejects.toThrow(
      /host "localhost" resolves to (127\.0\.0\.1|::1), which is a loopback address/,
    );
    const lookup = stubLookup({ 'innocent.test': ['127.0.0.1'] });
    await expect(fetchUrl(`http://innocent.test:${server.port}/`, { lookup })).rejects.toThrow(
      /host "innocent\.test" resolves to 127\.0\.0\.1, which is a loopback address/,
    );
    expect(newAttempts()).toEqual([]);
  });

  it('refuses a name when any of its addresses is private (one public, one internal)', async () => {
    const lookup = stubLookup({ 'mixed.test': ['93.184.216.34', '10.0.0.7'] });
    await expect(fetchUrl('http://mixed.test/', { lookup })).rejects.toThrow(/resolves to 10\.0\.0\.7, which is a private address/);
    expect(newAttempts()).toEqual([]);
  });

  it('says when a name does not resolve', async () => {
    await expect(fetchUrl('http://nowhere.test/', { lookup: stubLookup({}) })).rejects.toThrow(
      'Could not resolve host "nowhere.test" (ENOTFOUND)',
    );
  });

  it('connects to the address it checked: a rebinding resolver is asked once and its second answer never used', async () => {
    let calls = 0;
    const lookup = stubLookup({ 'rebind.test': () => (calls++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']) });
    const page = (await fetchUrl(`http://rebind.test:${server.port}/`, { allowHosts: ['127.0.0.1'], lookup })) as { content: string };
    expect(page.content).toBe('secret admin page');
    expect(calls).toBe(1);
    expect(server.received.at(-1)?.headers.host).toBe(`rebind.test:${server.port}`);
    expect(wire.attempts.at(-1)).toBe('127.0.0.1');
  });

  it('reaches loopback only when allowed explicitly: allowPrivate, the address, or the name', async () => {
    const lookup = stubLookup({ 'inventory.test': ['127.0.0.1'] });
    for (const [url, options] of [
      [`http://127.0.0.1:${server.port}/`, { allowPrivate: true }],
      [`http://127.0.0.1:${server.port}/`, { allowHosts: ['127.0.0.0/8'] }],
      [`http://inventory.test:${server.port}/`, { allowHosts: ['inventory.test'], lookup }],
    ] as const) {
      expect(((await fetchUrl(url, options)) as { content: string }).content, url).toBe('secret admin page');
    }
    const v6 = await startPageServer({ '/': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('over IPv6') }, '::1');
    try {
      expect(((await fetchUrl(`${v6.url}/`, { allowHosts: ['::1'] })) as { content: string }).content).toBe('over IPv6');
    } finally {
      await v6.close();
    }
  });
});

describe('redirects are checked again', () => {
  // The first hop is allowed by name; where it redirects to is not.
  const lookup = stubLookup({ 'public.test': ['127.0.0.1'], 'internal.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
  const viaPublic = (path: string, options: WebToolsOptions = {}) =>
    fetchUrl(`http://public.test:${server.port}${path}`, { allowHosts: ['public.test'], lookup, ...options });

  it.each([
    ['/to-loopback', /Redirect to http:\/\/127\.0\.0\.1:\d+\/ refused\. Refused: "127\.0\.0\.1" is a loopback address/],
    ['/to-ipv6-loopback', /Redirect to http:\/\/\[::1\]:\d+\/ refused\. Refused: "\[::1\]" is a loopback address/],
    ['/to-metadata', /Redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/ refused\. .* metadata address/],
    ['/to-private', /Redirect to http:\/\/10\.1\.2\.3\/ refused\. .* private address/],
    ['/to-rebound-name', /Redirect to http:\/\/internal\.test:\d+\/ refused\. Refused: host "internal\.test" resolves to 127\.0\.0\.1/],
    ['/to-file', /Redirect to file:\/\/\/etc\/passwd refused\. Refused file URL/],
  ])('%s', async (path, message) => {
    const before = server.received.length;
    await expect(viaPublic(path)).rejects.toThrow(message);
    expect(server.received.length).toBe(before + 1); // only the first hop
  });

  it('caps the number of redirects', async () => {
    await expect(viaPublic('/loop', { maxRedirects: 3 })).rejects.toThrow(
      'Too many redirects (more than 3); the last one pointed to /loop',
    );
  });
});

describe('http_request', () => {
  const lookup = stubLookup({ 'api.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
  const request = (args: Record<string, unknown>, options: WebToolsOptions = { allowHosts: ['api.test'], lookup }) =>
    tools(options).http_request.execute(args, ctx());

  it('is only offered with allowed hosts', () => {
    expect(Object.keys(tools())).toEqual(['web_fetch']);
    expect(() => webTools({ tools: ['http_request'] })).toThrow('webTools: http_request needs allowHosts');
  });

  it('refuses a host that is not listed, before resolving it', async () => {
    lookups.length = 0;
    await expect(request({ url: 'http://example.com/' })).rejects.toThrow(
      'Refused: host "example.com" is not in the allowed hosts of this tool',
    );
    await expect(request({ url: `http://127.0.0.1:${server.port}/` })).rejects.toThrow(
      'Refused: host "127.0.0.1" is not in the allowed hosts of this tool',
    );
    await expect(request({ url: 'http://api.test.evil.com/' })).rejects.toThrow(/not in the allowed hosts/);
    expect(lookups).toEqual([]);
    expect(newAttempts()).toEqual([]);
  });

  it('refuses a redirect to a host that is not listed', async () => {
    await expect(request({ url: `http://api.test:${server.port}/to-other-host` })).rejects.toThrow(
      /Redirect to http:\/\/other\.test:\d+\/ refused\. Refused: host "other\.test" is not in the allowed hosts/,
    );
  });
});

describe('size and time caps', () => {
  const local = { allowHosts: ['127.0.0.1'], maxResponseBytes: 2048 };
  it('refuses a body over the cap, by Content-Length or while reading', async () => {
    await expect(fetchUrl(`${server.url}/big`, local)).rejects.toThrow(
      'The response body is larger than the limit of 2048 bytes (Content-Length 4096); it was not read',
    );
    await expect(fetchUrl(`${server.url}/big-chunked`, local)).rejects.toThrow(
      'The response body is larger than the limit of 2048 bytes; it was not read',
    );
  });

  it('counts decompressed bytes (a gzip bomb stops at the cap)', async () => {
    await expect(fetchUrl(`${server.url}/bomb`, { allowHosts: ['127.0.0.1'], maxResponseBytes: 64 * 1024 })).rejects.toThrow(
      /larger than the limit of 65536 bytes/,
    );
  });

  it('gives up on a server that does not answer, or stops sending', async () => {
    const started = Date.now();
    await expect(fetchUrl(`${server.url}/slow-headers`, { allowHosts: ['127.0.0.1'], timeoutMs: 300 })).rejects.toThrow(
      `The request to ${server.url}/slow-headers timed out after 300 ms`,
    );
    await expect(fetchUrl(`${server.url}/slow-body`, { allowHosts: ['127.0.0.1'], timeoutMs: 300 })).rejects.toThrow(
      /slow-body timed out after 300 ms/,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('in a run', () => {
  it('each refusal goes back to the model as a clear error and the run goes on', async () => {
    const urls = [
      `http://127.0.0.1:${server.port}/`,
      'http://169.254.169.254/',
      'http://[::ffff:10.0.0.1]/',
      `http://public.test:${server.port}/to-loopback`,
    ];
    const model = new ScriptedModel([
      { toolCalls: urls.map((url, i) => ({ toolName: 'web_fetch', input: { url }, toolCallId: `c${i}` })) },
      { text: 'Those are blocked.' },
    ]);
    const agent = new Agent({
      name: 'reader',
      model,
      tools: webTools({ allowHosts: ['public.test'], lookup: stubLookup({ 'public.test': ['127.0.0.1'] }) }),
    });
    const before = server.received.length;
    const result = await agent.run('Read these pages');
    expect(result.text).toBe('Those are blocked.');
    const results = result.steps[0].toolResults;
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true]);
    expect(results.map((r) => String(r.output))).toEqual([
      expect.stringMatching(/^Tool "web_fetch" failed: Refused: "127\.0\.0\.1" is a loopback address/),
      expect.stringMatching(/metadata address/),
      expect.stringMatching(/"\[::ffff:a00:1\]" is a private address/),
      expect.stringMatching(/Redirect to http:\/\/127\.0\.0\.1:\d+\/ refused/),
    ]);
    expect(server.received.length).toBe(before + 1); // the first hop of the redirect only
  });
});
