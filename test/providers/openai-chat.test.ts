import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ADD_SCHEMA, calcAgent, deltas, header, modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

describe.each([false, true])('OpenAI Chat Completions API (stream=%s)', (stream) => {
  it('runs a tool round trip and answers', async () => {
    const s = await start([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_abc' }], usage: { input: 50, output: 12 } },
      { text: 'The sum is 5.', usage: { input: 80, output: 6, cachedInput: 64 } },
    ]);
    const agent = calcAgent(modelConfig('openai-chat', s.url, { temperature: 0.2, maxTokens: 300 }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);

    expect(result.text).toBe('The sum is 5.');
    expect(result.steps[0].toolCalls).toEqual([{ toolCallId: 'call_abc', toolName: 'add', input: { a: 2, b: 3 } }]);
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolCallId: 'call_abc', output: 5, isError: false });
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 18, cachedInputTokens: 64, reasoningTokens: 0, totalTokens: 148 });

    const [first, second] = s.requests;
    expect(first.path).toBe('/v1/chat/completions');
    expect(header(first, 'authorization')).toBe('Bearer test');
    expect(first.body.model).toBe('gpt-4.1-mini');
    expect(first.body.temperature).toBe(0.2);
    expect(first.body.max_tokens).toBe(300);
    if (stream) {
      expect(first.body.stream).toBe(true);
      expect(first.body.stream_options).toEqual({ include_usage: true });
    } else expect(first.body.stream).toBeUndefined();
    expect(first.body.messages).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: 'add 2 and 3' },
    ]);
    expect(first.body.tools).toEqual([
      { type: 'function', function: { name: 'add', description: 'Add two numbers', parameters: ADD_SCHEMA } },
    ]);

    expect(second.body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: '5' },
    ]);
    if (stream) expect(deltas(events, 'text_delta')).toBe('The sum is 5.');
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ toolCallId: 'call_abc', output: 5 });
  });

  it('runs parallel tool calls whose arguments arrive in pieces', async () => {
    const s = await start([
      {
        toolCalls: [
          { name: 'add', arguments: { a: 1, b: 2 }, id: 'call_1' },
          { name: 'add', arguments: { a: 10, b: 20 }, id: 'call_2' },
        ],
      },
      { text: '3 and 30.' },
    ]);
    const { result } = await mustDrive(calcAgent(modelConfig('openai-chat', s.url)), 'two sums', stream);
    expect(result.steps[0].toolResults.map((r) => [r.toolCallId, r.output])).toEqual([
      ['call_1', 3],
      ['call_2', 30],
    ]);
    const tools = s.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '3' },
      { role: 'tool', tool_call_id: 'call_2', content: '30' },
    ]);
  });

  it('sends reasoning_effort to reasoning models and reports reasoning tokens', async () => {
    const s = await start([{ text: 'Done.', usage: { input: 10, output: 50, reasoning: 40 } }]);
    const agent = calcAgent(modelConfig('openai-chat', s.url, { model: 'o4-mini', maxTokens: 500 }));
    const { result } = await mustDrive(agent, 'think', stream, { reasoning: { effort: 'high' } });
    expect(result.usage.reasoningTokens).toBe(40);
    const body = s.requests[0].body;
    expect(body.reasoning_effort).toBe('high');
    expect(body.max_completion_tokens).toBe(500);
    expect(body.max_tokens).toBeUndefined();
    expect(body.messages[0]).toEqual({ role: 'developer', content: 'You add numbers.' });
  });

  it('tells the model about unknown tools and malformed JSON in the next request', async () => {
    const s = await start([
      {
        toolCalls: [
          { name: 'nope', arguments: {}, id: 'call_u' },
          { name: 'add', arguments: '{"a": 1,', id: 'call_j' },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { result } = await mustDrive(calcAgent(modelConfig('openai-chat', s.url)), 'go', stream);
    expect(result.text).toBe('Sorry.');
    const tools = s.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools.map((t: { tool_call_id: string }) => t.tool_call_id)).toEqual(['call_u', 'call_j']);
    expect(tools[0].content).toMatch(/Unknown tool "nope"/);
    expect(tools[1].content).toMatch(/Invalid JSON in the arguments of tool "add"/);
  });
});
