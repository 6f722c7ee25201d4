import { describe, expect, it } from 'vitest';

import { Agent, DEFAULT_MAX_DEPTH, LimitExceededError, ParallelAgent, SequentialAgent } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { answering, recorder, scripted, waitForAbort } from './helpers.js';

const ask = (agent: string) => ({ toolCalls: [{ toolName: `ask_${agent}`, input: { message: 'go on' } }] });

describe('run limits', () => {
  it('a token budget exceeded deep in the tree stops the whole run, naming the agent, its path and the limit', async () => {
    const leaf = scripted('leaf', [{ text: 'big answer', usage: { inputTokens: 400, outputTokens: 200 } }]);
    const mid = scripted('mid', [ask('leaf'), { text: 'never' }], { tools: [leaf.agent.asTool()] });
    const boss = scripted('boss', [ask('mid'), { text: 'never' }], { tools: [mid.agent.asTool()], limits: { maxTotalTokens: 500 } });
    const rec = recorder();
    const err = await boss.agent.run('go', { onEvent: rec.onEvent }).catch((e) => e);
    expect(err).toBeInstanceOf(LimitExceededError);
    expect(err).toMatchObject({
      code: 'limit_exceeded',
      limit: 'max_total_tokens',
      value: 500,
      used: 630,
      agent: 'leaf',
      path: ['boss', 'mid', 'leaf'],
    });
    expect(err.message).toBe(
      'Agent "leaf" (boss > mid > leaf) exceeded the run\'s budget max_total_tokens = 500 tokens across all agents (used 630)',
    );
    // Nothing went back to a model as a tool error: the callers were not called again.
    expect(mid.model.calls).toHaveLength(1);
    expect(boss.model.calls).toHaveLength(1);
    expect(rec.of('run_end').map((e) => `${e.agent}:${e.status}`)).toEqual(['leaf:failed', 'mid:failed', 'boss:failed']);
    expect(rec.of('error').every((e) => e.error.code === 'limit_exceeded')).toBe(true);
  });

  it("a step budget counts model calls across every agent (RunOptions.limits override the agent's)", async () => {
    const worker = scripted('worker', () => ({ text: 'ok' }));
    const team = new SequentialAgent({ name: 'team', subAgents: [worker.agent, worker.agent, worker.agent, worker.agent] });
    const err = await team.run('go', { limits: { maxTotalSteps: 3 } }).catch((e) => e);
    expect(err).toMatchObject({ limit: 'max_total_steps', value: 3, agent: 'worker', path: ['team', 'worker'] });
    expect(worker.model.calls).toHaveLength(3);
  });

  it('a limit hit in one parallel branch stops its siblings too, even without fail-fast', async () => {
    const slow = waitForAbort();
    const sibling = scripted('sibling', slow.turn);
    const greedy = scripted('greedy', [{ text: 'x', usage: { inputTokens: 90, outputTokens: 20 } }]);
    const team = new ParallelAgent({
      name: 'p',
      subAgents: [sibling.agent, greedy.agent],
      failFast: false,
      limits: { maxTotalTokens: 100 },
    });
    const err = await team.run('go').catch((e) => e);
    expect(err).toMatchObject({ limit: 'max_total_tokens', agent: 'greedy' });
    expect(slow.seen.aborted).toBe(1);
  });

  it('wall time: max_duration_ms stops a run that is still waiting', async () => {
    const slow = waitForAbort();
    const agent = scripted('slowpoke', slow.turn, { limits: { maxDurationMs: 30 } });
    const err = await agent.agent.run('go').catch((e) => e);
    expect(err).toMatchObject({ limit: 'max_duration_ms', value: 30, agent: 'slowpoke' });
    expect(slow.seen.aborted).toBe(1);
  });

  it('a depth limit stops runaway delegation (an agent that keeps calling itself)', async () => {
    const model = new ScriptedModel(() => ask('echo'));
    const echo = new Agent({ name: 'echo', model });
    echo.addTools(echo.asTool());
    const err = await echo.run('go').catch((e) => e);
    expect(err).toBeInstanceOf(LimitExceededError);
    expect(err.limit).toBe('max_depth');
    expect(err.value).toBe(DEFAULT_MAX_DEPTH);
    expect(err.path).toHaveLength(DEFAULT_MAX_DEPTH + 1);
    expect(err.message).toMatch(/^Agent "echo" \(echo > echo > .*\) would nest 11 agents deep, beyond the limit max_depth = 10/);
    expect(model.calls).toHaveLength(DEFAULT_MAX_DEPTH);
    const shallow = await echo.run('go', { limits: { maxDepth: 3 } }).catch((e) => e);
    expect(shallow.path).toHaveLength(4);
  });

  it('a run within its limits is unaffected', async () => {
    const a = answering('a', 'fine', { limits: { maxTotalSteps: 5, maxTotalTokens: 1000, maxDurationMs: 10_000, maxDepth: 2 } });
    expect((await a.agent.run('go')).text).toBe('fine');
  });
});
