/**
 * Cross-site request forgery: a page of another site can make a browser POST forms and
 * `text/plain` without asking the server first, and can open WebSockets. `corvid serve` refuses
 * bodies that are not JSON (415) and foreign `Origin`s (403) before anything runs — over real
 * HTTP on 127.0.0.1, with a SQLite store so approvals and resumable runs are there too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { tool } from '../../src/core/tool.js';
import { Agent } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel } from '../../src/testing/index.js';
import type { Store } from '../../src/types/storage/store.js';
import { chat, scriptedAgent, startServer } from './helpers.js';

const ALLOWED = 'https://app.example.com';
const EVIL = 'http://evil.example';

/** `delete <path>` asks for approval before deleting; anything else is echoed. Every model call is recorded. */
function filesAgent() {
  const deleted: string[] = [];
  const del = tool<{ path: string }>({
    name: 'delete_file',
    description: 'Delete a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    requireApproval: 'Delete {path}?',
    execute: ({ path }) => (deleted.push(path), `deleted ${path}`),
  });
  const model = new ScriptedModel((call) => {
    const last = call.prompt.at(-1)!;
    if (last.role === 'tool') return { text: 'done' };
    const text = Array.isArray(last.content) ? last.content.map((p) => ('text' in p ? p.text : '')).join('') : '';
    const m = /^delete (\S+)$/.exec(text);
    return m ? { toolCalls: [{ toolName: 'delete_file', input: { path: m[1] } }] } : { text: `you said ${text}` };
  });
  return { agent: new Agent({ name: 'files', instructions: 'Files.', model, tools: [del] }), model, deleted };
}

/** A body sent as `type` (what a form or a `fetch` of another site sends); `undefined`: bytes with no Content-Type. */
function as(type: string | undefined, text: string, headers: Record<string, string> = {}): RequestInit {
  return type === undefined
    ? { method: 'POST', headers, body: new TextEncoder().encode(text) }
    : { method: 'POST', headers: { ...headers, 'content-type': type }, body: text };
}

const NOT_JSON = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', undefined];

