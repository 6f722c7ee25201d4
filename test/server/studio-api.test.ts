/**
 * The Studio's side of the server over real HTTP on 127.0.0.1 with a SQLite store: its static
 * files at /studio (content types, caching, CSP, client routes, no credentials needed), `whoami`
 * with API keys, live approvals over SSE, run timelines, interrupted runs and cancelling a run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/core/agent.js';
import { tool } from '../../src/core/tool.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { runtimeOf, type ServedRuntime } from '../../src/server/app/served-runtime.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/scripted-model.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, type SseEvent, sseEvents, startServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'corvid-studio-'));
const studioDir = join(dir, 'studio');
mkdirSync(join(studioDir, 'assets'), { recursive: true });
writeFileSync(join(studioDir, 'index.html'), '<!doctype html><title>Corvid Studio</title><script src="./assets/app-3f9a1c2b.js"></script>');
writeFileSync(join(studioDir, 'assets', 'app-3f9a1c2b.js'), 'console.log("studio")');
writeFileSync(join(dir, 'secret.txt'), 'not for the web');

function model(): ScriptedModel {
  return new ScriptedModel((call): ScriptedTurn => {
    const last = call.prompt.at(-1)!;
    if (last.role === 'tool') return { text: 'done', usage: { inputTokens: 5, outputTokens: 3 } };
    const text = typeof last.content === 'string' ? last.content : last.content.map((p) => ('text' in p ? p.text : '')).join('');
    if (text.startsWith('delete '))
      return { toolCalls: [{ toolName: 'delete_file', input: { path: text.slice(7) } }], usage: { inputTokens: 4, outputTokens: 2 } };
    if (text === 'slow') return { text: 'finally', delayMs: 30_000 };
    return { text: `you said ${text}`, usage: { inputTokens: 2, outputTokens: 1 } };
  });
}

function runtimeWith(store: Store, path: string, extra: Partial<ServedRuntime['config']> = {}): ServedRuntime {
  const del = tool<{ path: string }>({
    name: 'delete_file',
    description: 'Delete a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    requireApproval: 'Delete {path}?',
    execute: ({ path: p }) => `deleted ${p}`,
  });
  const helper = new Agent({ name: 'helper', model: model() });
  const files = new Agent({ name: 'files', model: model(), tools: [del], handoffs: [helper] });
  return {
    ...runtimeOf([files, helper], {
      config: { storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' }, ...extra },
    }),
    store: async () => store,
  };
}

/** The next SSE event of `events` with name `name`. */
async function next(events: AsyncGenerator<SseEvent>, name: string): Promise<SseEvent> {
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error(`stream ended before "${name}"`);
    if (value.event === name) return value;
  }
}

