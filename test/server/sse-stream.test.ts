import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { NodeSseStream } from '../../src/server/chat/node-sse-stream.js';
import { parseSse, scriptedAgent, startServer } from './helpers.js';

// On Node, chat streams are written to the socket's response directly (no web streams): the
// answer must still carry every header a client or browser relies on.

describe('SSE chat streams written to the Node response', () => {
  it('carry the SSE, request-id and CORS headers and every event up to done', async () => {
    const { server, url } = await startServer([scriptedAgent('echo')], { server: { cors: { origins: ['https://app.example'] } } });
    try {
      const res = await fetch(`${url}/api/v1/agents/echo/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://app.example', 'x-request-id': 'req-sse-1' },
        body: JSON.stringify({ message: 'hi', stream: true }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-request-id')).toBe('req-sse-1');
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
      expect(res.headers.get('vary')).toContain('Origin');
      const events = parseSse(await res.text());
      expect(events[0]).toMatchObject({ event: 'session', data: { agent: 'echo' } });
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed', answer: 'hello' } });
    } finally {
      await server.close();
    }
  });

  it('writes multi-line data as one data line each, and nothing once the client is gone', async () => {
    let stream: NodeSseStream | undefined;
    let aborted!: () => void;
    const gone = new Promise<void>((resolve) => (aborted = resolve));
    const server = http.createServer((_req, res) => {
      stream = new NodeSseStream(res, { 'x-extra': 'yes' });
      stream.onAbort(aborted);
      void stream.writeSSE({ event: 'note', data: 'one\ntwo\r\nthree' }).then(() => stream!.write(': comment\n\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const first = await new Promise<{ headers: http.IncomingHttpHeaders; text: string; req: http.ClientRequest }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
            if (text.includes(': comment\n\n')) resolve({ headers: res.headers, text, req });
          });
        });
        req.on('error', reject);
      });
      expect(first.headers['x-extra']).toBe('yes');
      expect(first.text).toBe('event: note\ndata: one\ndata: two\ndata: three\n\n: comment\n\n');
      first.req.destroy();
      await gone;
      await expect(stream!.writeSSE({ event: 'late', data: 'x' })).resolves.toBeUndefined();
      stream!.end();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
