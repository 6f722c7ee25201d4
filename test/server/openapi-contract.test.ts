/**
 * The OpenAPI document against the server's real answers: a server on 127.0.0.1 (SQLite store,
 * approvals, MCP and the tool gateway) is called on every documented operation, each answer's
 * status must be documented and its JSON body must validate against the document's schema for
 * it; every documented operation must be called, and every route the app serves must be documented.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { Agent } from '../../src/core/agent.js';
import { tool } from '../../src/core/tool.js';
import { BackgroundRuns } from '../../src/durable/background-runs.js';
import { exactMatch, runEval } from '../../src/evals/index.js';
import { EmbeddedRunQueue } from '../../src/queue/embedded-run-queue.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/scripted-model.js';
import type { Store } from '../../src/types/storage/store.js';
import { startServer } from './helpers.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

/** Routes of the A2A protocol, described by the A2A specification rather than this document; the Studio's static files and icon. */
const A2A_ROUTE = /^\/(a2a(\/|$)|\.well-known\/|agents(\/|$)|studio(\/|$)|favicon\.ico$)/;

function agentModel(): ScriptedModel {
  return new ScriptedModel((call): ScriptedTurn => {
    const last = call.prompt.at(-1)!;
    if (last.role === 'tool') return { text: 'done', usage: { inputTokens: 5, outputTokens: 3 } };
    const text = typeof last.content === 'string' ? last.content : last.content.map((p) => ('text' in p ? p.text : '')).join('');
    if (text.startsWith('delete '))
      return { toolCalls: [{ toolName: 'delete_file', input: { path: text.slice(7) } }], usage: { inputTokens: 4, outputTokens: 2 } };
    return { text: `you said ${text}`, usage: { inputTokens: 2, outputTokens: 1 } };
  });
}

