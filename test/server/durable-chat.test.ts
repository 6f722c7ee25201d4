/**
 * The chat API on a store: turns are session runs (agent names, run ids and usage on entries,
 * session state kept across turns and restarts), tools needing approval pause a turn, and the
 * approvals / runs endpoints answer and resume them — over real HTTP on 127.0.0.1, on SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { tool } from '../../src/core/tool.js';
import { Agent } from '../../src/index.js';
import type { RunningServer, ServeOptions } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { resumeInterruptedRuns } from '../../src/server/runs/auto-resume.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/index.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, gate, type LogSink, metricValue, parseSse, scriptedAgent, startServer } from './helpers.js';

type Prompt = LanguageModelV3CallOptions['prompt'];

function textOf(message: Prompt[number] | undefined): string {
  if (!message || typeof message.content === 'string') return typeof message?.content === 'string' ? message.content : '';
  return message.content.map((p) => ('text' in p ? p.text : '')).join('');
}

function toolOutput(message: Prompt[number]): string {
  const part = (message.content as Array<{ type: string; output?: { value?: unknown } }>).find((p) => p.type === 'tool-result');
  const value = part?.output?.value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The `files` agent: `delete <path>` calls `delete_file` (needs approval), `remember <x>` calls
 * `note` (writes session state `x`), `slow` calls `slow` (waits for `slowTool.release`); after a tool result
 * it answers `done: <output>`, else `you said <text>`. Its instructions show `{state.x?}`.
 */
function filesAgent(model: ScriptedModel, slowTool: { entered?: () => void; release?: Promise<void> } = {}) {
  const deleted: string[] = [];
  const del = tool<{ path: string }>({
    name: 'delete_file',
    description: 'Delete a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    requireApproval: 'Delete {path}?',
    execute: ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  });
  const note = tool<{ value: string }>({
    name: 'note',
    description: 'Remember a value',
    parameters: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
    execute: ({ value }, context) => {
      context.state.session.set('x', value);
      return `noted ${value}`;
    },
  });
  const slow = tool({
    name: 'slow',
    description: 'Takes its time',
    parameters: { type: 'object', properties: {} },
    execute: async () => {
      slowTool.entered?.();
      await slowTool.release;
      return 'slow done';
    },
  });
  const agent = new Agent({ name: 'files', instructions: 'You manage files. Remembered: {state.x?}', model, tools: [del, note, slow] });
  return { agent, deleted };
}

function filesModel(): ScriptedModel {
  return new ScriptedModel((call): ScriptedTurn => {
    const last = call.prompt.at(-1)!;
    if (last.role === 'tool') return { text: `done: ${toolOutput(last)}`, usage: { inputTokens: 5, outputTokens: 3 } };
    const text = textOf(last);
    let m: RegExpExecArray | null;
    if ((m = /^delete (\S+)$/.exec(text)))
      return { toolCalls: [{ toolName: 'delete_file', input: { path: m[1] } }], usage: { inputTokens: 4, outputTokens: 2 } };
    if ((m = /^remember (\S+)$/.exec(text)))
      return { toolCalls: [{ toolName: 'note', input: { value: m[1] } }], usage: { inputTokens: 4, outputTokens: 2 } };
    if (text === 'slow') return { toolCalls: [{ toolName: 'slow', input: {} }] };
    return { text: `you said ${text}`, usage: { inputTokens: 2, outputTokens: 1 } };
  });
}

const KEYS = { alice: 'cvd_alice_key_0123456789', bob: 'cvd_bobby_key_0123456789' };

