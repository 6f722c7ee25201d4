import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../src/core/tool.js';
import { chat, gate, scriptedAgent, startServer } from './helpers.js';

interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  traceId: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v && (v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue);
};

describe('OpenTelemetry traces', () => {
  it('exports a span per run, model call (model, tokens) and tool call to the OTLP endpoint', async () => {
    const spans: OtlpSpan[] = [];
    let service: unknown;
    const received = gate();
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const data = JSON.parse(body);
          for (const rs of data.resourceSpans ?? []) {
            service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
            for (const ss of rs.scopeSpans ?? []) spans.push(...ss.spans);
          }
          if (spans.some((s) => s.name.startsWith('agent.run'))) received.open();
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
    const agent = scriptedAgent(
      'calc',
      (_input, i) =>
        i === 0
          ? { toolCalls: [{ toolName: 'add', input: { a: 1, b: 2 } }], usage: { inputTokens: 11, outputTokens: 4 } }
          : { text: '3', usage: { inputTokens: 17, outputTokens: 1 } },
      { tools: [add] },
    );
    const { server, url } = await startServer([agent], { server: { telemetry: { otlpEndpoint: endpoint, serviceName: 'corvid-test' } } });
    try {
      expect((await chat(url, 'calc', { message: 'add 1 and 2' })).status).toBe(200);
    } finally {
      await server.close();
    }
    await received.promise;
    collector.close();
    expect(service).toBe('corvid-test');
    const run = spans.find((s) => s.name === 'agent.run calc')!;
    const models = spans.filter((s) => s.name === 'model.call scripted:scripted-1');
    const toolSpan = spans.find((s) => s.name === 'tool.call add')!;
    expect(run).toBeDefined();
    expect(models).toHaveLength(2);
    expect(toolSpan).toBeDefined();
    for (const s of [...models, toolSpan]) {
      expect(s.parentSpanId).toBe(run.spanId);
      expect(s.traceId).toBe(run.traceId);
    }
    expect(models.map((m) => Number(attr(m, 'gen_ai.usage.input_tokens')))).toEqual([11, 17]);
    expect(attr(models[0], 'gen_ai.request.model')).toBe('scripted:scripted-1');
    expect(attr(run, 'corvid.status')).toBe('completed');
  });
});
