import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ADD_SCHEMA, calcAgent, deltas, header, modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

describe.each([false, true])('Anthropic Messages API (stream=%s)', (stream) => {
  it('runs a tool round trip and answers', async () => {
    const s = await start([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'toolu_01' }], usage: { input: 50, output: 12 } },
      // Anthropic's input_tokens excludes cache reads; the total input is input + cache_read (+ cache_creation).
      { text: 'The sum is 5.', usage: { input: 30, output: 6, cachedInput: 40 } },
    ]);
    const agent = calcAgent(modelConfig('anthropic', s.url, { temperature: 0.2, maxTokens: 300 }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);

    expect(result.text).toBe('The sum is 5.');
    expect(result.steps[0].toolCalls).toEqual([{ toolCallId: 'toolu_01', toolName: 'add', input: { a: 2, b: 3 } }]);
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolCallId: 'toolu_01', output: 5, isError: false });
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 18, cachedInputTokens: 40, reasoningTokens: 0, totalTokens: 138 });

    const [first, second] = s.requests;
    expect(first.path).toBe('/v1/messages');
    expect(header(first, 'x-api-key')).toBe('test');
    expect(header(first, 'anthropic-version')).toBe('2023-06-01');
    expect(header(first, 'authorization')).toBeUndefined();
    expect(first.body.model).toBe('claude-sonnet-4-5');
    expect(first.body.max_tokens).toBe(300);
    expect(first.body.temperature).toBe(0.2);
    expect(first.body.stream === true).toBe(stream);
    expect(first.body.system).toEqual([{ type: 'text', text: 'You add numbers.' }]);
    expect(first.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'add 2 and 3' }] }]);
    expect(first.body.tools).toHaveLength(1);
    expect(first.body.tools[0]).toMatchObject({ name: 'add', description: 'Add two numbers', input_schema: ADD_SCHEMA });
    expect(first.body.thinking).toBeUndefined();

    expect(second.body.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'add', input: { a: 2, b: 3 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '5' }] },
    ]);
    if (stream) expect(deltas(events, 'text_delta')).toBe('The sum is 5.');
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ toolCallId: 'toolu_01', output: 5 });
  });

  it('sends thinking.budget_tokens and carries the signed thinking block back in the tool loop', async () => {
    const s = await start([
      {
        reasoning: 'The user wants 2+3. I will call add.',
        reasoningSignature: 'EqQBCkYIBxgCKkD-signature',
        text: 'Let me add.',
        toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'toolu_02' }],
        usage: { input: 40, output: 60, reasoning: 45 },
      },
      { reasoning: 'It is 5.', text: 'Five.' },
    ]);
    const agent = calcAgent(modelConfig('anthropic', s.url, { maxTokens: 1000, temperature: 0.5, reasoning: { budgetTokens: 2048 } }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);

    expect(result.text).toBe('Five.');
    expect(result.steps[0].reasoning).toBe('The user wants 2+3. I will call add.');
    expect(result.steps[0].usage).toMatchObject({ outputTokens: 60, reasoningTokens: 45 });
    if (stream) expect(deltas(events, 'reasoning_delta')).toBe('The user wants 2+3. I will call add.It is 5.');

    const [first, second] = s.requests;
    expect(first.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    // The budget comes on top of the answer tokens, and temperature is not allowed with thinking.
    expect(first.body.max_tokens).toBe(3048);
    expect(first.body.temperature).toBeUndefined();
    // The thinking block goes back first, verbatim with its signature, as Anthropic requires in a tool loop.
    expect(second.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants 2+3. I will call add.', signature: 'EqQBCkYIBxgCKkD-signature' },
        { type: 'text', text: 'Let me add.' },
        { type: 'tool_use', id: 'toolu_02', name: 'add', input: { a: 2, b: 3 } },
      ],
    });
  });

  it('maps a per-run effort to a thinking budget', async () => {
    const s = await start([{ text: 'ok' }]);
    await mustDrive(calcAgent(modelConfig('anthropic', s.url)), 'hi', stream, { reasoning: { effort: 'low' } });
    expect(s.requests[0].body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('tells the model about unknown tools and invalid arguments with is_error results', async () => {
    const s = await start([
      {
        toolCalls: [
          { name: 'nope', arguments: {}, id: 'toolu_u' },
          { name: 'add', arguments: { a: 'x', b: 1 }, id: 'toolu_v' },
          { name: 'add', arguments: '{"a": 1,', id: 'toolu_j' },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { result } = await mustDrive(calcAgent(modelConfig('anthropic', s.url)), 'go', stream);
    expect(result.text).toBe('Sorry.');
    const results = s.requests[1].body.messages[2].content;
    expect(results.map((r: { tool_use_id: string; is_error?: boolean }) => [r.tool_use_id, r.is_error])).toEqual([
      ['toolu_u', true],
      ['toolu_v', true],
      ['toolu_j', true],
    ]);
    expect(results[0].content).toMatch(/Unknown tool "nope"/);
    expect(results[1].content).toMatch(/Invalid arguments for tool "add"/);
    // A streamed input_json_delta that never forms valid JSON is reported as such.
    expect(results[2].content).toMatch(stream ? /Invalid JSON in the arguments of tool "add"/ : /Invalid arguments for tool "add"/);
  });
});
