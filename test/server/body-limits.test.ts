import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { DEFAULT_MAX_BODY_BYTES } from '../../src/server/app/create-server-app.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { scriptedAgent, startServer } from './helpers.js';

// One body limit — server.max_body_bytes, 1 MiB unless configured — on every route and for every
// transfer encoding. Requests are sent with node:http so the encoding is ours to choose: chunked
// (no content-length: the server only finds out while reading) or a declared content-length.

const LIMIT = DEFAULT_MAX_BODY_BYTES;

interface Answer {
  status: number;
  text: string;
}

/** Sends `body` in 64 KiB writes, chunked or with its content-length; resolves with the answer. */
function send(
  url: string,
  options: { path: string; method?: string; headers?: Record<string, string>; body: Buffer; chunked: boolean },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json', ...options.headers };
    if (options.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = options.body.length;
    let answered = false;
    const req = http.request(`${url}${options.path}`, { method: options.method ?? 'POST', headers, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    // Past the limit the server closes the connection after answering: a write may fail then.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    let offset = 0;
    const write = () => {
      while (offset < options.body.length && !req.destroyed) {
        const chunk = options.body.subarray(offset, offset + 64 * 1024);
        offset += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!req.destroyed) req.end();
    };
    write();
  });
}

/** `json` followed by spaces up to exactly `size` bytes (still valid JSON). */
function padded(json: unknown, size: number): Buffer {
  const text = JSON.stringify(json);
  const length = Buffer.byteLength(text);
  if (length > size) throw new Error(`the JSON alone is ${length} bytes`);
  return Buffer.concat([Buffer.from(text), Buffer.alloc(size - length, ' ')]);
}

interface Endpoint {
  name: string;
  path: string;
  headers?: Record<string, string>;
  json: () => unknown;
  /** What the route answers to a body within the limit. */
  accepted: (a: Answer) => void;
  /** The route's 413. */
  refused: (a: Answer) => void;
}

const chatRefused = (a: Answer) => {
  expect(a.status).toBe(413);
  expect(JSON.parse(a.text).error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining(`${LIMIT} bytes`) });
};
const rpcRefused = (a: Answer) => {
  expect(a.status).toBe(413);
  expect(JSON.parse(a.text).error).toMatchObject({ code: -32600, message: expect.stringContaining(`${LIMIT} bytes`) });
};
let sequence = 0;
const messageId = () => `m-${++sequence}`;

