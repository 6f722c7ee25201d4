import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { tool } from '../../src/core/tool.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { chat, LogSink, metricValue, parseSse, scriptedAgent, startServer } from './helpers.js';

describe('chat API over real HTTP', () => {
  let server: RunningServer;
  let url: string;
  let logs: LogSink;

  beforeAll(async () => {
    const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
    const calc = scriptedAgent(
      'calc',
      (input, i) =>
        i % 2 === 0
          ? { toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }], usage: { inputTokens: 5, outputTokens: 1 } }
          : { text: '5', usage: { inputTokens: 7, outputTokens: 1 } },
      { tools: [add] },
    );
    const echo = scriptedAgent('echo', (input) => ({ text: `you said: ${input}`, usage: { inputTokens: 2, outputTokens: 3 } }), {
      description: 'Echoes',
    });
    ({ server, url, logs } = await startServer([echo, calc]));
  });
  afterAll(() => server.close());

  it('answers a chat message as JSON with session, run id and usage', async () => {
    const res = await chat(url, 'echo', { message: 'hi' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      answer: 'you said: hi',
      agent: 'echo',
      usage: { inputTokens: 2, outputTokens: 3, totalTokens: 5 },
      steps: 1,
      finishReason: 'stop',
    });
    expect(body.sessionId).toMatch(/\S/);
    expect(body.runId).toMatch(/^run_/);
  });

  it('continues a session: the second turn sees the first, and the session lists its messages', async () => {
    const first = await (await chat(url, 'echo', { message: 'one', userId: 'ann' })).json();
    const second = await (await chat(url, 'echo', { message: 'two', sessionId: first.sessionId })).json();
    expect(second.sessionId).toBe(first.sessionId);
    const session = await (await fetch(`${url}/api/v1/sessions/${first.sessionId}`)).json();
    expect(session).toMatchObject({ id: first.sessionId, agent: 'echo', userId: 'ann', messageCount: 4 });
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const list = await (await fetch(`${url}/api/v1/sessions?agent=echo&userId=ann`)).json();
    expect(list.sessions.map((s: { id: string }) => s.id)).toEqual([first.sessionId]);
    const del = await fetch(`${url}/api/v1/sessions/${first.sessionId}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await fetch(`${url}/api/v1/sessions/${first.sessionId}`)).status).toBe(404);
    expect((await fetch(`${url}/api/v1/sessions/${first.sessionId}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('pages session listings with a cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await chat(url, 'echo', { message: `p${i}`, userId: 'pager' })).json()).sessionId);
    const page1 = await (await fetch(`${url}/api/v1/sessions?userId=pager&limit=2`)).json();
    expect(page1.sessions.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const page2 = await (await fetch(`${url}/api/v1/sessions?userId=pager&limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.sessions.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(page2.nextCursor).toBeUndefined();
    const bad = await fetch(`${url}/api/v1/sessions?limit=0`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('"limit"');
  });

  it('streams the run as SSE: session first, the event union, done last', async () => {
    const res = await chat(url, 'calc', { message: 'add 2 and 3', stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('session');
    expect(names).toEqual(
      expect.arrayContaining(['run_start', 'step_start', 'tool_call', 'tool_result', 'step_end', 'text_delta', 'answer', 'run_end']),
    );
    expect(names.at(-1)).toBe('done');
    expect(events.find((e) => e.event === 'tool_result')!.data).toMatchObject({ toolName: 'add', output: 5, isError: false });
    expect(events.at(-1)!.data).toMatchObject({ status: 'completed', answer: '5', sessionId: events[0].data.sessionId });
  });

  it('streams with Accept: text/event-stream too', async () => {
    const res = await chat(url, 'echo', { message: 'x' }, { accept: 'text/event-stream' });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(parseSse(await res.text()).at(-1)!.event).toBe('done');
  });

  it('lists agents and serves one agent', async () => {
    const body = await (await fetch(`${url}/api/v1/agents`)).json();
    expect(body.agents).toEqual([
      { name: 'echo', description: 'Echoes', kind: 'llm', visibility: 'public', default: true },
      { name: 'calc', kind: 'llm', visibility: 'public', default: false },
    ]);
    expect((await fetch(`${url}/api/v1/agents/calc`)).status).toBe(200);
  });

  it('answers client mistakes with 4xx and a JSON error naming the problem', async () => {
    const cases: Array<[Promise<Response>, number, string]> = [
      [chat(url, 'echo', '{"message": '), 400, 'not valid JSON'],
      [chat(url, 'echo', ''), 400, 'empty'],
      [chat(url, 'echo', { message: 42 }), 400, '"message"'],
      [chat(url, 'echo', { message: 'x', stream: 'yes' }), 400, '"stream"'],
      [chat(url, 'echo', { message: 'x', colour: 'red' }), 400, '"colour"'],
      [chat(url, 'echo', [1, 2]), 400, 'Invalid chat request'],
      [chat(url, 'nobody', { message: 'x' }), 404, 'Unknown agent "nobody"'],
      [chat(url, 'echo', { message: 'x', sessionId: 'does-not-exist' }), 404, 'Unknown session'],
      [fetch(`${url}/api/v1/sessions/%E0%A4%A`), 404, 'session'],
      [fetch(`${url}/api/v1/nothing-here`), 404, 'No route'],
      [chat(url, 'echo', { message: 'x'.repeat(1024 * 1024 + 10) }), 413, 'larger than'],
    ];
    for (const [pending, status, text] of cases) {
      const res = await pending;
      const body = await res.json();
      expect({ status: res.status, message: body.error?.message }).toEqual({ status, message: expect.stringContaining(text) });
      expect(body.error.code).toMatch(/\w/);
    }
  });

  it('refuses a session of another agent with 409', async () => {
    const { sessionId } = await (await chat(url, 'echo', { message: 'x' })).json();
    const res = await chat(url, 'calc', { message: 'y', sessionId });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toContain('belongs to agent "echo"');
  });

  it('serves /health, /ready and an OpenAPI 3.1 document of the chat API', async () => {
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    const doc = await (await fetch(`${url}/api/v1/openapi.json`)).json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, op] of Object.entries<any>(item)) {
        expect(['get', 'post', 'delete', 'put', 'patch']).toContain(method);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const code of Object.keys(op.responses)) expect(code).toMatch(/^[1-5]\d\d$/);
        for (const p of op.parameters ?? []) expect(['path', 'query', 'header']).toContain(p.in);
      }
    }
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/(\w+)/g) ?? [];
    for (const r of refs) expect(doc.components.schemas).toHaveProperty(r.split('/').pop()!);
    expect(doc.components.schemas.ChatRequest.properties).toHaveProperty('message');
    expect(doc.components.schemas.ChatRequest.required).toEqual(['message']);
  });

  it('counts requests, runs, tokens and tool calls in /metrics', async () => {
    await chat(url, 'calc', { message: 'add' });
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(
      metricValue(text, 'corvid_http_requests_total', { route: '/api/v1/agents/:name/chat', method: 'POST', status: '200' }),
    ).toBeGreaterThan(0);
    expect(metricValue(text, 'corvid_runs_total', { agent: 'calc', status: 'completed' })).toBeGreaterThanOrEqual(2);
    expect(metricValue(text, 'corvid_tokens_total', { agent: 'calc', model: 'scripted:scripted-1', kind: 'input' })).toBeGreaterThanOrEqual(
      12,
    );
    expect(metricValue(text, 'corvid_tool_calls_total', { agent: 'calc', tool: 'add', status: 'ok' })).toBeGreaterThanOrEqual(2);
    expect(text).toContain('corvid_http_request_duration_seconds_bucket');
    expect(metricValue(text, 'corvid_active_streams')).toBe(0);
  });

  it('logs JSON lines with the request id (echoed in the response) and no credentials', async () => {
    const res = await fetch(`${url}/api/v1/agents`, {
      headers: { 'x-request-id': 'req-abc-123', authorization: 'Bearer sk-super-secret-value' },
    });
    expect(res.headers.get('x-request-id')).toBe('req-abc-123');
    const line = await logs.waitFor((l) => l.reqId === 'req-abc-123' && l.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/agents', status: 200, level: 30 });
    const generated = await fetch(`${url}/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.raw).not.toContain('sk-super-secret-value');
  });
});
