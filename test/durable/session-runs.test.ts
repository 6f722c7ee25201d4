import { afterEach, describe, expect, it } from 'vitest';

import { SequentialAgent } from '../../src/agents/index.js';
import { Agent, type AgentEvent, tool, type ToolContext } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { promptText, storeAt, TARGETS } from './support.js';

const noteTool = (seen: ToolContext[] = []) =>
  tool<{ text: string }>({
    name: 'note',
    description: 'Remember a note in the session state',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: ({ text }, ctx) => {
      seen.push(ctx);
      ctx.state.session.set('note', text);
      return `noted: ${text}`;
    },
  });

for (const target of TARGETS) {
  describe.skipIf(Boolean(target.skip))(`session runs on ${target.name}`, () => {
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    it('continue a conversation across two Agent instances (and two store connections)', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const seen: ToolContext[] = [];
      const first = new ScriptedModel([
        { toolCalls: [{ toolName: 'note', input: { text: 'Ann likes tea' } }], usage: { inputTokens: 7, outputTokens: 3 } },
        { text: 'Nice to meet you, Ann.' },
      ]);
      const a1 = new Agent({ name: 'helper', model: first, tools: [noteTool(seen)], store: await at.open() });
      const r1 = await a1.run('Hi, I am Ann', { session: { id: 'chat-1', userId: 'u1' } });
      expect(r1).toMatchObject({ text: 'Nice to meet you, Ann.', status: 'completed', sessionId: 'chat-1' });
      expect(r1.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(seen[0]).toMatchObject({ sessionId: 'chat-1', userId: 'u1' });
      expect(seen[0].store).toBeDefined();

      // A new agent object on a new connection: the model sees the stored conversation and state.
      const second = new ScriptedModel([{ text: 'You are Ann, and you like tea.' }]);
      const store2 = await at.open();
      const a2 = new Agent({ name: 'helper', instructions: 'Known: {state.note}', model: second, tools: [noteTool()], store: store2 });
      const r2 = await a2.run('Who am I?', { session: 'chat-1' });
      expect(r2.text).toBe('You are Ann, and you like tea.');
      expect(promptText(second.calls[0].prompt)).toEqual([
        'system: Known: Ann likes tea',
        'user: Hi, I am Ann',
        'assistant: call note({"text":"Ann likes tea"})',
        'tool: result note {"type":"text","value":"noted: Ann likes tea"}',
        'assistant: Nice to meet you, Ann.',
        'user: Who am I?',
      ]);
      const entries = await store2.sessions.entries('chat-1');
      expect(entries.map((e) => [e.seq, e.role, e.agent, e.runId])).toEqual([
        [1, 'user', 'helper', r1.runId],
        [2, 'assistant', 'helper', r1.runId],
        [3, 'tool', 'helper', r1.runId],
        [4, 'assistant', 'helper', r1.runId],
        [5, 'user', 'helper', r2.runId],
        [6, 'assistant', 'helper', r2.runId],
      ]);
      expect(entries[1].usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
      expect(await store2.state.get({ session: 'chat-1' }, 'note')).toBe('Ann likes tea');
      expect((await store2.sessions.get('chat-1'))?.userId).toBe('u1');
      const runs = await store2.checkpoints.listRuns({ sessionId: 'chat-1' });
      expect(runs.map((r) => [r.runId, r.status, r.agent]).sort()).toEqual(
        [
          [r1.runId, 'completed', 'helper'],
          [r2.runId, 'completed', 'helper'],
        ].sort(),
      );
    });

    it('stream() with a session appends as it goes and reports the same answer', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      const agent = new Agent({ name: 'streamer', model: new ScriptedModel([{ text: 'Hello there' }, { text: 'Again' }]), store });
      const s = agent.stream('hi', { session: 's-stream' });
      const types: string[] = [];
      for await (const e of s) types.push(e.type);
      const r = await s.result;
      expect(types).toEqual(['run_start', 'step_start', 'text_delta', 'text_delta', 'step_end', 'answer', 'run_end']);
      expect(r.text).toBe('Hello there');
      expect((await store.sessions.messages('s-stream')).length).toBe(2);
    });

    it('a handoff makes the target the active agent, and the next run on the first agent continues with it', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      const billingModel = new ScriptedModel([{ text: 'Billing here: refunded.' }, { text: 'Billing again: done.' }]);
      const billing = new Agent({ name: 'billing', model: billingModel });
      const frontModel = new ScriptedModel([{ toolCalls: [{ toolName: 'transfer_to_billing', input: {} }] }]);
      const front = new Agent({ name: 'front', model: frontModel, handoffs: [billing], store });
      const r1 = await front.run('I want a refund', { session: 'h1' });
      expect(r1).toMatchObject({ text: 'Billing here: refunded.', activeAgent: 'billing' });
      expect(await store.sessions.getActiveAgent('h1')).toBe('billing');
      const entries = await store.sessions.entries('h1');
      expect(entries.map((e) => `${e.type}:${e.agent}`)).toEqual([
        'message:front',
        'message:front',
        'message:front',
        'handoff:front',
        'message:billing',
      ]);
      expect(entries[3].data).toMatchObject({ from: 'front', to: 'billing' });

      const r2 = await front.run('And the other one?', { session: 'h1' });
      expect(r2.text).toBe('Billing again: done.');
      expect(frontModel.calls).toHaveLength(1);
      expect(promptText(billingModel.calls[1].prompt).at(-1)).toBe('user: And the other one?');
    });

    it('workflow agents keep their input and answer in the session', async () => {
      const at = await storeAt(target);
      cleanup = at.close;
      const store = await at.open();
      const team = new SequentialAgent({
        name: 'team',
        subAgents: [
          new Agent({ name: 'one', model: new ScriptedModel([{ text: 'draft' }]) }),
          new Agent({ name: 'two', model: new ScriptedModel([{ text: 'final' }]) }),
        ],
        store,
      });
      const r = await team.run('write', { session: 'w1' });
      expect(r.text).toBe('final');
      expect(promptText(await store.sessions.messages('w1'))).toEqual(['user: write', 'assistant: final']);
      expect((await store.checkpoints.getRun(r.runId))?.status).toBe('completed');
    });
  });
}

describe('session runs: bad input', () => {
  it('a session run without a store says how to give one', async () => {
    const agent = new Agent({ name: 'lonely', model: new ScriptedModel([{ text: 'x' }]) });
    await expect(agent.run('hi', { session: 's' })).rejects.toMatchObject({
      name: 'DurableRunError',
      code: 'validation_failed',
      message: expect.stringContaining('needs a store'),
    });
  });

  it('an empty session id is refused, naming it', async () => {
    const { openStore } = await import('../../src/storage/index.js');
    const store = await openStore({ driver: 'memory' });
    const agent = new Agent({ name: 'a', model: new ScriptedModel([{ text: 'x' }]), store });
    await expect(agent.run('hi', { session: '  ' })).rejects.toThrow(/session must be a non-empty id/);
    await store.close();
  });

  it('a run without a session never opens the store', async () => {
    let opened = 0;
    const agent = new Agent({
      name: 'plain',
      model: new ScriptedModel([{ text: 'fine' }]),
      store: async () => {
        opened++;
        throw new Error('must not open');
      },
    });
    const events: AgentEvent[] = [];
    expect((await agent.run('hi', { onEvent: (e) => events.push(e) })).text).toBe('fine');
    expect(opened).toBe(0);
  });
});
