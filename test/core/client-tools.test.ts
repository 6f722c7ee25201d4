import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

// Client tools (`RunOptions.clientTools`): offered to the model, never run; a call ends the turn.

const weather = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object' as const, properties: { city: { type: 'string' as const } } },
};

describe('client tools', () => {
  it('ends the turn on a client call, runs the step own calls, and continues with the result', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const model = new ScriptedModel(
      (call, i) => {
        calls.push(call);
        if (i === 0)
          return {
            toolCalls: [
              { toolName: 'get_weather', input: { city: 'Rome' }, toolCallId: 'c1' },
              { toolName: 'clock', input: {}, toolCallId: 'c2' },
            ],
          };
        return { text: 'Warm in Rome at noon.' };
      },
      { record: false },
    );
    let clockRuns = 0;
    const clock = tool({ name: 'clock', description: 'Time', input: z.object({}), execute: () => (clockRuns++, 'noon') });
    const conversation = new Agent({ name: 'a', model, tools: [clock] }).conversation();

    const first = await conversation.run('Weather and time?', { clientTools: [weather] });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.clientToolCalls).toEqual([{ toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Rome' } }]);
    expect(clockRuns).toBe(1);
    expect(calls[0].tools?.map((t) => t.name)).toEqual(['clock', 'get_weather']);
    expect(calls).toHaveLength(1);

    const second = await conversation.run(
      [
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: '25C' } }],
        },
      ],
      { clientTools: [weather] },
    );
    expect(second.text).toBe('Warm in Rome at noon.');
    expect(second.clientToolCalls).toBeUndefined();
    const prompt = JSON.stringify(calls[1].prompt);
    expect(prompt).toContain('25C');
    expect(prompt).toContain('noon');
  });

  it('refuses a client tool named like one of the agent', async () => {
    const model = new ScriptedModel([{ text: 'x' }], { record: false });
    const clock = tool({ name: 'get_weather', description: 'mine', input: z.object({}), execute: () => 'x' });
    const agent = new Agent({ name: 'a', model, tools: [clock] });
    await expect(agent.run('hi', { clientTools: [weather] })).rejects.toThrow(
      'Client tool "get_weather" has the name of a tool of agent "a"',
    );
  });
});
