import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, type AgentEvent, estimateTokens, type Message, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const echo = tool({ name: 'echo', description: 'echo', input: z.object({ s: z.string() }), execute: ({ s }) => s });
const long = (n: number) => 'word '.repeat(n);

function pairedToolCalls(prompt: Message[]): boolean {
  const open = new Set<string>();
  for (const m of prompt) {
    if (m.role === 'assistant') for (const p of m.content) if (p.type === 'tool-call') open.add(p.toolCallId);
    if (m.role === 'tool') for (const p of m.content) if (p.type === 'tool-result' && !open.delete(p.toolCallId)) return false;
  }
  return open.size === 0;
}

describe('context budget', () => {
  it('window: drops the oldest turns, never splitting a tool call from its result', async () => {
    const model = new ScriptedModel((_call, i) =>
      i % 2 === 0 ? { toolCalls: [{ toolName: 'echo', input: { s: long(100) } }] } : { text: long(50) },
    );
    const agent = new Agent({ name: 'w', model, tools: [echo], context: { maxTokens: 600, strategy: 'window', keepRecentMessages: 2 } });
    const chat = agent.conversation();
    const events: AgentEvent[] = [];
    for (let turn = 0; turn < 5; turn++) await chat.run(`turn ${turn} ${long(40)}`, { onEvent: (e) => events.push(e) });
    expect(events.some((e) => e.type === 'context_compacted')).toBe(true);
    for (const call of model.calls) {
      expect(pairedToolCalls(call.prompt)).toBe(true);
      expect(call.prompt.find((m) => m.role !== 'system')?.role).toBe('user');
    }
    const last = model.calls.at(-1)!.prompt;
    expect(estimateTokens(last)).toBeLessThanOrEqual(700);
    expect(JSON.stringify(last)).toContain('turn 4');
    expect(JSON.stringify(last)).not.toContain('turn 0');
  });

  it('summarize: replaces older turns with a model-written summary', async () => {
    const summaries = new ScriptedModel(() => ({ text: 'User is Ann; likes tea.' }));
    const model = new ScriptedModel(() => ({ text: long(60) }));
    const agent = new Agent({
      name: 's',
      model,
      instructions: 'Be brief.',
      context: { maxTokens: 300, strategy: 'summarize', keepRecentMessages: 2, summaryModel: summaries },
    });
    const chat = agent.conversation();
    for (let turn = 0; turn < 4; turn++) await chat.run(`I am Ann, turn ${turn}. ${long(30)}`);
    expect(summaries.calls.length).toBeGreaterThan(0);
    expect(JSON.stringify(summaries.calls[0].prompt)).toContain('turn 0');
    const last = model.calls.at(-1)!.prompt;
    expect(last[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(last[1]).toMatchObject({ role: 'system', content: expect.stringContaining('User is Ann; likes tea.') });
    expect(chat.messages[0].role).toBe('system');
  });

  it('summarize: a failing summary model drops the turns instead of failing the run, and says why', async () => {
    const summaries = new ScriptedModel(() => {
      throw new Error('summary model is down');
    });
    const model = new ScriptedModel(() => ({ text: long(60) }));
    const agent = new Agent({
      name: 'f',
      model,
      context: { maxTokens: 300, strategy: 'summarize', keepRecentMessages: 2, summaryModel: summaries },
    });
    const chat = agent.conversation();
    const events: AgentEvent[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const result = await chat.run(`turn ${turn}. ${long(30)}`, { onEvent: (e) => events.push(e) });
      expect(result.text).toContain('word');
    }
    const compacted = events.filter((e) => e.type === 'context_compacted');
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]).toMatchObject({ strategy: 'window', summaryError: expect.stringContaining('summary model is down') });
    const last = JSON.stringify(model.calls.at(-1)!.prompt);
    expect(last).toContain('turn 3');
    expect(last).not.toContain('turn 0');
  });
});
