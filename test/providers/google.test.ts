import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ADD_SCHEMA, calcAgent, deltas, header, modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

describe.each([false, true])('Google Gemini API (stream=%s)', (stream) => {
  it('runs a tool round trip and answers', async () => {
    const s = await start([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }], usage: { input: 50, output: 12 } },
      { text: 'The sum is 5.', usage: { input: 80, output: 6, cachedInput: 32 } },
    ]);
    const agent = calcAgent(modelConfig('google', s.url, { temperature: 0.2, maxTokens: 300 }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);

    expect(result.text).toBe('The sum is 5.');
    const call = result.steps[0].toolCalls[0];
    expect(call).toMatchObject({ toolName: 'add', input: { a: 2, b: 3 } });
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolCallId: call.toolCallId, output: 5, isError: false });
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 18, cachedInputTokens: 32, reasoningTokens: 0, totalTokens: 148 });

    const [first, second] = s.requests;
    expect(first.path).toBe(
      stream ? '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse' : '/v1beta/models/gemini-2.5-flash:generateContent',
    );
    expect(header(first, 'x-goog-api-key')).toBe('test');
    expect(first.body.systemInstruction).toEqual({ parts: [{ text: 'You add numbers.' }] });
    expect(first.body.contents).toEqual([{ role: 'user', parts: [{ text: 'add 2 and 3' }] }]);
    expect(first.body.generationConfig).toEqual({ temperature: 0.2, maxOutputTokens: 300 });
    expect(first.body.tools).toEqual([{ functionDeclarations: [{ name: 'add', description: 'Add two numbers', parameters: ADD_SCHEMA }] }]);

    // Gemini sends no call ids; the one the SDK made up pairs the response with its call.
    const [model, user] = second.body.contents.slice(1);
    expect(model.role).toBe('model');
    expect(model.parts).toEqual([{ functionCall: { id: call.toolCallId, name: 'add', args: { a: 2, b: 3 } } }]);
    expect(user).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: call.toolCallId, name: 'add', response: { name: 'add', content: 5 } } }],
    });
    if (stream) expect(deltas(events, 'text_delta')).toBe('The sum is 5.');
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ toolName: 'add', output: 5 });
  });

  it('sends thinkingConfig, reports thoughts and returns the thought signature with its call, in order', async () => {
    const s = await start([
      {
        reasoning: 'Adding 2 and 3.',
        toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, thoughtSignature: 'CiQB0e2Kb-signature' }],
        usage: { input: 20, output: 30, reasoning: 24 },
      },
      { text: 'Five.' },
    ]);
    const agent = calcAgent(modelConfig('google', s.url, { reasoning: { budgetTokens: 4096 } }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);
    expect(result.text).toBe('Five.');
    expect(result.steps[0].reasoning).toBe('Adding 2 and 3.');
    expect(result.steps[0].usage).toMatchObject({ outputTokens: 30, reasoningTokens: 24 });
    if (stream) expect(deltas(events, 'reasoning_delta')).toBe('Adding 2 and 3.');

    const [first, second] = s.requests;
    expect(first.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 4096, includeThoughts: true });
    const parts = second.body.contents[1].parts;
    expect(parts).toHaveLength(2);
    expect(parts[0]).toEqual({ text: 'Adding 2 and 3.', thought: true });
    expect(parts[1]).toMatchObject({ functionCall: { name: 'add', args: { a: 2, b: 3 } }, thoughtSignature: 'CiQB0e2Kb-signature' });
  });

  it('maps a per-run effort to a thinking budget', async () => {
    const s = await start([{ text: 'ok' }]);
    await mustDrive(calcAgent(modelConfig('google', s.url)), 'hi', stream, { reasoning: { effort: 'medium' } });
    expect(s.requests[0].body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 8192, includeThoughts: true });
  });

  it('waits the RetryInfo delay a Gemini 429 carries in its body', async () => {
    const s = await start([
      {
        status: 429,
        errorBody: {
          error: {
            code: 429,
            message: 'You exceeded your current quota, please check your plan.',
            status: 'RESOURCE_EXHAUSTED',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
                violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
              },
              { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.004s' },
            ],
          },
        },
      },
      { text: 'ok' },
    ]);
    const { result, events } = await mustDrive(calcAgent(modelConfig('google', s.url)), 'hi', stream);
    expect(result.text).toBe('ok');
    const retry = ofType(events, 'retry');
    expect(retry).toHaveLength(1);
    expect(retry[0].delayMs).toBe(4);
    expect(retry[0].error.message).toContain('You exceeded your current quota');
  });

  it('tells the model about unknown tools and invalid arguments in the next request', async () => {
    const s = await start([
      {
        toolCalls: [
          { name: 'nope', arguments: {} },
          { name: 'add', arguments: { a: 'x', b: 1 } },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { result } = await mustDrive(calcAgent(modelConfig('google', s.url)), 'go', stream);
    expect(result.text).toBe('Sorry.');
    const ids = result.steps[0].toolCalls.map((c) => c.toolCallId);
    const responses = s.requests[1].body.contents[2].parts.map((p: { functionResponse: unknown }) => p.functionResponse);
    expect(responses.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(responses[0]).toMatchObject({ name: 'nope', response: { name: 'nope', content: expect.stringMatching(/Unknown tool "nope"/) } });
    expect(responses[1]).toMatchObject({ name: 'add', response: { content: expect.stringMatching(/Invalid arguments for tool "add"/) } });
  });
});