describe('the OpenAPI document matches the real answers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-openapi-'));
  let server: RunningServer;
  let store: Store;
  let url = '';
  let doc: Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const called = new Set<string>();

  beforeAll(async () => {
    const path = join(dir, 'corvid.db');
    store = await openStore({ driver: 'sqlite', path });
    const del = tool<{ path: string }>({
      name: 'delete_file',
      description: 'Delete a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      requireApproval: 'Delete {path}?',
      execute: ({ path: p }) => `deleted ${p}`,
    });
    const upper = tool<{ text: string }>({
      name: 'upper',
      description: 'Upper-cases a text',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => text.toUpperCase(),
    });
    const agent = new Agent({ name: 'files', description: 'Manages files', model: agentModel(), tools: [del, upper] });
    const served = runtimeOf([agent], {
      config: { storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' } },
    });
    const runs = new BackgroundRuns({
      runtime: { store: async () => store, agent: <T>(name?: string) => served.agents.get(name ?? 'files') as T },
      queue: async () => new EmbeddedRunQueue({ store: async () => store }),
      worker: 'test',
    });
    const runtime = { ...served, store: async () => store, runs };
    ({ server, url } = await startServer([], { runtime, load: { cwd: dir } }));
    doc = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as Doc;
    ajv.addSchema(doc as object, 'openapi');
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Calls `method path`, checks the answer against operation `template`, and returns its JSON body. */
  async function call(
    method: string,
    template: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: any }> {
    const headers = { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers };
    const res = await fetch(`${url}${path}`, {
      method: method.toUpperCase(),
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
    const op = doc.paths[template]?.[method];
    expect(op, `${method} ${template} is documented`).toBeDefined();
    called.add(`${method} ${template}`);
    const status = String(res.status);
    expect(Object.keys(op!.responses), `${method} ${path} answered ${status}`).toContain(status);
    const type = res.headers.get('content-type') ?? '';
    const text = await res.text();
    if (!type.includes('application/json')) {
      if (text !== '')
        expect(
          Object.keys(op!.responses[status]!.content ?? {}).some((t) => type.startsWith(t)),
          `${method} ${path} ${status} ${type} is documented`,
        ).toBe(true);
      return { status: res.status, body: text };
    }
    const body = JSON.parse(text);
    const pointer = `openapi#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`;
    expect(op!.responses[status]!.content?.['application/json'], `${method} ${path} ${status}: a JSON schema is documented`).toBeDefined();
    const validate = ajv.getSchema(pointer)!;
    if (!validate(body)) expect.fail(`${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`);
    return { status: res.status, body };
  }

  it('every documented operation answers as documented', async () => {
    expect((await call('get', '/health', '/health')).status).toBe(200);
    expect((await call('get', '/ready', '/ready')).status).toBe(200);
    expect((await call('get', '/metrics', '/metrics')).body).toContain('corvid_http_requests_total');
    expect((await call('get', '/api/v1/openapi.json', '/api/v1/openapi.json')).status).toBe(200);
    expect((await call('get', '/api/v1/schedules', '/api/v1/schedules')).body).toEqual({ schedules: [] });
    expect((await call('get', '/api/v1/agents', '/api/v1/agents')).body.agents).toHaveLength(1);
    expect((await call('get', '/api/v1/agents/{name}', '/api/v1/agents/files')).body.default).toBe(true);
    expect((await call('get', '/api/v1/agents/{name}', '/api/v1/agents/nobody')).status).toBe(404);

    const chat = '/api/v1/agents/{name}/chat';
    const hello = await call('post', chat, '/api/v1/agents/files/chat', { body: { message: 'hello' } });
    expect(hello.body).toMatchObject({ status: 'completed', answer: 'you said hello' });
    expect((await call('post', chat, '/api/v1/agents/files/chat', { body: { message: 42 } })).status).toBe(400);
    expect(
      (await call('post', chat, '/api/v1/agents/files/chat', { body: '{"message":', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
    expect((await call('post', chat, '/api/v1/agents/files/chat', { body: 'hi', headers: { 'content-type': 'text/plain' } })).status).toBe(
      415,
    );
    expect((await call('post', chat, '/api/v1/agents/nobody/chat', { body: { message: 'hi' } })).status).toBe(404);
    const streamed = await call('post', chat, '/api/v1/agents/files/chat', { body: { message: 'hi', stream: true } });
    expect(streamed.body).toContain('event: done');
    const paused = await call('post', chat, '/api/v1/agents/files/chat', { body: { message: 'delete a.txt' } });
    expect(paused.status).toBe(202);

    expect((await call('get', '/api/v1/agents/{name}/ws', '/api/v1/agents/files/ws')).status).toBe(400);
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/agents/files/ws`);
    const upgraded = await new Promise<number>((resolve, reject) => {
      ws.once('upgrade', (res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
    ws.close();
    expect(Object.keys(doc.paths['/api/v1/agents/{name}/ws']!.get!.responses)).toContain(String(upgraded));

    const sessions = await call('get', '/api/v1/sessions', '/api/v1/sessions?limit=10');
    expect(sessions.body.sessions.length).toBeGreaterThanOrEqual(2);
    expect((await call('get', '/api/v1/sessions', '/api/v1/sessions?limit=0')).status).toBe(400);
    const session = await call('get', '/api/v1/sessions/{id}', `/api/v1/sessions/${hello.body.sessionId}`);
    expect(session.body.messages.length).toBeGreaterThanOrEqual(2);
    expect((await call('get', '/api/v1/sessions/{id}', '/api/v1/sessions/nope')).status).toBe(404);
    expect((await call('delete', '/api/v1/sessions/{id}', `/api/v1/sessions/${hello.body.sessionId}`)).status).toBe(204);
    expect((await call('delete', '/api/v1/sessions/{id}', `/api/v1/sessions/${hello.body.sessionId}`)).status).toBe(404);

    const approvalId = paused.body.pendingApprovals[0].approvalId as string;
    expect((await call('get', '/api/v1/approvals', `/api/v1/approvals?runId=${paused.body.runId}`)).body.approvals).toHaveLength(1);
    expect((await call('get', '/api/v1/approvals', '/api/v1/approvals?limit=x')).status).toBe(400);
    expect((await call('get', '/api/v1/approvals/{id}', `/api/v1/approvals/${approvalId}`)).body.status).toBe('pending');
    expect((await call('get', '/api/v1/approvals/{id}', '/api/v1/approvals/nope')).status).toBe(404);
    const run = await call('get', '/api/v1/runs/{id}', `/api/v1/runs/${paused.body.runId}`);
    expect(run.body.pendingApprovals).toHaveLength(1);
    expect(
      (await call('post', '/api/v1/runs/{id}/resume', `/api/v1/runs/${paused.body.runId}/resume`, { body: { stream: 'no' } })).status,
    ).toBe(400);
    expect((await call('post', '/api/v1/approvals/{id}', `/api/v1/approvals/${approvalId}`, { body: { approved: 'yes' } })).status).toBe(
      400,
    );
    const answered = await call('post', '/api/v1/approvals/{id}', `/api/v1/approvals/${approvalId}`, {
      body: { approved: true, reason: 'fine' },
    });
    expect(answered.body).toMatchObject({ status: 'completed', answer: 'done' });
    expect((await call('post', '/api/v1/approvals/{id}', `/api/v1/approvals/${approvalId}`, { body: { approved: true } })).status).toBe(
      409,
    );
    expect((await call('get', '/api/v1/approvals/{id}', `/api/v1/approvals/${approvalId}`)).body).toMatchObject({
      status: 'approved',
      reason: 'fine',
    });
    expect((await call('get', '/api/v1/runs', '/api/v1/runs?status=completed')).body.runs.length).toBeGreaterThanOrEqual(1);
    expect((await call('get', '/api/v1/runs', '/api/v1/runs?status=sleeping')).status).toBe(400);
    expect((await call('get', '/api/v1/runs/{id}', '/api/v1/runs/nope')).status).toBe(404);
    expect((await call('post', '/api/v1/runs/{id}/resume', `/api/v1/runs/${paused.body.runId}/resume`, { body: {} })).status).toBe(409);
    const again = await call('post', chat, '/api/v1/agents/files/chat', { body: { message: 'delete b.txt' } });
    expect((await call('post', '/api/v1/runs/{id}/resume', `/api/v1/runs/${again.body.runId}/resume`)).status).toBe(202);

    const tools = await call('get', '/tools', '/tools');
    expect(tools.body.tools.map((t: { name: string }) => t.name)).toContain('upper');
    expect((await call('post', '/execute', '/execute', { body: { tool: 'upper', arguments: { text: 'abc' } } })).body).toEqual({
      result: 'ABC',
    });
    expect((await call('post', '/execute', '/execute', { body: { tool: 'nope' } })).status).toBe(404);
    expect((await call('post', '/execute', '/execute', { body: { tool: 'upper', arguments: { text: 1 } } })).status).toBe(400);
    const mcpHeaders = { accept: 'application/json, text/event-stream' };
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract', version: '1' } },
    };
    expect((await call('post', '/mcp', '/mcp', { body: init, headers: mcpHeaders })).status).toBe(200);
    expect((await call('get', '/mcp', '/mcp', { headers: mcpHeaders })).status).toBeGreaterThanOrEqual(400);
    expect((await call('delete', '/mcp', '/mcp', { headers: { ...mcpHeaders, 'mcp-session-id': 'nope' } })).status).toBeGreaterThanOrEqual(
      400,
    );

    // The Studio's routes.
    expect((await call('get', '/api/v1/whoami', '/api/v1/whoami')).body).toEqual({ authenticated: false, authRequired: false });
    const detail = await call('get', '/api/v1/agents/{name}', '/api/v1/agents/files');
    expect(detail.body.tools).toContainEqual({ name: 'delete_file', description: 'Delete a file', source: 'code', needsApproval: true });
    const chatted = await call('post', chat, '/api/v1/agents/files/chat', { body: { message: 'remember the heron' } });
    const sid = chatted.body.sessionId as string;
    expect((await call('get', '/api/v1/sessions', '/api/v1/sessions?q=heron')).body.sessions.map((x: { id: string }) => x.id)).toContain(
      sid,
    );
    expect((await call('patch', '/api/v1/sessions/{id}', `/api/v1/sessions/${sid}`, { body: { title: 'Herons' } })).body.title).toBe(
      'Herons',
    );
    expect((await call('patch', '/api/v1/sessions/{id}', `/api/v1/sessions/${sid}`, { body: { title: 3 } })).status).toBe(400);
    expect((await call('patch', '/api/v1/sessions/{id}', '/api/v1/sessions/nope', { body: { title: 'x' } })).status).toBe(404);
    expect((await call('get', '/api/v1/sessions/{id}/export', `/api/v1/sessions/${sid}/export`)).body.title).toBe('Herons');
    expect((await call('get', '/api/v1/sessions/{id}/export', `/api/v1/sessions/${sid}/export?format=markdown`)).body).toContain(
      '# Herons',
    );
    expect((await call('get', '/api/v1/sessions/{id}/export', `/api/v1/sessions/${sid}/export?format=pdf`)).status).toBe(400);
    expect((await call('get', '/api/v1/sessions/{id}/export', '/api/v1/sessions/nope/export')).status).toBe(404);
    const timeline = await call('get', '/api/v1/runs/{id}/timeline', `/api/v1/runs/${chatted.body.runId}/timeline`);
    expect(timeline.body).toMatchObject({ status: 'completed', recorded: true, steps: [{ step: 1, agent: 'files' }] });
    expect((await call('get', '/api/v1/runs/{id}/timeline', '/api/v1/runs/nope/timeline')).status).toBe(404);
    expect((await call('post', '/api/v1/runs/{id}/cancel', `/api/v1/runs/${chatted.body.runId}/cancel`)).status).toBe(409);
    expect((await call('post', '/api/v1/runs/{id}/cancel', '/api/v1/runs/nope/cancel')).status).toBe(404);
    const submitted = await call('post', '/api/v1/runs', '/api/v1/runs', { body: { agent: 'files', input: 'hello' } });
    expect(submitted).toMatchObject({ status: 202, body: { status: 'queued' } });
    expect((await call('post', '/api/v1/runs', '/api/v1/runs', { body: { agent: 'files' } })).status).toBe(400);
    const finished = await call('get', '/api/v1/runs/{id}', `/api/v1/runs/${submitted.body.runId}?wait=10`);
    expect(finished.body).toMatchObject({ status: 'completed', result: { text: 'you said hello' } });
    expect((await call('get', '/api/v1/runs/{id}', `/api/v1/runs/${submitted.body.runId}?wait=lots`)).status).toBe(400);
    const runEvents = await call('get', '/api/v1/runs/{id}/stream', `/api/v1/runs/${submitted.body.runId}/stream?after=0`);
    expect(runEvents.body).toContain('event: done');
    expect((await call('get', '/api/v1/runs/{id}/stream', '/api/v1/runs/nope/stream')).status).toBe(404);
    const trace = await call('get', '/api/v1/runs/{id}/trace', `/api/v1/runs/${submitted.body.runId}/trace`);
    expect(trace.body).toMatchObject({ source: 'events', usage: { inputTokens: 2, outputTokens: 1 } });
    expect(trace.body.spans.map((x: { kind: string; name: string }) => `${x.kind} ${x.name}`)).toEqual([
      'agent files',
      'step step 1',
      'model scripted:scripted-model',
    ]);
    expect(trace.body.spans[0]).toMatchObject({ input: 'hello', output: 'you said hello', status: 'ok' });
    const chatTrace = await call('get', '/api/v1/runs/{id}/trace', `/api/v1/runs/${chatted.body.runId}/trace`);
    expect(chatTrace.body).toMatchObject({ source: 'checkpoints', usage: { inputTokens: 2, outputTokens: 1 } });
    expect((await call('get', '/api/v1/runs/{id}/trace', '/api/v1/runs/nope/trace')).status).toBe(404);
    const replay = await call('get', '/api/v1/runs/{id}/events', `/api/v1/runs/${submitted.body.runId}/events?limit=2`);
    expect(replay.body).toMatchObject({ events: [{ seq: 1, type: 'run_start' }, { type: 'step_start' }], nextAfter: expect.any(Number) });
    expect((await call('get', '/api/v1/runs/{id}/events', `/api/v1/runs/${submitted.body.runId}/events?limit=0`)).status).toBe(400);
    expect((await call('get', '/api/v1/runs/{id}/events', '/api/v1/runs/nope/events')).status).toBe(404);
    expect((await call('get', '/api/v1/models', '/api/v1/models')).body).toEqual({ models: [] });
    const later = await call('post', '/api/v1/runs', '/api/v1/runs', { body: { agent: 'files', input: 'later', delaySeconds: 60 } });
    const cancelled = await call('post', '/api/v1/runs/{id}/cancel', `/api/v1/runs/${later.body.runId}/cancel`);
    expect(cancelled).toMatchObject({ status: 202, body: { status: 'cancelled', cancelRequested: true } });
    const approvalStream = await fetch(`${url}/api/v1/approvals/stream`);
    expect(approvalStream.headers.get('content-type')).toContain('text/event-stream');
    expect(Object.keys(doc.paths['/api/v1/approvals/stream']!.get!.responses)).toContain(String(approvalStream.status));
    called.add('get /api/v1/approvals/stream');
    await approvalStream.body?.cancel();
    await store.memories.save({ userId: 'default', agent: 'files' }, { key: 'bird', value: 'likes herons' });
    expect((await call('get', '/api/v1/memories', '/api/v1/memories?q=herons')).body.memories[0]).toMatchObject({
      id: 'bird',
      text: 'likes herons',
    });
    expect((await call('get', '/api/v1/memories', '/api/v1/memories?limit=0')).status).toBe(400);
    expect((await call('put', '/api/v1/memories/{id}', '/api/v1/memories/bird', { body: { text: 'likes egrets' } })).body.text).toBe(
      'likes egrets',
    );
    expect((await call('put', '/api/v1/memories/{id}', '/api/v1/memories/nope', { body: { text: 'x' } })).status).toBe(404);
    expect((await call('delete', '/api/v1/memories/{id}', '/api/v1/memories/bird')).status).toBe(204);
    expect((await call('delete', '/api/v1/memories/{id}', '/api/v1/memories/bird')).status).toBe(404);
    expect((await call('get', '/api/v1/knowledge', '/api/v1/knowledge')).status).toBe(404);
    expect((await call('post', '/api/v1/knowledge/{name}/search', '/api/v1/knowledge/docs/search', { body: { query: 'x' } })).status).toBe(
      404,
    );
    expect((await call('get', '/api/v1/mcp/servers', '/api/v1/mcp/servers')).body).toEqual({ servers: [] });
    expect(
      (await call('post', '/api/v1/mcp/servers/{name}/tools/{tool}/call', '/api/v1/mcp/servers/x/tools/y/call', { body: {} })).status,
    ).toBe(404);

    // Two saved runs of an eval suite (the second one scored lower) and a file that is none.
    const evals = join(dir, '.corvid', 'evals');
    mkdirSync(evals, { recursive: true });
    const results = await runEval({
      suite: 'contract',
      agent: server.runtime().agents.get('files')!,
      cases: [{ id: 'hi', input: 'hello', expected: { output: 'you said hello' } }],
      scorers: [{ scorer: exactMatch(), threshold: 1, allK: false }],
    });
    writeFileSync(join(evals, 'contract-1.json'), JSON.stringify({ ...results, startedAt: '2026-01-01T00:00:00.000Z' }));
    const lower = { ...results, cases: results.cases.map((c) => ({ ...c, scores: c.scores.map((x) => ({ ...x, mean: 0.5 })) })) };
    writeFileSync(join(evals, 'contract-2.json'), JSON.stringify({ ...lower, startedAt: '2026-01-02T00:00:00.000Z' }));
    writeFileSync(join(evals, 'broken.json'), '{');
    expect((await call('get', '/api/v1/evals', '/api/v1/evals')).body.runs.map((r: { id: string }) => r.id)).toEqual([
      'contract-2',
      'contract-1',
    ]);
    const evalRun = '/api/v1/evals/{id}';
    expect((await call('get', evalRun, '/api/v1/evals/contract-2')).body.changes).toEqual([
      { case: 'hi', scorer: 'exact', before: 1, after: 0.5, change: 'regressed' },
    ]);
    expect((await call('get', evalRun, '/api/v1/evals/contract-0')).status).toBe(404);
    expect((await call('get', evalRun, '/api/v1/evals/broken')).status).toBe(422);
    expect((await call('get', evalRun, '/api/v1/evals/..%2Fcorvid')).status).toBe(400);

    const documented = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(documented.filter((o) => !called.has(o))).toEqual([]);
  });

  it('documents every route the app serves (the A2A and OpenAI-compatible routes, which follow their own specifications, aside)', () => {
    const served = new Set<string>();
    for (const r of server.app.routes) {
      if (r.path === '/*' || r.path === '*' || A2A_ROUTE.test(r.path) || r.path.startsWith('/v1/')) continue;
      const template = r.path.replace(/:(\w+)/g, '{$1}');
      const methods = r.method === 'ALL' ? Object.keys(doc.paths[template] ?? { all: 1 }) : [r.method.toLowerCase()];
      for (const m of methods) served.add(`${m} ${template}`);
    }
    expect(served.size).toBeGreaterThan(15);
    const missing = [...served].filter((o) => {
      const [m, p] = o.split(' ') as [string, string];
      return doc.paths[p]?.[m] === undefined;
    });
    expect(missing).toEqual([]);
  });
});
