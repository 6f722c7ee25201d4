import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ADD_SCHEMA, calcAgent, deltas, header, modelConfig, mustDrive, ofType, type ProviderPath } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

const cases: Array<[ProviderPath, boolean]> = [
  ['openai-compatible', false],
  ['openai-compatible', true],
  ['ollama', false],
  ['ollama', true],
];

describe.each(cases)('%s over Chat Completions (stream=%s)', (path, stream) => {
  it('runs a tool round trip and answers', async () => {
    const s = await start([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_abc' }], usage: { input: 50, output: 12 } },
      { text: 'The sum is 5.', usage: { input: 80, output: 6 } },
    ]);
    const agent = calcAgent(modelConfig(path, s.url, { temperature: 0.2, maxTokens: 300 }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);

    expect(result.text).toBe('The sum is 5.');
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolCallId: 'call_abc', toolName: 'add', output: 5, isError: false });
    expect(result.usage).toMatchObject({ inputTokens: 130, outputTokens: 18, totalTokens: 148 });

    const [first, second] = s.requests;
    expect(first.path).toBe('/v1/chat/completions');
    // Ollama needs no key; a compatible server gets the configured one.
    expect(header(first, 'authorization')).toBe(path === 'ollama' ? undefined : 'Bearer test');
    expect(first.body.model).toBe(path === 'ollama' ? 'llama3.2' : 'qwen3-8b');
    expect(first.body.temperature).toBe(0.2);
    expect(first.body.max_tokens).toBe(300);
    if (stream) expect(first.body.stream_options).toEqual({ include_usage: true });
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
    expect(ofType(events, 'tool_call')).toHaveLength(1);
  });

  it('reads reasoning from the server, sends it back and sends reasoning_effort', async () => {
    const s = await start([
      {
        reasoning: 'Use add.',
        reasoningField: path === 'ollama' ? 'reasoning' : 'reasoning_content',
        toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 }, id: 'call_r' }],
      },
      { text: 'Two.' },
    ]);
    const agent = calcAgent(modelConfig(path, s.url, { reasoning: { effort: 'low' } }));
    const { result, events } = await mustDrive(agent, '1+1', stream);
    expect(result.steps[0].reasoning).toBe('Use add.');
    if (stream) expect(deltas(events, 'reasoning_delta')).toBe('Use add.');
    expect(s.requests[0].body.reasoning_effort).toBe('low');
    expect(s.requests[0].body).not.toHaveProperty('reasoningEffort');
    expect(s.requests[1].body.messages[2]).toMatchObject({ role: 'assistant', reasoning_content: 'Use add.' });
    // Corvid's own options use the key the SDK reads: no deprecation warning on each step.
    expect(ofType(events, 'warning')).toEqual([]);
  });

  it('passes provider-specific body fields from providerOptions', async () => {
    const s = await start([{ text: 'ok' }]);
    const key = path === 'ollama' ? 'ollama' : 'openai-compatible';
    const { events } = await mustDrive(
      calcAgent(modelConfig(path, s.url, { reasoning: { effort: 'high' }, providerOptions: { [key]: { top_k: 20 } } })),
      'hi',
      stream,
    );
    expect(s.requests[0].body.top_k).toBe(20);
    expect(s.requests[0].body.reasoning_effort).toBe('high');
    expect(ofType(events, 'warning')).toEqual([]);
  });
});

describe.each([false, true])('ollama reasoning (stream=%s)', (stream) => {
  // Ollama's /v1/chat/completions maps reasoning_effort to its `think` option and rejects any value
  // but high, medium, low and none ("invalid reasoning value").
  it.each([
    [{ effort: 'medium' as const }, 'medium'],
    [{ effort: 'minimal' as const }, 'low'],
    [{ budgetTokens: 512 }, 'low'],
    [{ budgetTokens: 30_000 }, 'high'],
  ])('sends reasoning %j as reasoning_effort %s', async (reasoning, effort) => {
    const s = await start([{ reasoning: 'Thinking it over.', reasoningField: 'reasoning', text: 'Done.' }]);
    const { result } = await mustDrive(calcAgent(modelConfig('ollama', s.url, { reasoning })), 'think', stream);
    expect(result.steps[0].reasoning).toBe('Thinking it over.');
    expect(s.requests[0].path).toBe('/v1/chat/completions');
    expect(s.requests[0].body.reasoning_effort).toBe(effort);
  });
});
