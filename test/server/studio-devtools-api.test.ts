/**
 * The server side of the Studio's developer tools over real HTTP on 127.0.0.1 with a SQLite store and API keys:
 * per-turn chat overrides (a configured model, temperature, max tokens, the system prompt — checked on what the
 * fake LLM server received), who may use them, the configured models, the system prompt on the agent page, and the
 * trace and events of runs (visible to their owner only; unknown runs 404; bad queries 400).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../src/core/agent.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { runtimeOf } from '../../src/server/app/served-runtime.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import type { Store } from '../../src/types/storage/store.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { startServer } from './helpers.js';

const KEYS = { ops: 'ops-key-123', reader: 'reader-key-123', other: 'other-key-123' };

describe('the Studio developer tools API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-devtools-'));
  let llm: FakeLlmServer;
  let store: Store;
  let server: RunningServer;
  let url = '';

  beforeAll(async () => {
    llm = await startFakeLlmServer(() => ({ text: 'Arr.', usage: { input: 9, output: 2 } }));
    const path = join(dir, 'corvid.db');
    store = await openStore({ driver: 'sqlite', path });
    const scripted = new ScriptedModel(() => ({ text: 'scripted answer', usage: { inputTokens: 3, outputTokens: 1 } }));
    const agent = new Agent({ name: 'helper', instructions: 'You help.', model: scripted });
    const runtime = {
      ...runtimeOf([agent], {
        config: {
          models: { quick: { provider: 'openai-compatible', baseURL: `${llm.url}/v1`, model: 'quick-model', retry: { maxRetries: 0 } } },
          storage: { driver: 'sqlite', path, checkpoints: { strategy: 'event', intervalMs: 5000 }, resume: 'manual' },
          server: {
            auth: {
              apiKeys: [
                { name: 'ops', hash: hashApiKey(KEYS.ops), scopes: ['admin'] },
                { name: 'reader', hash: hashApiKey(KEYS.reader), scopes: ['read'] },
                { name: 'other', hash: hashApiKey(KEYS.other) },
              ],
            },
          },
        },
      }),
      store: async () => store,
    };
    ({ server, url } = await startServer([], { runtime }));
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (key: string | undefined, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('runs a turn on a configured model with the settings and system prompt asked for, and keeps the agent as configured', async () => {
    const overrides = { model: 'quick', temperature: 0.5, maxTokens: 64, instructions: 'Talk like a pirate.' };
    const turn = await call(KEYS.ops, '/api/v1/agents/helper/chat', { message: 'ahoy', overrides });
    expect(turn).toMatchObject({ status: 200, body: { answer: 'Arr.' } });
    const sent = llm.requests.at(-1)!.body;
    expect(sent).toMatchObject({ model: 'quick-model', temperature: 0.5 });
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(64);
    expect(sent.messages[0]).toMatchObject({ role: 'system', content: expect.stringContaining('Talk like a pirate.') });
    const plain = await call(KEYS.ops, '/api/v1/agents/helper/chat', { message: 'plain' });
    expect(plain.body.answer).toBe('scripted answer');
    expect(llm.requests).toHaveLength(1);
  });

  it('refuses a model that is not configured, settings out of range, and credentials without admin', async () => {
    const unknown = await call(KEYS.ops, '/api/v1/agents/helper/chat', { message: 'x', overrides: { model: 'gpt-9' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('overrides.model: "gpt-9" is not a configured model (configured: quick)');
    const hot = await call(KEYS.ops, '/api/v1/agents/helper/chat', { message: 'x', overrides: { temperature: 7 } });
    expect(hot.status).toBe(400);
    expect(hot.body.error.message).toMatch(/overrides\.temperature.*from 0 to 2/);
    const reader = await call(KEYS.reader, '/api/v1/agents/helper/chat', { message: 'x', overrides: { temperature: 1 } });
    expect(reader.status).toBe(403);
    expect(reader.body.error.message).toContain('needs the admin scope');
    expect(llm.requests).toHaveLength(1);
  });

  it('lists the configured models without their endpoints, and shows the system prompt to those who may override it', async () => {
    expect((await call(KEYS.reader, '/api/v1/models')).body).toEqual({
      models: [{ name: 'quick', provider: 'openai-compatible', model: 'quick-model' }],
    });
    expect((await call(undefined, '/api/v1/models')).status).toBe(401);
    expect((await call(KEYS.ops, '/api/v1/agents/helper')).body.instructions).toBe('You help.');
    expect((await call(KEYS.reader, '/api/v1/agents/helper')).body.instructions).toBeUndefined();
  });

  it('shows a run’s trace and events to its owner only', async () => {
    const turn = await call(KEYS.ops, '/api/v1/agents/helper/chat', { message: 'trace me' });
    const runId = turn.body.runId as string;
    const trace = await call(KEYS.ops, `/api/v1/runs/${runId}/trace`);
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({ runId, source: 'checkpoints', usage: { inputTokens: 3, outputTokens: 1 } });
    expect(trace.body.spans[0]).toMatchObject({ kind: 'agent', name: 'helper', input: 'trace me', output: 'scripted answer' });
    expect(trace.body.spans.find((s: { kind: string }) => s.kind === 'model')).toMatchObject({ usage: { inputTokens: 3 } });
    const events = await call(KEYS.ops, `/api/v1/runs/${runId}/events`);
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(['run_start', 'step_start', 'step_end', 'answer', 'run_end']);
    expect((await call(KEYS.other, `/api/v1/runs/${runId}/trace`)).status).toBe(404);
    expect((await call(KEYS.other, `/api/v1/runs/${runId}/events`)).status).toBe(404);
    expect((await call(undefined, `/api/v1/runs/${runId}/trace`)).status).toBe(401);
    const missing = await call(KEYS.ops, '/api/v1/runs/run_nope/trace');
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'run_not_found' } } });
    const bad = await call(KEYS.ops, `/api/v1/runs/${runId}/events?after=soon`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('after is an event seq');
  });
});
