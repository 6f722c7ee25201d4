import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';

import { tool } from '../../src/core/tool.js';
import { Agent } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { scriptedAgent, startServer } from './helpers.js';

/** A WebSocket client that queues incoming JSON messages. */
class Client {
  private queue: any[] = [];
  private waiting: ((m: any) => void) | undefined;
  readonly opened: Promise<void>;
  readonly closed: Promise<void>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(m);
      } else this.queue.push(m);
    });
    this.opened = new Promise((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  next(): Promise<any> {
    const m = this.queue.shift();
    if (m !== undefined) return Promise.resolve(m);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Messages until (and including) the first of `type`. */
  async until(type: string): Promise<any[]> {
    const out: any[] = [];
    for (;;) {
      const m = await this.next();
      out.push(m);
      if (m.type === type) return out;
    }
  }
}

describe('WebSocket chat', () => {
  let server: RunningServer;
  let wsUrl: string;
  const clients: Client[] = [];

  const connect = async (agent: string, headers: Record<string, string> = {}) => {
    const c = new Client(new WebSocket(`${wsUrl}/api/v1/agents/${agent}/ws`, { headers }));
    clients.push(c);
    await c.opened;
    return c;
  };

  beforeAll(async () => {
    const deploy = tool({
      name: 'deploy',
      description: 'Deploy a service',
      input: z.object({ service: z.string() }),
      requireApproval: 'Deploy {service}?',
      execute: ({ service }) => `deployed ${service}`,
    });
    const ops = new Agent({
      name: 'ops',
      tools: [deploy],
      model: new ScriptedModel((call) => {
        const last = call.prompt.at(-1)!;
        if (last.role === 'tool') {
          const part = last.content[0] as { output: { type: string; value: unknown } };
          return { text: `result: ${JSON.stringify(part.output.value)}` };
        }
        return { toolCalls: [{ toolName: 'deploy', input: { service: 'web' } }] };
      }),
    });
    const slow = scriptedAgent('slow', { text: 'never', delayMs: 60_000 });
    const echo = scriptedAgent('echo', (input) => ({ text: `echo: ${input}` }));
    ({ server } = await startServer([echo, ops, slow]));
    wsUrl = server.url.replace(/^http/, 'ws');
  });
  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    await server.close();
  });

  it('streams a turn: session, events, done; the next turn continues the session', async () => {
    const c = await connect('echo');
    c.send({ type: 'message', message: 'hello' });
    const first = await c.until('done');
    expect(first[0]).toMatchObject({ type: 'session', agent: 'echo' });
    expect(first.map((m) => m.type)).toEqual(expect.arrayContaining(['run_start', 'text_delta', 'answer', 'run_end']));
    expect(first.at(-1)).toMatchObject({ type: 'done', status: 'completed', answer: 'echo: hello' });
    c.send({ type: 'message', message: 'again', sessionId: first[0].sessionId });
    const second = await c.until('done');
    expect(second[0].sessionId).toBe(first[0].sessionId);
    const session = await (await fetch(`${server.url}/api/v1/sessions/${first[0].sessionId}`)).json();
    expect(session.messageCount).toBe(4);
  });

  it('asks for approval and runs the tool once approved, or tells the model when denied', async () => {
    const c = await connect('ops');
    c.send({ type: 'message', message: 'deploy web' });
    const upToApproval = await c.until('approval_required');
    const ask = upToApproval.at(-1);
    expect(ask).toMatchObject({ toolName: 'deploy', input: { service: 'web' }, prompt: 'Deploy web?' });
    c.send({ type: 'approval', approvalId: ask.approvalId, approved: true });
    const rest = await c.until('done');
    expect(rest.find((m) => m.type === 'tool_result')).toMatchObject({ toolName: 'deploy', output: 'deployed web', isError: false });
    expect(rest.at(-1)).toMatchObject({ status: 'completed' });

    c.send({ type: 'message', message: 'deploy again' });
    const ask2 = (await c.until('approval_required')).at(-1);
    c.send({ type: 'approval', approvalId: ask2.approvalId, approved: false, reason: 'not today' });
    const denied = await c.until('done');
    const result = denied.find((m) => m.type === 'tool_result');
    expect(JSON.stringify(result.output)).toContain('not today');
    expect(denied.at(-1).status).toBe('completed');
  });

  it('cancels a running turn', async () => {
    const c = await connect('slow');
    c.send({ type: 'message', message: 'wait' });
    await c.until('step_start');
    c.send({ type: 'cancel' });
    const end = await c.until('done');
    expect(end.find((m) => m.type === 'run_end')).toMatchObject({ status: 'aborted' });
    expect(end.at(-1)).toMatchObject({ status: 'cancelled', error: { code: 'run_aborted' } });
  });

  it('answers bad messages with an error message and keeps the socket open', async () => {
    const c = await connect('echo');
    for (const [bad, text] of [
      ['not json', 'not valid JSON'],
      [{ type: 'shout' }, 'type must be'],
      [{ type: 'message' }, '"message"'],
      [{ type: 'approval', approvalId: 'nope', approved: true }, 'No pending approval'],
      [{ type: 'cancel' }, 'No turn is running'],
      [{ type: 'message', message: 'x', sessionId: 'missing' }, 'Unknown session'],
    ] as const) {
      c.send(bad);
      const m = await c.next();
      expect(m).toMatchObject({ type: 'error', error: { message: expect.stringContaining(text) } });
    }
    c.send({ type: 'message', message: 'still here' });
    expect((await c.until('done')).at(-1).answer).toBe('echo: still here');
  });

  it('refuses the upgrade for unknown agents (404) and plain GETs (400)', async () => {
    const ws = new WebSocket(`${wsUrl}/api/v1/agents/ghost/ws`);
    ws.on('error', () => undefined);
    const status = await new Promise<number>((resolve) =>
      ws.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      }),
    );
    expect(status).toBe(404);
    const res = await fetch(`${server.url}/api/v1/agents/echo/ws`);
    expect(res.status).toBe(400);
  });
});
