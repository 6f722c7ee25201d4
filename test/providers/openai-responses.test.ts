import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ADD_SCHEMA, calcAgent, deltas, header, modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

describe.each([false, true])('OpenAI Responses API (stream=%s)', (stream) => {
  it('runs a tool round trip and answers', async () => {
    const s = await start([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_abc' }], usage: { input: 50, output: 12 } },
      { text: 'The sum is 5.', usage: { input: 80, output: 6, cachedInput: 40 } },
    ]);
    const agent = calcAgent(modelConfig('openai-responses', s.url, { temperature: 0.2, maxTokens: 300 }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);

    expect(result.text).toBe('The sum is 5.');
    expect(result.steps[0].toolCalls).toEqual([{ toolCallId: 'call_abc', toolName: 'add', input: { a: 2, b: 3 } }]);
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolCallId: 'call_abc', output: 5, isError: false });
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 18, cachedInputTokens: 40, reasoningTokens: 0, totalTokens: 148 });

    // What was sent.
    expect(s.requests).toHaveLength(2);
    const [first, second] = s.requests;
    expect(first.method).toBe('POST');
    expect(first.path).toBe('/v1/responses');
    expect(header(first, 'authorization')).toBe('Bearer test');
    expect(first.body.model).toBe('gpt-4.1-mini');
    expect(first.body.stream === true).toBe(stream);
    expect(first.body.temperature).toBe(0.2);
    expect(first.body.max_output_tokens).toBe(300);
    expect(first.body.input).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: [{ type: 'input_text', text: 'add 2 and 3' }] },
    ]);
    expect(first.body.tools).toEqual([{ type: 'function', name: 'add', description: 'Add two numbers', parameters: ADD_SCHEMA }]);

    expect(second.body.input.slice(2)).toEqual([
      { type: 'function_call', call_id: 'call_abc', name: 'add', arguments: '{"a":2,"b":3}' },
      { type: 'function_call_output', call_id: 'call_abc', output: '5' },
    ]);

    if (stream) {
      expect(deltas(events, 'text_delta')).toBe('The sum is 5.');
      expect(ofType(events, 'text_delta').length).toBeGreaterThan(1);
    }
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ toolCallId: 'call_abc', toolName: 'add', input: { a: 2, b: 3 } });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ toolCallId: 'call_abc', output: 5, isError: false });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'completed', steps: 2 });
  });

  it('sends reasoning effort and summary, reports reasoning, and references the reasoning item next turn', async () => {
    const s = await start([
      {
        reasoning: 'I should call add.',
        toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }],
        usage: { input: 30, output: 20, reasoning: 16 },
      },
      { text: 'Two.', usage: { input: 60, output: 3 } },
    ]);
    const agent = calcAgent(modelConfig('openai-responses', s.url, { model: 'o4-mini', reasoning: { effort: 'low' } }));
    const { result, events } = await mustDrive(agent, '1+1?', stream);

    expect(result.text).toBe('Two.');
    expect(result.steps[0].reasoning).toBe('I should call add.');
    expect(result.usage.reasoningTokens).toBe(16);
    if (stream) expect(deltas(events, 'reasoning_delta')).toBe('I should call add.');

    const [first, second] = s.requests;
    expect(first.body.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    // Reasoning models take the system prompt as a developer message.
    expect(first.body.input[0]).toEqual({ role: 'developer', content: 'You add numbers.' });
    // The reasoning item is sent back (by reference: responses are stored by default) before the call it led to.
    const kinds = second.body.input.slice(2).map((i: { type: string; id?: string }) => i.type);
    expect(kinds).toEqual(['item_reference', 'function_call', 'function_call_output']);
    expect(second.body.input[2].id).toMatch(/^rs_/);
  });

  it('returns encrypted reasoning items in full when store is false', async () => {
    const s = await start([
      { reasoning: 'Thinking hard.', reasoningSignature: 'gAAAA-encrypted', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      { text: 'Three.' },
    ]);
    const agent = calcAgent(
      modelConfig('openai-responses', s.url, {
        model: 'gpt-5-mini',
        reasoning: { effort: 'medium' },
        providerOptions: { openai: { store: false } },
      }),
    );
    await mustDrive(agent, '1+2?', stream);
    const [first, second] = s.requests;
    expect(first.body.store).toBe(false);
    expect(first.body.include).toEqual(['reasoning.encrypted_content']);
    const reasoningItem = second.body.input.find((i: { type?: string }) => i.type === 'reasoning');
    expect(reasoningItem).toMatchObject({
      type: 'reasoning',
      encrypted_content: 'gAAAA-encrypted',
      summary: [{ type: 'summary_text', text: 'Thinking hard.' }],
    });
  });

  it('maps a per-run token budget to an effort level', async () => {
    const s = await start([{ text: 'ok' }]);
    const agent = calcAgent(modelConfig('openai-responses', s.url, { model: 'o4-mini', reasoning: { effort: 'low' } }));
    await mustDrive(agent, 'hi', stream, { reasoning: { budgetTokens: 20_000 } });
    expect(s.requests[0].body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
  });

  it('tells the model about unknown tools, malformed JSON and invalid arguments in the next request', async () => {
    const s = await start([
      {
        toolCalls: [
          { name: 'nope', arguments: {}, id: 'call_u' },
          { name: 'add', arguments: '{"a": 1,', id: 'call_j' },
          { name: 'add', arguments: { a: 'x', b: 1 }, id: 'call_v' },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { result } = await mustDrive(calcAgent(modelConfig('openai-responses', s.url)), 'go', stream);
    expect(result.text).toBe('Sorry.');
    expect(result.steps[0].toolResults.map((r) => r.isError)).toEqual([true, true, true]);
    const outputs = s.requests[1].body.input.filter((i: { type?: string }) => i.type === 'function_call_output');
    expect(outputs.map((o: { call_id: string }) => o.call_id)).toEqual(['call_u', 'call_j', 'call_v']);
    expect(outputs[0].output).toMatch(/Unknown tool "nope".*Available tools: add/);
    expect(outputs[1].output).toMatch(/Invalid JSON in the arguments of tool "add"/);
    expect(outputs[2].output).toMatch(/Invalid arguments for tool "add"/);
  });
});
