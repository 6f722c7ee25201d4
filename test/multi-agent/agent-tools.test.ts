import { describe, expect, it } from 'vitest';

import { Conversation } from '../../src/index.js';
import { recorder, scripted } from './helpers.js';

const ask = (agent: string, message: string) => ({ toolCalls: [{ toolName: `ask_${agent}`, input: { message } }] });

/** boss → manager → analyst → researcher: agent tools nested three deep. */
function chain() {
  const researcher = scripted('researcher', [{ text: 'raw facts', usage: { inputTokens: 1, outputTokens: 1 } }]);
  const analyst = scripted('analyst', [ask('researcher', 'find facts'), { text: 'analysis', usage: { inputTokens: 2, outputTokens: 2 } }], {
    tools: [researcher.agent.asTool()],
  });
  const manager = scripted('manager', [ask('analyst', 'analyse'), { text: 'plan', usage: { inputTokens: 3, outputTokens: 3 } }], {
    tools: [analyst.agent.asTool()],
  });
  const boss = scripted('boss', [ask('manager', 'make a plan'), { text: 'done', usage: { inputTokens: 4, outputTokens: 4 } }], {
    tools: [manager.agent.asTool()],
  });
  return { boss, manager, analyst, researcher };
}

describe('agent tools', () => {
  it('nest three deep with the agent path on every event, one answer, and usage per agent and in total', async () => {
    const { boss, researcher } = chain();
    const rec = recorder();
    const r = await boss.agent.run('go', { onEvent: rec.onEvent });
    expect(r.text).toBe('done');
    expect(rec.of('run_start').map((e) => e.path.join(' > '))).toEqual([
      'boss',
      'boss > manager',
      'boss > manager > analyst',
      'boss > manager > analyst > researcher',
    ]);
    expect(rec.of('run_start').map((e) => e.input)).toEqual(['go', 'make a plan', 'analyse', 'find facts']);
    // Each nested run sits between its caller's tool_call and tool_result.
    const lines = rec.lines((e) => ['tool_call', 'tool_result', 'run_start', 'run_end'].includes(e.type));
    expect(lines).toEqual([
      'boss: run_start',
      'boss: tool_call',
      'boss > manager: run_start',
      'boss > manager: tool_call',
      'boss > manager > analyst: run_start',
      'boss > manager > analyst: tool_call',
      'boss > manager > analyst > researcher: run_start',
      'boss > manager > analyst > researcher: run_end',
      'boss > manager > analyst: tool_result',
      'boss > manager > analyst: run_end',
      'boss > manager: tool_result',
      'boss > manager: run_end',
      'boss: tool_result',
      'boss: run_end',
    ]);
    expect(rec.of('answer')).toHaveLength(1);
    expect(rec.of('run_start').every((e) => e.agent === e.path.at(-1))).toBe(true);
    // Default scripted usage is 10 + 5 per call; the last call of each agent was scripted smaller.
    expect(r.usageByAgent).toEqual({
      boss: expect.objectContaining({ inputTokens: 14, outputTokens: 9, totalTokens: 23 }),
      manager: expect.objectContaining({ inputTokens: 13, outputTokens: 8, totalTokens: 21 }),
      analyst: expect.objectContaining({ inputTokens: 12, outputTokens: 7, totalTokens: 19 }),
      researcher: expect.objectContaining({ inputTokens: 1, outputTokens: 1, totalTokens: 2 }),
    });
    expect(r.usage.totalTokens).toBe(23 + 21 + 19 + 2);
    // run_end of each level carries its subtree's usage.
    expect(rec.of('run_end').map((e) => `${e.agent}:${e.usage.totalTokens}`)).toEqual([
      'researcher:2',
      'analyst:21',
      'manager:42',
      'boss:65',
    ]);
    expect(researcher.model.calls[0].prompt).toHaveLength(1);
  });

  it('streams nested text deltas with their paths', async () => {
    const { boss } = chain();
    const s = boss.agent.stream('go');
    const deltas: string[] = [];
    for await (const e of s) if (e.type === 'text_delta') deltas.push(e.path.join('>'));
    expect(new Set(deltas)).toEqual(new Set(['boss>manager>analyst>researcher', 'boss>manager>analyst', 'boss>manager', 'boss']));
    await s.result;
  });

  it('starts a fresh sub-conversation per call by default', async () => {
    const memo = scripted('memo', [{ text: 'noted A' }, { text: 'noted B' }]);
    const boss = scripted('boss', [ask('memo', 'remember A'), ask('memo', 'remember B'), { text: 'ok' }], { tools: [memo.agent.asTool()] });
    await boss.agent.run('go');
    expect(memo.model.calls[1].prompt).toHaveLength(1);
  });

  it('keeps one persistent sub-conversation per calling conversation when asked to', async () => {
    const memo = scripted('memo', [{ text: 'noted A' }, { text: 'noted B' }, { text: 'fresh' }]);
    const tool = memo.agent.asTool({ persistent: true });
    const boss = scripted(
      'boss',
      [ask('memo', 'remember A'), { text: 'ok' }, ask('memo', 'remember B'), { text: 'ok' }, ask('memo', 'hello'), { text: 'ok' }],
      {
        tools: [tool],
      },
    );
    const chat = new Conversation(boss.agent);
    await chat.run('turn 1');
    await chat.run('turn 2');
    // The second call, a turn later, continues the first exchange.
    expect(memo.model.calls[1].prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(chat.state.subConversations().get('boss>ask_memo')).toHaveLength(4);
    // Another conversation has its own.
    await new Conversation(boss.agent).run('turn 1');
    expect(memo.model.calls[2].prompt).toHaveLength(1);
  });

  it('serialises concurrent calls to one persistent sub-conversation', async () => {
    const memo = scripted('memo', [{ text: 'one' }, { text: 'two' }]);
    const boss = scripted(
      'boss',
      [
        {
          toolCalls: [
            { toolName: 'ask_memo', input: { message: 'a' } },
            { toolName: 'ask_memo', input: { message: 'b' } },
          ],
        },
        { text: 'ok' },
      ],
      {
        tools: [memo.agent.asTool({ persistent: true })],
      },
    );
    const r = await boss.agent.run('go');
    expect(r.steps[0].toolResults.map((t) => t.output)).toEqual(['one', 'two']);
    expect(memo.model.calls[1].prompt).toHaveLength(3);
  });
});