describe('CSRF guards of corvid serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-csrf-'));
  let server: RunningServer;
  let url: string;
  let store: Store;
  const files = filesAgent();

  beforeAll(async () => {
    const path = join(dir, 'corvid.db');
    store = await openStore({ driver: 'sqlite', path });
    const runtime = {
      ...runtimeOf([files.agent], {
        config: { storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' } },
      }),
      store: async () => store,
    };
    ({ server, url } = await startServer([], { runtime, server: { cors: { origins: [ALLOWED] } } }));
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 415 to bodies that are not JSON on every state-changing endpoint, and starts nothing', async () => {
    // A turn paused on an approval, made the right way.
    const paused = await (await chat(url, 'files', { message: 'delete a.txt' })).json();
    expect(paused.status).toBe('paused');
    const approvalId: string = paused.pendingApprovals[0].approvalId;
    const calls = files.model.calls.length;
    const v03 = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
    });
    const v1 = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    });
    const rest = JSON.stringify({ message: { messageId: 'm3', role: 'ROLE_USER', parts: [{ text: 'hi' }] } });

    for (const type of NOT_JSON) {
      const refused = async (path: string, init: RequestInit) => {
        const res = await fetch(`${url}${path}`, init);
        expect({ type, path, status: res.status }).toEqual({ type, path, status: 415 });
        return res.json();
      };
      // Chat, without a session (it would start one) and with one.
      const c = await refused('/api/v1/agents/files/chat', as(type, '{"message":"hi"}'));
      expect(c.error).toEqual({ code: 'unsupported_media_type', message: expect.stringContaining('"Content-Type: application/json"') });
      await refused('/api/v1/agents/files/chat', as(type, JSON.stringify({ message: 'hi', sessionId: paused.sessionId })));
      expect((await refused(`/api/v1/approvals/${approvalId}`, as(type, '{"approved":true}'))).error.code).toBe('unsupported_media_type');
      expect((await refused(`/api/v1/runs/${paused.runId}/resume`, as(type, '{}'))).error.code).toBe('unsupported_media_type');
      // A2A: JSON-RPC keeps its error format (-32005, content type not supported).
      expect(await refused('/a2a/files', as(type, v03))).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } });
      expect(await refused('/a2a/files', as(type, v1, { 'A2A-Version': '1.0' }))).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32005 },
      });
      expect((await refused('/a2a/files/rest/message:send', as(type, rest, { 'A2A-Version': '1.0' }))).error.code).toBe(415);
      expect((await refused('/a2a/files/rest/v1/message:send', as(type, v03))).code).toBe(-32005);
    }

    // Nothing ran: no model call, no new session, run or task, the approval still pending.
    expect(files.model.calls.length).toBe(calls);
    expect(files.deleted).toEqual([]);
    expect((await (await fetch(`${url}/api/v1/sessions`)).json()).sessions.map((s: { id: string }) => s.id)).toEqual([paused.sessionId]);
    expect(
      (await (await fetch(`${url}/api/v1/runs`)).json()).runs.map((r: { runId: string; status: string }) => [r.runId, r.status]),
    ).toEqual([[paused.runId, 'paused']]);
    expect((await (await fetch(`${url}/api/v1/approvals/${approvalId}`)).json()).status).toBe('pending');
    const tasks = await (await fetch(`${url}/a2a/files/rest/tasks`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(tasks.tasks ?? []).toEqual([]);

    // The right way still works: the approval resumes the run.
    const approved = await fetch(`${url}/api/v1/approvals/${approvalId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"approved":true}',
    });
    expect((await approved.json()).answer).toBe('done');
    expect(files.deleted).toEqual(['a.txt']);
  });

  it('lets POSTs without a body through whatever their Content-Type', async () => {
    const resume = await fetch(`${url}/api/v1/runs/run_unknown/resume`, { method: 'POST' });
    expect(resume.status).toBe(404);
    const typed = await fetch(`${url}/api/v1/runs/run_unknown/resume`, { method: 'POST', headers: { 'content-type': 'text/plain' } });
    expect(typed.status).toBe(404);
  });

  it('answers 403 to a state-changing request from a foreign Origin; its own origin, an allowed one and none pass', async () => {
    const calls = files.model.calls.length;
    for (const origin of [
      EVIL,
      'null',
      url.replace(/:\d+$/, ':1'),
      `https://${new URL(url).host}`,
      'https://app.example.com.evil.example',
    ]) {
      const res = await chat(url, 'files', { message: 'hi' }, { origin });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
      expect((await res.json()).error).toEqual({ code: 'origin_not_allowed', message: expect.stringContaining('server.cors.origins') });
    }
    expect(files.model.calls.length).toBe(calls);
    const a2a = await fetch(`${url}/a2a/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: EVIL },
      body: '{}',
    });
    expect(a2a.status).toBe(403);
    expect((await fetch(`${url}/api/v1/sessions/x`, { method: 'DELETE', headers: { origin: EVIL } })).status).toBe(403);

    expect((await chat(url, 'files', { message: 'hi' }, { origin: url })).status).toBe(200);
    const allowed = await chat(url, 'files', { message: 'hi' }, { origin: ALLOWED });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect((await chat(url, 'files', { message: 'hi' })).status).toBe(200);
    // A GET's answer cannot be read by another site without CORS: left alone.
    expect((await fetch(`${url}/api/v1/agents`, { headers: { origin: EVIL } })).status).toBe(200);
  });

  it('refuses a WebSocket upgrade from a foreign Origin before upgrading; its own origin, an allowed one and none connect', async () => {
    const wsUrl = `${url.replace(/^http/, 'ws')}/api/v1/agents/files/ws`;
    const open = (origin: string | undefined) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(wsUrl, origin === undefined ? {} : { origin });
        ws.once('open', () => (ws.close(), resolve(101)));
        ws.once('unexpected-response', (_req, res) => (resolve(res.statusCode ?? 0), res.resume(), ws.terminate()));
        ws.once('error', (err) => reject(err));
      });
    expect(await open(EVIL)).toBe(403);
    expect(await open('null')).toBe(403);
    expect(await open(url)).toBe(101);
    expect(await open(ALLOWED)).toBe(101);
    expect(await open(undefined)).toBe(101);
  });
});

describe('Origin rules from the config', () => {
  it('accepts the origin of server.base_url, and any origin with cors origins "*"', async () => {
    const based = await startServer([scriptedAgent('helper')], { server: { baseUrl: 'https://corvid.example.com/base' } });
    const any = await startServer([scriptedAgent('helper')], { server: { cors: { origins: ['*'] } } });
    try {
      expect((await chat(based.url, 'helper', { message: 'x' }, { origin: 'https://corvid.example.com' })).status).toBe(200);
      expect((await chat(based.url, 'helper', { message: 'x' }, { origin: 'https://CORVID.example.com:443' })).status).toBe(200);
      expect((await chat(based.url, 'helper', { message: 'x' }, { origin: 'http://corvid.example.com' })).status).toBe(403);
      expect((await chat(any.url, 'helper', { message: 'x' }, { origin: EVIL })).status).toBe(200);
      // Behind a TLS proxy that says so, the page's https origin is the server's own.
      expect(
        (await chat(based.url, 'helper', { message: 'x' }, { origin: `https://${new URL(based.url).host}`, 'x-forwarded-proto': 'https' }))
          .status,
      ).toBe(200);
    } finally {
      await based.server.close();
      await any.server.close();
    }
  });
});