describe('chat turns as session runs on SQLite, with approvals over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-serve-durable-'));
  let path = '';
  let n = 0;
  // A database per test, so one test's sessions and runs do not show in another's listings.
  beforeEach(() => {
    path = join(dir, `corvid-${++n}.db`);
  });
  const open: Array<{ server: RunningServer; store: Store }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.server.close();
      await o.store.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A server whose runtime has `storage:` (SQLite at `path`), serving `files` with `model`. */
  async function start(
    model: ScriptedModel,
    options: {
      auth?: boolean;
      resume?: 'auto' | 'manual';
      slowTool?: Parameters<typeof filesAgent>[1];
      serve?: Omit<ServeOptions, 'agents'>;
    } = {},
  ) {
    const store = await openStore({ driver: 'sqlite', path });
    const files = filesAgent(model, options.slowTool);
    const runtime = {
      ...runtimeOf([files.agent], {
        config: {
          storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: options.resume ?? 'manual' },
        },
      }),
      store: async () => store,
    };
    const server = options.auth
      ? { auth: { apiKeys: Object.entries(KEYS).map(([name, key]) => ({ name, hash: hashApiKey(key) })) } }
      : undefined;
    const started = await startServer([], { runtime, ...(server ? { server } : {}), ...options.serve });
    open.push({ server: started.server, store });
    return { ...started, store, deleted: files.deleted };
  }

  const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('keeps a session across a restart: agent names and run ids on entries, session state, activeAgent, message count', async () => {
    const model = filesModel();
    let { url, server, store } = await start(model);
    const first = await (await chat(url, 'files', { message: 'remember blue' })).json();
    expect(first).toMatchObject({ status: 'completed', answer: 'done: noted blue', agent: 'files' });
    await server.close();
    await store.close();
    open.length = 0;

    ({ url, store } = await start(model));
    const second = await (await chat(url, 'files', { message: 'what do you remember?', sessionId: first.sessionId })).json();
    expect(second.answer).toBe('you said what do you remember?');
    // The state written by the tool in the first process reached the instructions in the second.
    expect(textOf(model.calls.at(-1)!.prompt[0])).toBe('You manage files. Remembered: blue');

    const session = await (await fetch(`${url}/api/v1/sessions/${first.sessionId}`)).json();
    expect(session).toMatchObject({ id: first.sessionId, agent: 'files', activeAgent: 'files', messageCount: 6 });
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(session.usage.inputTokens).toBe(4 + 5 + 2);
    const list = await (await fetch(`${url}/api/v1/sessions`)).json();
    expect(list.sessions.find((s: { id: string }) => s.id === first.sessionId)).toMatchObject({ messageCount: 6, activeAgent: 'files' });

    const entries = await store.sessions.entries(first.sessionId);
    expect(entries.every((e) => e.agent === 'files')).toBe(true);
    expect(entries.map((e) => e.runId)).toEqual([first.runId, first.runId, first.runId, first.runId, second.runId, second.runId]);
    expect(entries.filter((e) => e.role === 'assistant').every((e) => e.usage !== undefined)).toBe(true);
    expect(await store.state.get({ session: first.sessionId }, 'x')).toBe('blue');
  });

  it('pauses a turn for approval; GET approvals lists it, POST approves it and the run finishes (JSON)', async () => {
    const { url, deleted } = await start(filesModel());
    const res = await chat(url, 'files', { message: 'delete a.txt' });
    expect(res.status).toBe(202);
    const paused = await res.json();
    expect(paused).toMatchObject({
      status: 'paused',
      runId: expect.stringMatching(/^run_/),
      sessionId: expect.any(String),
      pendingApprovals: [
        {
          approvalId: expect.stringMatching(/^apr_/),
          toolCallId: expect.any(String),
          toolName: 'delete_file',
          input: { path: 'a.txt' },
          prompt: 'Delete a.txt?',
        },
      ],
    });
    expect(deleted).toEqual([]);
    const { approvalId } = paused.pendingApprovals[0];

    const listed = await (await fetch(`${url}/api/v1/approvals?sessionId=${paused.sessionId}`)).json();
    expect(listed.approvals).toEqual([
      expect.objectContaining({ approvalId, runId: paused.runId, sessionId: paused.sessionId, status: 'pending', prompt: 'Delete a.txt?' }),
    ]);
    const runs = await (await fetch(`${url}/api/v1/runs?status=paused&sessionId=${paused.sessionId}`)).json();
    expect(runs.runs).toEqual([expect.objectContaining({ runId: paused.runId, agent: 'files', status: 'paused' })]);

    const approved = await post(url, `/api/v1/approvals/${approvalId}`, { approved: true });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      status: 'completed',
      answer: 'done: deleted a.txt',
      runId: paused.runId,
      sessionId: paused.sessionId,
    });
    expect(deleted).toEqual(['a.txt']);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metricValue(metrics, 'corvid_runs_total', { agent: 'files', status: 'paused' })).toBe(1);
    expect(metricValue(metrics, 'corvid_runs_total', { agent: 'files', status: 'completed' })).toBe(1);

    const again = await post(url, `/api/v1/approvals/${approvalId}`, { approved: false });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('approval_answered');
    expect((await (await fetch(`${url}/api/v1/approvals?sessionId=${paused.sessionId}`)).json()).approvals).toEqual([]);
    expect(await (await fetch(`${url}/api/v1/approvals/${approvalId}`)).json()).toMatchObject({ status: 'approved' });
    const session = await (await fetch(`${url}/api/v1/sessions/${paused.sessionId}`)).json();
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(deleted).toEqual(['a.txt']);
  });

  it('streams a paused turn (approval_required, run_end paused, done) and the approved, resumed run over SSE', async () => {
    const { url, deleted } = await start(filesModel());
    const events = parseSse(await (await chat(url, 'files', { message: 'delete b.txt', stream: true })).text());
    const names = events.map((e) => e.event);
    expect(names.slice(-3)).toEqual(['approval_required', 'run_end', 'done']);
    expect(events.at(-2)!.data).toMatchObject({ status: 'paused' });
    const done = events.at(-1)!.data;
    expect(done).toMatchObject({ status: 'paused', pendingApprovals: [{ toolName: 'delete_file', prompt: 'Delete b.txt?' }] });
    expect(events.find((e) => e.event === 'approval_required')!.data.approvalId).toBe(done.pendingApprovals[0].approvalId);

    const res = await post(url, `/api/v1/approvals/${done.pendingApprovals[0].approvalId}`, { approved: true, stream: true });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const resumed = parseSse(await res.text());
    expect(resumed[0]).toMatchObject({ event: 'session', data: { sessionId: done.sessionId } });
    expect(resumed.find((e) => e.event === 'run_start')!.data).toMatchObject({ runId: done.runId, resumed: true });
    expect(resumed.find((e) => e.event === 'tool_result')!.data).toMatchObject({ toolName: 'delete_file' });
    expect(resumed.at(-1)).toMatchObject({
      event: 'done',
      data: { status: 'completed', answer: 'done: deleted b.txt', runId: done.runId },
    });
    expect(deleted).toEqual(['b.txt']);
  });

  it('a denial resumes the run without running the tool, and the model is sent the reason', async () => {
    const model = filesModel();
    const { url, deleted } = await start(model);
    const paused = await (await chat(url, 'files', { message: 'delete c.txt' })).json();
    const res = await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, {
      approved: false,
      reason: 'c.txt is the contract',
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.answer).toContain('c.txt is the contract');
    expect(deleted).toEqual([]);
    const sent = model.calls.at(-1)!.prompt.at(-1)!;
    expect(sent.role).toBe('tool');
    expect(toolOutput(sent)).toContain('c.txt is the contract');
  });

  it('keeps the per-session lock: a second turn or a delete while a turn runs is a 409', async () => {
    const entered = gate();
    const release = gate();
    const { url } = await start(filesModel(), { slowTool: { entered: () => entered.open(), release: release.promise } });
    const first = await (await chat(url, 'files', { message: 'hello' })).json();
    const running = chat(url, 'files', { message: 'slow', sessionId: first.sessionId });
    await entered.promise;
    const busy = await chat(url, 'files', { message: 'me too', sessionId: first.sessionId });
    expect(busy.status).toBe(409);
    expect((await busy.json()).error.code).toBe('session_busy');
    expect((await fetch(`${url}/api/v1/sessions/${first.sessionId}`, { method: 'DELETE' })).status).toBe(409);
    release.open();
    expect(await (await running).json()).toMatchObject({ status: 'completed', answer: 'done: slow done' });
    expect((await chat(url, 'files', { message: 'now', sessionId: first.sessionId })).status).toBe(200);
  });

  it('answers a stored approval by id over the WebSocket and streams the resumed run there', async () => {
    const { url, deleted } = await start(filesModel());
    const paused = await (await chat(url, 'files', { message: 'delete d.txt' })).json();
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/agents/files/ws`);
    const messages: any[] = [];
    const done = new Promise<any>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(String(d));
        messages.push(m);
        if (m.type === 'done' || m.type === 'error') resolve(m);
      }),
    );
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'approval', approvalId: paused.pendingApprovals[0].approvalId, approved: true }));
    expect(await done).toMatchObject({ type: 'done', status: 'completed', answer: 'done: deleted d.txt', runId: paused.runId });
    expect(messages[0]).toMatchObject({ type: 'session', sessionId: paused.sessionId });
    expect(messages.some((m) => m.type === 'approval_required')).toBe(false);
    expect(deleted).toEqual(['d.txt']);
    ws.close();
  });

  it('runs turns in a store given to serve({ store }) — over the WebSocket too — with inline approvals there', async () => {
    const store = await openStore({ driver: 'sqlite', path });
    const files = filesAgent(filesModel());
    const { server, url } = await startServer([files.agent], { store });
    open.push({ server, store });
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v1/agents/files/ws`);
    const messages: any[] = [];
    const done = new Promise<any>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(String(d));
        messages.push(m);
        if (m.type === 'approval_required') ws.send(JSON.stringify({ type: 'approval', approvalId: m.approvalId, approved: true }));
        if (m.type === 'done' || m.type === 'error') resolve(m);
      }),
    );
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'message', message: 'delete g.txt' }));
    const end = await done;
    ws.close();
    expect(end).toMatchObject({ type: 'done', status: 'completed', answer: 'done: deleted g.txt' });
    expect(files.deleted).toEqual(['g.txt']);
    const entries = await store.sessions.entries(end.sessionId);
    expect(entries.map((e) => [e.role, e.agent, e.runId])).toEqual([
      ['user', 'files', end.runId],
      ['assistant', 'files', end.runId],
      ['tool', 'files', end.runId],
      ['assistant', 'files', end.runId],
    ]);
    expect(await store.approvals.listPending({ sessionId: end.sessionId })).toEqual([]);
  });

  it('answers unknown ids with 404, bad fields with 400 naming them, and a server without a store with 404 no_store', async () => {
    const { url } = await start(filesModel());
    const missing = await post(url, '/api/v1/approvals/apr_missing', { approved: true });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('approval_not_found');
    expect((await fetch(`${url}/api/v1/approvals/bad%20id`)).status).toBe(404);
    const run = await post(url, '/api/v1/runs/run_missing/resume', {});
    expect(run.status).toBe(404);
    expect((await run.json()).error.code).toBe('run_not_found');
    expect((await fetch(`${url}/api/v1/runs/run_missing`)).status).toBe(404);

    const paused = await (await chat(url, 'files', { message: 'delete e.txt' })).json();
    const bad = await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, { approved: 'yes' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('"approved"') } });
    const extra = await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, { approved: true, force: true });
    expect((await extra.json()).error.message).toContain('"force"');
    const query = await fetch(`${url}/api/v1/runs?status=sleeping`);
    expect(query.status).toBe(400);
    expect((await query.json()).error.message).toContain('"status"');
    // The approval is still pending after the bad requests.
    expect((await (await fetch(`${url}/api/v1/approvals?runId=${paused.runId}`)).json()).approvals).toHaveLength(1);
    const completed = await post(url, `/api/v1/approvals/${paused.pendingApprovals[0].approvalId}`, { approved: true });
    expect(completed.status).toBe(200);
    const resumeDone = await post(url, `/api/v1/runs/${paused.runId}/resume`, {});
    expect(resumeDone.status).toBe(409);
    expect((await resumeDone.json()).error.code).toBe('run_completed');

    const doc = await (await fetch(`${url}/api/v1/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/approvals',
        '/api/v1/approvals/{id}',
        '/api/v1/runs',
        '/api/v1/runs/{id}',
        '/api/v1/runs/{id}/resume',
      ]),
    );
    expect(doc.paths['/api/v1/agents/{name}/chat'].post.responses['202'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PausedResponse',
    });

    const { server: memory } = await startServer([scriptedAgent('plain')]);
    try {
      const res = await fetch(`${memory.url}/api/v1/approvals`);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({
        code: 'no_store',
        message: expect.stringMatching(/^This server keeps no runs or approvals:/),
      });
      // Each route says what it is missing.
      const memories = await fetch(`${memory.url}/api/v1/memories`);
      expect(memories.status).toBe(404);
      expect((await memories.json()).error).toEqual({
        code: 'no_store',
        message: 'This server keeps no memories: configure a storage: section (or pass a store to serve()) to keep them',
      });
    } finally {
      await memory.close();
    }
  });

  it('lets a principal see and answer only the approvals and runs of its own sessions (two API keys)', async () => {
    const { url, deleted } = await start(filesModel(), { auth: true });
    const alice = { 'x-api-key': KEYS.alice };
    const bob = { 'x-api-key': KEYS.bob };
    const paused = await (await chat(url, 'files', { message: 'delete f.txt' }, alice)).json();
    const { approvalId } = paused.pendingApprovals[0];

    expect((await (await fetch(`${url}/api/v1/approvals`, { headers: bob })).json()).approvals).toEqual([]);
    expect((await fetch(`${url}/api/v1/approvals/${approvalId}`, { headers: bob })).status).toBe(404);
    expect((await post(url, `/api/v1/approvals/${approvalId}`, { approved: true }, bob)).status).toBe(404);
    expect((await (await fetch(`${url}/api/v1/runs`, { headers: bob })).json()).runs).toEqual([]);
    expect((await fetch(`${url}/api/v1/runs/${paused.runId}`, { headers: bob })).status).toBe(404);
    expect((await post(url, `/api/v1/runs/${paused.runId}/resume`, {}, bob)).status).toBe(404);
    expect((await fetch(`${url}/api/v1/approvals`)).status).toBe(401);
    expect(deleted).toEqual([]);

    const mine = await (await fetch(`${url}/api/v1/approvals`, { headers: alice })).json();
    expect(mine.approvals.map((a: { approvalId: string }) => a.approvalId)).toEqual([approvalId]);
    const answered = await post(url, `/api/v1/approvals/${approvalId}`, { approved: true }, alice);
    expect(await answered.json()).toMatchObject({ status: 'completed', answer: 'done: deleted f.txt' });
    expect(deleted).toEqual(['f.txt']);
  });

  it('answers random and malformed requests to the approval and run endpoints with 4xx JSON errors, never a 5xx', async () => {
    const { url } = await start(filesModel());
    const paused = await (await chat(url, 'files', { message: 'delete z.txt' })).json();
    const ids = [
      paused.pendingApprovals[0].approvalId,
      paused.runId,
      'apr_x',
      'run_x',
      '',
      '%00',
      '..',
      'a'.repeat(300),
      '🦜',
      '__proto__',
    ];
    const bodies = [
      undefined,
      '',
      '{',
      'null',
      '[]',
      '42',
      '{"approved":true}',
      '{"approved":"no"}',
      '{"approved":false,"reason":7}',
      '{"stream":"yes"}',
      '{"approved":true,"extra":1}',
      '{"stream":true}',
    ];
    const queries = [
      '',
      'status=',
      'status=paused',
      'status=x',
      'limit=0',
      'limit=5',
      'limit=abc',
      'sessionId=%00',
      'runId=run_x',
      'x=1',
      'sessionId=' + paused.sessionId,
    ];
    let seed = 7;
    const pick = <T>(xs: readonly T[]): T => xs[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % xs.length];
    const failures: string[] = [];
    for (let n = 0; n < 300; n++) {
      const id = encodeURIComponent(pick(ids));
      const [method, path] = pick([
        ['GET', `/api/v1/approvals?${pick(queries)}`],
        ['GET', `/api/v1/approvals/${id}`],
        ['POST', `/api/v1/approvals/${id}`],
        ['GET', `/api/v1/runs?${pick(queries)}`],
        ['GET', `/api/v1/runs/${id}`],
        ['POST', `/api/v1/runs/${id}/resume`],
        ['DELETE', `/api/v1/approvals/${id}`],
      ] as const);
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? pick(bodies) : undefined,
      });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${method} ${path} → ${res.status} ${text.slice(0, 120)}`);
      if (res.status >= 400 && !text.startsWith('{"error"')) failures.push(`${method} ${path} → ${res.status} without a JSON error`);
    }
    expect(failures).toEqual([]);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  /**
   * Starts a run in "another process" (a separate store connection) that stops inside the `slow`
   * tool, as a killed process would. `alive: false` (default): that process's clock is ten minutes
   * behind, so the run's lease is already expired, as a dead process's would be; `alive: true`: it
   * holds its lease as a process still running the run does.
   */
  async function interruptedRun(options: { alive?: boolean } = {}) {
    const release = gate();
    const store = await openStore({ driver: 'sqlite', path, ...(options.alive ? {} : { now: () => new Date(Date.now() - 600_000) }) });
    const entered = gate();
    const { agent } = filesAgent(filesModel(), { entered: () => entered.open(), release: release.promise });
    const pending = agent.run('slow', { session: 'interrupted-1', store }).catch(() => undefined);
    await entered.promise;
    const [run] = await store.checkpoints.listRuns({ status: 'running', limit: 1 });
    return {
      run,
      /** Lets the stale run end (its writes fail: the session moved on) and closes its connection. */
      async end() {
        release.open();
        await pending;
        await store.close();
      },
    };
  }

  it('resumes an interrupted run with POST /api/v1/runs/{id}/resume: the finished step is not redone', async () => {
    const stale = await interruptedRun();
    try {
      const model = filesModel();
      const { url } = await start(model);
      const listed = await (await fetch(`${url}/api/v1/runs?status=running`)).json();
      expect(listed.runs.map((r: { runId: string }) => r.runId)).toContain(stale.run.runId);
      const res = await post(url, `/api/v1/runs/${stale.run.runId}/resume`, {});
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: 'completed',
        answer: 'done: slow done',
        runId: stale.run.runId,
        sessionId: stale.run.sessionId,
      });
      // The model's tool call was recorded before the interruption: only the final answer is asked for.
      expect(model.calls).toHaveLength(1);
      expect((await (await fetch(`${url}/api/v1/runs/${stale.run.runId}`)).json()).status).toBe('completed');
    } finally {
      await stale.end();
    }
  });

  it('storage.resume: auto resumes interrupted runs in the background at start, logging each; /health answers meanwhile', async () => {
    const stale = await interruptedRun();
    try {
      const { url, logs, store } = await start(filesModel(), { resume: 'auto' });
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const line = await (logs as LogSink).waitFor((l) => l.msg === 'resumed run completed' && l.runId === stale.run.runId);
      expect(line).toMatchObject({ sessionId: stale.run.sessionId, agent: 'files' });
      expect(logs.lines.some((l) => l.msg === 'resuming interrupted run' && l.runId === stale.run.runId)).toBe(true);
      const messages = await store.sessions.messages(stale.run.sessionId!);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    } finally {
      await stale.end();
    }
  });

  it('auto-resume leaves a run another live process holds (its lease), looks again later, and never runs it twice', async () => {
    const stale = await interruptedRun({ alive: true });
    const model = filesModel();
    const { url, server, logs, store } = await start(model);
    // A second server's resume of a run still running elsewhere: refused with 409, nothing run.
    const refused = await post(url, `/api/v1/runs/${stale.run.runId}/resume`, {});
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatchObject({
      code: 'storage_conflict',
      message: expect.stringContaining('being run by another process'),
    });
    const resuming = resumeInterruptedRuns({
      chat: server.parts.chat,
      store: async () => store,
      logger: server.logger,
      stopped: () => false,
      retryDelayMs: 50,
      retries: 5,
    });
    await (logs as LogSink).waitFor((l) => typeof l.msg === 'string' && l.msg.includes('held by another process; looking again later'));
    // The other process finishes its run; the next look finds it completed and leaves it.
    await stale.end();
    expect(await resuming).toBe(0);
    expect(model.calls).toHaveLength(0);
    expect((await store.checkpoints.getRun(stale.run.runId))?.status).toBe('completed');
    expect(logs.lines.some((l) => l.msg === 'resumed run completed')).toBe(false);
  });
});
