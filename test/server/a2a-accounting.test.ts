/**
 * A2A runs are accounted like chat turns: runs, tokens and tool calls in `/metrics`, a span per
 * run / model call / tool call in the traces, and their tokens against the caller's rate limit.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../src/core/tool.js';
import { gate, metricValue, scriptedAgent, startServer } from './helpers.js';

const send = (url: string, agent: string, text: string) =>
  fetch(`${url}/a2a/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: `m-${Math.random()}`, role: 'user', parts: [{ kind: 'text', text }] } },
    }),
  });

function calcAgent() {
  const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
  return scriptedAgent(
    'calc',
    (_input, i) =>
      i % 2 === 0
        ? { toolCalls: [{ toolName: 'add', input: { a: 1, b: 2 } }], usage: { inputTokens: 30, outputTokens: 10 } }
        : { text: '3', usage: { inputTokens: 50, outputTokens: 10 } },
    { tools: [add] },
  );
}

describe("A2A runs in the server's accounting", () => {
  it('counts A2A runs, tokens and tool calls in /metrics', async () => {
    const { server, url } = await startServer([calcAgent()]);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await send(url, 'calc', 'add 1 and 2');
        expect((await res.json()).result.status.state).toBe('completed');
      }
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(metricValue(text, 'corvid_runs_total', { agent: 'calc', status: 'completed' })).toBe(2);
      expect(metricValue(text, 'corvid_tokens_total', { agent: 'calc', kind: 'input' })).toBe(160);
      expect(metricValue(text, 'corvid_tokens_total', { agent: 'calc', kind: 'output' })).toBe(40);
      expect(metricValue(text, 'corvid_tool_calls_total', { agent: 'calc', tool: 'add', status: 'ok' })).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('charges A2A tokens to the caller: over tokens_per_hour, A2A calls and chat get 429', async () => {
    const { server, url } = await startServer([calcAgent()], { server: { rateLimit: { tokensPerHour: 150, by: 'ip' } } });
    try {
      expect((await send(url, 'calc', 'add')).status).toBe(200);
      expect((await send(url, 'calc', 'add')).status).toBe(200);
      // 2 runs × 100 tokens used: refused now, over A2A and over the chat API.
      const refused = await send(url, 'calc', 'add');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
      expect((await refused.json()).error).toMatchObject({
        code: 'rate_limited',
        message: expect.stringContaining('150 model tokens per hour'),
      });
      const chat = await fetch(`${url}/api/v1/agents/calc/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'x' }),
      });
      expect(chat.status).toBe(429);
      // The agent card is not a call: still served.
      expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('exports a span per A2A run, model call and tool call', async () => {
    const names: string[] = [];
    const received = gate();
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          for (const rs of JSON.parse(body).resourceSpans ?? [])
            for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans) names.push(s.name);
          if (names.includes('agent.run calc')) received.open();
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const { server, url } = await startServer([calcAgent()], { server: { telemetry: { otlpEndpoint: endpoint } } });
    try {
      expect((await send(url, 'calc', 'add 1 and 2')).status).toBe(200);
    } finally {
      await server.close();
    }
    await received.promise;
    collector.close();
    expect(names.filter((n) => n === 'agent.run calc')).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('model.call '))).toHaveLength(2);
    expect(names).toContain('tool.call add');
  });
});
