import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { exitLoop, LimitExceededError, LoopAgent, SequentialAgent, tool } from '../../src/index.js';
import { recorder, scripted, systemOf } from './helpers.js';

describe('LoopAgent', () => {
  it('repeats its sub-agents until one calls exit_loop; each iteration builds on the last through state', async () => {
    const writer = scripted('writer', [{ text: 'draft 1' }, { text: 'draft 2' }], {
      instructions: 'Write. Earlier feedback: {output.critic?}',
    });
    const critic = scripted(
      'critic',
      [{ text: 'Needs numbers.' }, { toolCalls: [{ toolName: 'exit_loop', input: { reason: 'good' } }] }, { text: 'Approved.' }],
      {
        tools: [exitLoop],
        instructions: 'Review: {output.writer}',
      },
    );
    const loop = new LoopAgent({ name: 'refine', subAgents: [writer.agent, critic.agent], maxIterations: 5 });
    const rec = recorder();
    const r = await loop.run('Write a haiku', { onEvent: rec.onEvent });
    expect(r.workflow).toEqual({ kind: 'loop', iterations: 2, exitReason: 'exit_loop' });
    expect(r.text).toBe('Approved.');
    expect(systemOf(writer.model.calls[0])).toBe('Write. Earlier feedback: ');
    expect(systemOf(writer.model.calls[1])).toBe('Write. Earlier feedback: Needs numbers.');
    expect(systemOf(critic.model.calls[1])).toBe('Review: draft 2');
    expect(rec.of('task_start').map((e) => `${e.task}#${e.iteration}`)).toEqual(['writer#1', 'critic#1', 'writer#2', 'critic#2']);
    expect(r.subRuns!.map((s) => `${s.id}#${s.iteration}`)).toEqual(['writer#1', 'critic#1', 'writer#2', 'critic#2']);
  });

  it('stops at maxIterations (a normal end by default)', async () => {
    const worker = scripted('worker', () => ({ text: 'again' }));
    const r = await new LoopAgent({ name: 'l', subAgents: [worker.agent], maxIterations: 3 }).run('go');
    expect(r.workflow).toEqual({ kind: 'loop', iterations: 3, exitReason: 'max_iterations' });
    expect(worker.model.calls).toHaveLength(3);
  });

  it("fails with LimitExceededError at the cap when onMaxIterations is 'error'", async () => {
    const worker = scripted('worker', () => ({ text: 'again' }));
    const loop = new LoopAgent({ name: 'l', subAgents: [worker.agent], maxIterations: 2, onMaxIterations: 'error' });
    const err = await loop.run('go').catch((e) => e);
    expect(err).toBeInstanceOf(LimitExceededError);
    expect(err).toMatchObject({ limit: 'max_iterations', value: 2, agent: 'l', path: ['l'] });
    expect(err.message).toMatch(/Agent "l" reached max_iterations = 2 without exit_loop being called/);
    expect(worker.model.calls).toHaveLength(2);
  });

  it('ends when its until condition holds, e.g. a state key a tool set', async () => {
    const approve = tool({
      name: 'approve',
      description: 'Approve',
      input: z.object({}),
      execute: (_input, ctx) => {
        ctx.state.session.set('approved', true);
        return 'ok';
      },
    });
    const reviewer = scripted(
      'reviewer',
      [{ text: 'no' }, { toolCalls: [{ toolName: 'approve', input: {} }] }, { text: 'yes' }, { text: 'never' }],
      { tools: [approve] },
    );
    const loop = new LoopAgent({ name: 'l', subAgents: [reviewer.agent], until: ({ state }) => state.session.get('approved') === true });
    const r = await loop.run('review');
    expect(r.workflow).toMatchObject({ iterations: 2, exitReason: 'condition' });
    expect(r.text).toBe('yes');
  });

  it('lets exit_loop deep inside a sequential sub-agent end the loop, and reports exit_loop outside a loop to the model', async () => {
    const a = scripted('a', [{ text: 'a1' }, { text: 'a2' }]);
    const b = scripted('b', [{ text: 'b1' }, { toolCalls: [{ toolName: 'exit_loop', input: {} }] }, { text: 'b2' }], { tools: [exitLoop] });
    const loop = new LoopAgent({ name: 'l', subAgents: [new SequentialAgent({ name: 'seq', subAgents: [a.agent, b.agent] })] });
    const r = await loop.run('go');
    expect(r.workflow).toMatchObject({ iterations: 2, exitReason: 'exit_loop' });

    const alone = scripted('alone', [{ toolCalls: [{ toolName: 'exit_loop', input: {} }] }, { text: 'ok' }], { tools: [exitLoop] });
    const r2 = await alone.agent.run('go');
    expect(r2.steps[0].toolResults[0]).toMatchObject({
      isError: true,
      output: expect.stringMatching(/only works for an agent running inside a loop agent/),
    });
  });
});
