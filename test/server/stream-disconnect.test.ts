import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { Agent } from '../../src/index.js';
import { type ChatSession, MemoryChatSessions } from '../../src/server/sessions/chat-sessions.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { chat, gate, metricValue, sseEvents, startServer } from './helpers.js';

/** A model that waits for `release` (or the run's abort) before answering. */
function heldAgent() {
  const release = gate();
  const aborted = gate<unknown>();
  const started = gate();
  const model = new ScriptedModel(async (call) => {
    started.open();
    await new Promise<void>((resolve, reject) => {
      void release.promise.then(resolve);
      call.abortSignal?.addEventListener('abort', () => {
        aborted.open(call.abortSignal?.reason);
        reject(call.abortSignal?.reason);
      });
    });
    return { text: 'finished anyway', usage: { inputTokens: 1, outputTokens: 1 } };
  });
  return { agent: new Agent({ name: 'slow', model }), release, aborted, started };
}

class WatchedSessions extends MemoryChatSessions {
  readonly saved = gate<ChatSession>();
  override async save(session: ChatSession): Promise<void> {
    await super.save(session);
    this.saved.open(session);
  }
}

const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

async function openAndDrop(url: string): Promise<string> {
  const res = await chat(url, 'slow', { message: 'take your time', stream: true });
  let sessionId = '';
  const it = sseEvents(res);
  for await (const e of it) {
    if (e.event === 'session') sessionId = e.data.sessionId;
    if (e.event === 'step_start') break;
  }
  await res.body!.cancel();
  return sessionId;
}

describe('SSE clients that disconnect mid-run', () => {
  it('on_disconnect: continue — the run finishes and the session gets the answer; nothing leaks', async () => {
    const { agent, release, started } = heldAgent();
    const sessions = new WatchedSessions();
    const { server, url, logs } = await startServer([agent], { sessions, server: { streams: { onDisconnect: 'continue' } } });
    try {
      const before = timeouts();
      const sessionId = await openAndDrop(url);
      await started.promise;
      await logs.waitFor((l) => l.msg === 'stream client disconnected' && l.onDisconnect === 'continue');
      release.open();
      const saved = await sessions.saved.promise;
      expect(saved.id).toBe(sessionId);
      const got = await (await fetch(`${url}/api/v1/sessions/${sessionId}`)).json();
      expect(got.messages.at(-1).content[0].text).toBe('finished anyway');
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metricValue(metrics, 'corvid_active_streams')).toBe(0);
      expect(metricValue(metrics, 'corvid_runs_total', { agent: 'slow', status: 'completed' })).toBe(1);
      expect(server.parts.chat.isBusy(sessionId)).toBe(false);
      await vi.waitFor(() => expect(timeouts()).toBeLessThanOrEqual(before));
      // The session takes the next turn.
      expect((await chat(url, 'slow', { message: 'again', sessionId })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('on_disconnect: stop — the run is aborted, the session is left as it was and unlocked', async () => {
    const { agent, aborted } = heldAgent();
    const { server, url, logs } = await startServer([agent], { server: { streams: { onDisconnect: 'stop' } } });
    try {
      const before = timeouts();
      const sessionId = await openAndDrop(url);
      await logs.waitFor((l) => l.msg === 'stream client disconnected' && l.onDisconnect === 'stop');
      await aborted.promise;
      await vi.waitFor(() => expect(server.parts.chat.isBusy(sessionId)).toBe(false));
      const got = await (await fetch(`${url}/api/v1/sessions/${sessionId}`)).json();
      expect(got.messageCount).toBe(0);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metricValue(metrics, 'corvid_active_streams')).toBe(0);
      expect(metricValue(metrics, 'corvid_runs_total', { agent: 'slow', status: 'aborted' })).toBe(1);
      await vi.waitFor(() => expect(timeouts()).toBeLessThanOrEqual(before));
    } finally {
      await server.close();
    }
  });

  it('by default, without a store, a client that goes away stops its run at once', async () => {
    const { agent, aborted } = heldAgent();
    const { server, url, logs } = await startServer([agent]);
    try {
      const sessionId = await openAndDrop(url);
      await logs.waitFor((l) => l.msg === 'stream client disconnected' && l.onDisconnect === 'stop');
      await aborted.promise;
      await vi.waitFor(() => expect(server.parts.chat.isBusy(sessionId)).toBe(false));
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metricValue(metrics, 'corvid_runs_total', { agent: 'slow', status: 'aborted' })).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('by default, with a store (a durable session run), the run finishes for the next visit', async () => {
    const { agent, release, started } = heldAgent();
    const store = await openStore({ driver: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'corvid-disconnect-')), 'c.db') });
    const { server, url, logs } = await startServer([agent], { store });
    try {
      const sessionId = await openAndDrop(url);
      await started.promise;
      await logs.waitFor((l) => l.msg === 'stream client disconnected' && l.onDisconnect === 'continue');
      release.open();
      await vi.waitFor(() => expect(server.parts.chat.isBusy(sessionId)).toBe(false));
      const got = await (await fetch(`${url}/api/v1/sessions/${sessionId}`)).json();
      expect(got.messages.at(-1).content[0].text).toBe('finished anyway');
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('holds 200 concurrent streams and closes them all cleanly', async () => {
    const agent = new Agent({
      name: 'fast',
      model: new ScriptedModel(() => ({ text: 'a b c', usage: { inputTokens: 1, outputTokens: 1 } }), { record: false }),
    });
    const { server, url } = await startServer([agent]);
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const res = await chat(url, 'fast', { message: 'go', stream: true });
          const events: string[] = [];
          for await (const e of sseEvents(res)) events.push(e.event);
          return events.at(-1);
        }),
      );
      expect(results.every((e) => e === 'done')).toBe(true);
      expect(metricValue(await (await fetch(`${url}/metrics`)).text(), 'corvid_active_streams')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
