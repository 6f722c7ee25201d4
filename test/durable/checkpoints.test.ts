import { describe, expect, it } from 'vitest';

import { Agent, type RunStateV1, tool } from '../../src/index.js';
import { type CheckpointInput, openStore, type Store } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

/** A memory store that records every checkpoint written. */
async function recordingStore(): Promise<{ store: Store; saved: CheckpointInput[] }> {
  const store = await openStore({ driver: 'memory' });
  const saved: CheckpointInput[] = [];
  const save = store.checkpoints.save.bind(store.checkpoints);
  store.checkpoints.save = (input) => (saved.push(structuredClone(input)), save(input));
  return { store, saved };
}

const echo = tool<{ n: number }>({
  name: 'echo',
  description: 'Echo',
  parameters: { type: 'object', properties: { n: { type: 'number' } } },
  execute: ({ n }) => `echo ${n}`,
});
const twoSteps = () =>
  new ScriptedModel([
    { toolCalls: [{ toolName: 'echo', input: { n: 1 }, toolCallId: 'a' }] },
    { toolCalls: [{ toolName: 'echo', input: { n: 2 }, toolCallId: 'b' }] },
    { text: 'done' },
  ]);

describe('checkpoint strategies', () => {
  it('event: before each model call, after each model response with tools and each tool result; running → completed', async () => {
    const { store, saved } = await recordingStore();
    const r = await new Agent({ name: 'e', model: twoSteps(), tools: [echo], store }).run('go', { session: 's' });
    const states = saved.map((c) => c.state as RunStateV1);
    expect(saved.map((c) => c.status)).toEqual([...Array(8).fill('running'), 'completed']);
    expect(
      states.map((s) => (s.inFlight ? `step${s.inFlight.step}:${Object.keys(s.inFlight.completed).join(',') || '-'}` : `step${s.step}`)),
    ).toEqual([
      'step0', // start: the run exists, the input is in the session (one transaction)
      'step1', // before the first model call
      'step1:-', // the model asked for echo(1)
      'step1:a', // echo(1) finished: its result is recorded
      'step2',
      'step2:-',
      'step2:b',
      'step3',
      'step3',
    ]);
    expect(states[3].inFlight!.completed.a).toEqual({ output: 'echo 1', isError: false });
    // The first checkpoint was written with the user's message: the session has it, nothing is pending.
    expect(saved[0].append).toEqual({
      entries: [{ message: { role: 'user', content: [{ type: 'text', text: 'go' }] }, agent: 'e', runId: r.runId }],
      expectedLastSeq: 0,
    });
    expect(states[0].pending).toBeUndefined();
    expect(states[0].sessionLastSeq).toBe(1);
    expect(states.every((s) => s.v === 1 && s.rootAgent === 'e')).toBe(true);
    expect((await store.checkpoints.getRun(r.runId))?.checkpoints).toBe(9);
  });

  it('interval: at most one checkpoint per interval (plus the first, each tool result and the last)', async () => {
    const { store, saved } = await recordingStore();
    await new Agent({ name: 'i', model: twoSteps(), tools: [echo], store, checkpoints: { strategy: 'interval', intervalMs: 60_000 } }).run(
      'go',
      { session: 's' },
    );
    // A finished tool is stored before it is acknowledged, whatever the strategy (with its step's calls).
    const states = saved.map((c) => c.state as RunStateV1);
    expect(saved.map((c) => c.status)).toEqual(['running', 'running', 'running', 'completed']);
    expect(states.slice(1, 3).map((s) => s.inFlight && Object.keys(s.inFlight.completed))).toEqual([['a'], ['b']]);
    // The session still got every message as it happened.
    expect((await store.sessions.messages('s')).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('hybrid: model responses and tool results always, the rest by interval; RunOptions override the agent', async () => {
    const { store, saved } = await recordingStore();
    const agent = new Agent({ name: 'h', model: twoSteps(), tools: [echo], store, checkpoints: { strategy: 'event' } });
    await agent.run('go', { durable: true, checkpoints: { strategy: 'hybrid', intervalMs: 60_000 } });
    expect(saved.length).toBe(6);
    // Without a session the checkpoint carries the conversation itself.
    expect((saved[5].state as RunStateV1).messages?.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('ttl: checkpoints expire and expired runs are removed', async () => {
    const { store, saved } = await recordingStore();
    const r = await new Agent({ name: 't', model: new ScriptedModel([{ text: 'x' }]), store, checkpoints: { ttlMs: 1000 } }).run('go', {
      session: 's',
    });
    expect(saved.every((c) => c.expiresAt instanceof Date && c.expiresAt.getTime() > Date.now())).toBe(true);
    expect(await store.checkpoints.deleteExpired(new Date(Date.now() + 5000))).toBe(saved.length);
    expect(await store.checkpoints.getRun(r.runId)).toBeUndefined();
  });

  it('a failed run is marked failed and can be resumed from its last checkpoint', async () => {
    const { store } = await recordingStore();
    const flaky = new ScriptedModel([
      { toolCalls: [{ toolName: 'echo', input: { n: 1 }, toolCallId: 'a' }] },
      { error: new Error('provider down') },
      { text: 'recovered' },
    ]);
    let runs = 0;
    const counted = tool<{ n: number }>({ ...echo, execute: ({ n }) => (runs++, `echo ${n}`) });
    const agent = new Agent({ name: 'f', model: flaky, tools: [counted], store });
    let runId = '';
    await expect(agent.run('go', { session: 's', onEvent: (e) => (runId = e.runId) })).rejects.toThrow(/provider down/);
    expect((await store.checkpoints.getRun(runId))?.status).toBe('failed');
    const r = await agent.resume(runId);
    expect(r).toMatchObject({ runId, text: 'recovered', status: 'completed' });
    expect(runs).toBe(1);
    expect((await store.sessions.messages('s')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