const endpoints: Endpoint[] = [
  {
    name: 'chat',
    path: '/api/v1/agents/echo/chat',
    json: () => ({ message: 'hi' }),
    accepted: (a) => expect(JSON.parse(a.text)).toMatchObject({ status: 'completed', answer: 'hello' }),
    refused: chatRefused,
  },
  {
    name: 'approval answer',
    path: '/api/v1/approvals/apr_missing',
    json: () => ({ approved: true }),
    // Read, then looked up: this server keeps no runs.
    accepted: (a) => expect([a.status, JSON.parse(a.text).error.code]).toEqual([404, 'no_store']),
    refused: chatRefused,
  },
  {
    name: 'run resume',
    path: '/api/v1/runs/run_missing/resume',
    json: () => ({ stream: false }),
    accepted: (a) => expect([a.status, JSON.parse(a.text).error.code]).toEqual([404, 'no_store']),
    refused: chatRefused,
  },
  {
    name: 'A2A JSON-RPC v0.3',
    path: '/a2a/echo',
    json: () => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: messageId(), role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
    }),
    accepted: (a) => expect(JSON.parse(a.text).result.status.state).toBe('completed'),
    refused: rpcRefused,
  },
  {
    name: 'A2A JSON-RPC v1.0',
    path: '/a2a/echo',
    headers: { 'A2A-Version': '1.0' },
    json: () => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: messageId(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    }),
    accepted: (a) => expect(JSON.parse(a.text).result.task.status.state).toBe('TASK_STATE_COMPLETED'),
    refused: rpcRefused,
  },
  {
    name: 'A2A REST v1.0',
    path: '/a2a/echo/rest/message:send',
    headers: { 'A2A-Version': '1.0' },
    json: () => ({ message: { messageId: messageId(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } }),
    accepted: (a) => expect(JSON.parse(a.text).task.status.state).toBe('TASK_STATE_COMPLETED'),
    refused: (a) => {
      expect(a.status).toBe(413);
      expect(JSON.parse(a.text).error).toMatchObject({ status: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(`${LIMIT} bytes`) });
    },
  },
  {
    name: 'A2A REST v0.3 (Express)',
    path: '/a2a/echo/rest/v1/message:send',
    json: () => ({ message: { messageId: messageId(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } }),
    accepted: (a) => expect([a.status, JSON.parse(a.text).task.status.state]).toEqual([201, 'TASK_STATE_COMPLETED']),
    refused: (a) => {
      expect(a.status).toBe(413);
      expect(JSON.parse(a.text)).toMatchObject({ code: -32600, message: expect.stringContaining(`${LIMIT} bytes`) });
    },
  },
  {
    name: 'MCP tool gateway',
    path: '/execute',
    json: () => ({ tool: 'no_such_tool', arguments: {} }),
    accepted: (a) => expect([a.status, JSON.parse(a.text).error.type]).toEqual([404, 'not_found']),
    refused: chatRefused,
  },
  {
    name: 'MCP',
    path: '/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    json: () => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
    accepted: (a) => expect([a.status, a.text]).toEqual([200, expect.stringContaining('"serverInfo"')]),
    refused: chatRefused,
  },
];

describe('the body limit (server.max_body_bytes, default 1 MiB) on every endpoint', () => {
  let server: RunningServer;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await startServer([scriptedAgent('echo')]));
  });
  afterAll(() => server.close());

  for (const e of endpoints) {
    for (const chunked of [true, false]) {
      const encoding = chunked ? 'chunked' : 'content-length';
      it(`${e.name}, ${encoding}: ${LIMIT} bytes are read, ${LIMIT + 1} refused with 413`, async () => {
        e.accepted(await send(url, { path: e.path, headers: e.headers, body: padded(e.json(), LIMIT), chunked }));
        e.refused(await send(url, { path: e.path, headers: e.headers, body: padded(e.json(), LIMIT + 1), chunked }));
      });
    }
  }

  it('a route that does not read bodies drops one within the limit and closes the connection past it', async () => {
    const sent = (size: number) =>
      new Promise<{ status: number; closedEarly: boolean }>((resolve, reject) => {
        let status = 0;
        const body = Buffer.alloc(size, ' ');
        const req = http.request(
          `${url}/health`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, agent: false },
          (res) => {
            status = res.statusCode!;
            res.resume();
          },
        );
        let offset = 0;
        let ended = false;
        req.on('error', () => undefined);
        req.on('close', () => (status ? resolve({ status, closedEarly: !ended }) : reject(new Error('no answer'))));
        const write = () => {
          while (offset < body.length && !req.destroyed) {
            offset += 64 * 1024;
            if (!req.write(body.subarray(offset - 64 * 1024, offset))) return void req.once('drain', write);
          }
          ended = true;
          req.end();
        };
        write();
      });
    // POST /health has no route: 404 either way; the large body is not read to its end.
    expect(await sent(LIMIT)).toEqual({ status: 404, closedEarly: false });
    expect(await sent(20 * LIMIT)).toEqual({ status: 404, closedEarly: true });
  });

  for (const path of ['/api/v1/agents/echo/chat', '/a2a/echo']) {
    it(`${path}: a 20 MB chunked body is refused while it streams in (413 at once, connection closed, nothing buffered)`, async () => {
      const total = 20 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const before = process.memoryUsage();
      let peak = before.arrayBuffers;
      let peakRss = before.rss;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.arrayBuffers);
        peakRss = Math.max(peakRss, m.rss);
      }, 5);
      const result = await new Promise<{ status: number; sentAtAnswer: number; sent: number }>((resolve, reject) => {
        let status = 0;
        let sent = 0;
        let sentAtAnswer = -1;
        const req = http.request(
          `${url}${path}`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, agent: false },
          (res) => {
            status = res.statusCode!;
            sentAtAnswer = sent;
            res.resume();
          },
        );
        req.on('error', () => undefined);
        req.on('close', () => (status ? resolve({ status, sentAtAnswer, sent }) : reject(new Error(`no answer after ${sent} bytes`))));
        // One 64 KiB write per turn of the event loop, waiting for the socket when it is full.
        const write = () => {
          if (req.destroyed) return;
          if (sent >= total) return void req.end();
          sent += chunk.length;
          if (req.write(chunk)) setImmediate(write);
          else req.once('drain', write);
        };
        write();
      }).finally(() => clearInterval(sampler));
      expect(result.status).toBe(413);
      // The answer came while most of the body was still unsent, and the server closed the
      // connection instead of reading the rest.
      expect(result.sentAtAnswer).toBeLessThan(total / 2);
      expect(result.sent).toBeLessThan(total);
      // This process (server and client) did not grow by anything like the body's size.
      expect(peak - before.arrayBuffers).toBeLessThan(total / 4);
      expect(peakRss - before.rss).toBeLessThan(total);
    });
  }

  it('eight clients (another process) sending 20 MB at once with Connection: close all get their 413', async () => {
    // Node resets such a connection as soon as the answer is out; with the client still sending,
    // the reset could reach it before the 413 unless the connection lingers.
    const client = spawn(process.execPath, [
      fileURLToPath(new URL('fixtures/upload-clients.mjs', import.meta.url)),
      url,
      '/api/v1/agents/echo/chat,/a2a/echo',
      '8',
      '3',
    ]);
    let out = '';
    client.stdout.on('data', (d) => (out += d));
    const code = await new Promise((resolve) => client.once('exit', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(Array(24).fill(413));
  });

  it(`WebSocket: a message of ${LIMIT} bytes is handled, a larger one closes the socket (1009)`, async () => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/agents/echo/ws`);
    const messages: Array<{ type: string }> = [];
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const done = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        messages.push(JSON.parse(String(data)));
        if (messages.at(-1)!.type === 'done') resolve();
      }),
    );
    ws.send(padded({ type: 'message', message: 'hi' }, LIMIT).toString());
    await done;
    expect(messages.at(-1)).toMatchObject({ type: 'done', status: 'completed', answer: 'hello' });
    ws.send(padded({ type: 'message', message: 'hi' }, LIMIT + 1).toString());
    expect(await closed).toBe(1009);
  });
});
