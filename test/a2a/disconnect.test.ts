import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  const model = new ScriptedModel(() => ({ text: 'a slow but complete answer', delayMs: 300, chunkSize: 4 }));
  const runtime = fakeRuntime([new Agent({ name: 'slowpoke', model, instructions: '-' })]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
});
afterAll(() => server.close());

describe('SSE clients that disconnect', () => {
  it('leave the task running to completion; it can be fetched and resubscribed afterwards', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/a2a/slowpoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      signal: controller.signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: { message: { kind: 'message', messageId: 'd1', role: 'user', parts: [{ kind: 'text', text: 'go' }] } },
      }),
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    const first = JSON.parse(
      text
        .split('\n')
        .find((l) => l.startsWith('data:'))!
        .slice(5),
    );
    const taskId = first.result.id as string;
    controller.abort();
    await reader.closed.catch(() => undefined);
    const rpc = async (method: string, params: unknown) =>
      (await (
        await fetch(`${server.url}/a2a/slowpoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method, params }),
        })
      ).json()) as any;
    await expect.poll(async () => (await rpc('tasks/get', { id: taskId })).result.status.state, { timeout: 5000 }).toBe('completed');
    const done = await rpc('tasks/get', { id: taskId });
    expect(done.result.artifacts[0].parts[0].text).toBe('a slow but complete answer');
    // A finished task cannot be subscribed to again: -32004 (unsupported operation) saying why.
    const resub = await fetch(`${server.url}/a2a/slowpoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/resubscribe', params: { id: taskId } }),
    });
    // A streaming method answers as a stream even when refused: one `error` event.
    expect(resub.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const resubText = await resub.text();
    expect(resubText).toMatch(/^event: error\n/);
    const data = JSON.parse(
      resubText
        .split('\n')
        .find((l) => l.startsWith('data:'))!
        .slice(5),
    );
    expect(data).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32004, message: expect.stringContaining('terminal state') } });
  });

  it('serves many concurrent streams to the end', async () => {
    const streams = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await fetch(`${server.url}/a2a/slowpoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: i,
            method: 'message/stream',
            params: { message: { kind: 'message', messageId: `c${i}`, role: 'user', parts: [{ kind: 'text', text: 'go' }] } },
          }),
        });
        return res.text();
      }),
    );
    for (const body of streams) expect(body).toContain('"final":true');
  });
});