describe('the Studio API', () => {
  let store: Store;
  let server: RunningServer;
  let url = '';

  beforeAll(async () => {
    const path = join(dir, 'corvid.db');
    store = await openStore({ driver: 'sqlite', path });
    ({ server, url } = await startServer([], { runtime: runtimeWith(store, path), studio: { dir: studioDir } }));
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it('serves the built Studio: index for client routes, typed and cached assets, a same-origin CSP', async () => {
    const redirect = await fetch(`${url}/studio`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/studio/');
    const index = await fetch(`${url}/studio/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    expect(await index.text()).toContain('<title>Corvid Studio</title>');
    const asset = await fetch(`${url}/studio/assets/app-3f9a1c2b.js`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("studio")');
    const route = await fetch(`${url}/studio/sessions/ses_123`);
    expect(await route.text()).toContain('Corvid Studio');
    expect((await fetch(`${url}/studio/assets/missing-00000000.js`)).status).toBe(404);
    for (const p of ['/studio/..%2Fsecret.txt', '/studio/%2e%2e/secret.txt'])
      expect(await (await fetch(`${url}${p}`)).text()).not.toContain('not for the web');
  });

  it('shows an agent with its tools, model and handoffs', async () => {
    const res = await fetch(`${url}/api/v1/agents/files`);
    const body = await res.json();
    expect(body).toMatchObject({ name: 'files', model: 'scripted:scripted-model', structure: { handoffs: ['helper'] } });
    expect(body.tools).toEqual([{ name: 'delete_file', description: 'Delete a file', source: 'code', needsApproval: true }]);
  });

  it('streams new approvals and their answers, and records the run timeline with its tool span', async () => {
    const stream = await fetch(`${url}/api/v1/approvals/stream`);
    const events = sseEvents(stream);
    const paused = await (await chat(url, 'files', { message: 'delete a.txt' })).json();
    expect(paused.status).toBe('paused');
    const approval = await next(events, 'approval');
    expect(approval.data).toMatchObject({ runId: paused.runId, toolName: 'delete_file', input: { path: 'a.txt' }, status: 'pending' });
    const before = await (await fetch(`${url}/api/v1/runs/${paused.runId}/timeline`)).json();
    expect(before.status).toBe('paused');
    expect(before.steps[0].tools).toMatchObject([{ toolName: 'delete_file', status: 'pending' }]);
    const answered = await fetch(`${url}/api/v1/approvals/${approval.data.approvalId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approved: true }),
    });
    expect((await answered.json()).answer).toBe('done');
    expect((await next(events, 'resolved')).data).toEqual({ approvalId: approval.data.approvalId, status: 'approved' });
    await stream.body?.cancel().catch(() => undefined);
    const after = await (await fetch(`${url}/api/v1/runs/${paused.runId}/timeline`)).json();
    expect(after).toMatchObject({ status: 'completed', recorded: true });
    expect(after.endedAt).toBeDefined();
    expect(after.steps.map((s: { step: number }) => s.step)).toEqual([1, 2]);
    expect(after.steps[0].usage).toMatchObject({ inputTokens: 4, outputTokens: 2 });
    expect(after.steps[0].tools[0]).toMatchObject({ toolName: 'delete_file', status: 'ok' });
  });

  it('lists a run nobody runs any more as interrupted, and cancels a running one', async () => {
    const session = await store.sessions.create({ agent: 'files' });
    await store.checkpoints.save({ runId: 'run_crashed', sessionId: session.id, agent: 'files', status: 'running', state: { v: 1 } });
    const interrupted = await (await fetch(`${url}/api/v1/runs?status=interrupted`)).json();
    expect(interrupted.runs.map((r: { runId: string }) => r.runId)).toContain('run_crashed');
    const running = await (await fetch(`${url}/api/v1/runs?status=running`)).json();
    expect(running.runs).toContainEqual(expect.objectContaining({ runId: 'run_crashed', status: 'interrupted' }));
    expect((await (await fetch(`${url}/api/v1/runs/run_crashed`)).json()).status).toBe('interrupted');
    expect((await fetch(`${url}/api/v1/runs/run_crashed/cancel`, { method: 'POST' })).status).toBe(409);

    const slow = await fetch(`${url}/api/v1/agents/files/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: 'slow' }),
    });
    const events = sseEvents(slow);
    const start = await next(events, 'run_start');
    const cancelled = await fetch(`${url}/api/v1/runs/${start.data.runId}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toEqual({ runId: start.data.runId, status: 'cancelling' });
    const done = (await next(events, 'done')).data;
    expect(done).toMatchObject({ status: 'cancelled', error: { code: 'run_aborted' } });
    const run = await (await fetch(`${url}/api/v1/runs/${start.data.runId}`)).json();
    expect(run.status).toBe('cancelled');
  });
});

describe('the Studio behind API keys, and without a build', () => {
  it('loads without a key, while whoami tells a wrong key from a right one', async () => {
    const path = join(dir, 'auth.db');
    const store = await openStore({ driver: 'sqlite', path });
    const runtime = runtimeWith(store, path, {
      server: { auth: { apiKeys: [{ name: 'ops', hash: hashApiKey('sekret-key-1'), scopes: ['admin'] }] } },
    });
    const { server, url } = await startServer([], { runtime, studio: { dir: studioDir } });
    try {
      expect((await fetch(`${url}/studio/`)).status).toBe(200);
      const anonymous = await fetch(`${url}/api/v1/whoami`);
      expect(anonymous.status).toBe(401);
      const wrong = await fetch(`${url}/api/v1/whoami`, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error.code).toBe('unauthorized');
      const right = await fetch(`${url}/api/v1/whoami`, { headers: { 'x-api-key': 'sekret-key-1' } });
      expect(await right.json()).toEqual({ authenticated: true, authRequired: true, subject: 'key:ops', scopes: ['admin'] });
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('says how to build the Studio when it is missing, and is off with studio: false', async () => {
    const agent = new Agent({ name: 'a', model: model() });
    const missing = await startServer([agent], { studio: { dir: join(dir, 'nothing-here') } });
    try {
      const res = await fetch(`${missing.url}/studio/`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.message).toContain('run npm run build');
    } finally {
      await missing.server.close();
    }
    const off = await startServer([agent], { studio: false });
    try {
      expect((await (await fetch(`${off.url}/studio/`)).json()).error.code).toBe('not_found');
    } finally {
      await off.server.close();
    }
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
