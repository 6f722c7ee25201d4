import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { calcAgent, modelConfig, mustDrive, ofType } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

const toolThenAnswer: FakeScript = [{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }];

describe.each([false, true])('provider warnings (stream=%s)', (stream) => {
  it('reports temperature dropped on an OpenAI reasoning model as a warning event, once per run', async () => {
    const s = await start(toolThenAnswer);
    const agent = calcAgent(modelConfig('openai-responses', s.url, { model: 'o4-mini', temperature: 0.3 }));
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);
    expect(result.text).toBe('The sum is 5.');
    // The provider package left temperature out of both requests…
    expect(s.requests).toHaveLength(2);
    for (const r of s.requests) expect(r.body).not.toHaveProperty('temperature');
    // …and the run says so, once although both steps were warned.
    const warnings = ofType(events, 'warning');
    expect(warnings).toEqual([
      {
        type: 'warning',
        runId: result.runId,
        agent: 'calc',
        path: ['calc'],
        step: 1,
        model: 'openai:o4-mini',
        kind: 'unsupported',
        feature: 'temperature',
        message: 'temperature is not supported for reasoning models',
      },
    ]);
    // Reported with the step it belongs to.
    const order = events.map((e) => e.type);
    expect(order.indexOf('warning')).toBeGreaterThan(order.indexOf('step_start'));
    expect(order.indexOf('warning')).toBeLessThan(order.indexOf('step_end'));
  });

  it('reports reasoning settings a non-reasoning model ignores', async () => {
    const s = await start([{ text: 'Hi.' }]);
    const agent = calcAgent(modelConfig('openai-responses', s.url, { reasoning: { effort: 'low' } }));
    const { events } = await mustDrive(agent, 'hi', stream);
    expect(s.requests[0].body.reasoning).toBeUndefined();
    expect(ofType(events, 'warning').map((w) => [w.feature, w.message])).toEqual([
      ['reasoningEffort', 'reasoningEffort is not supported for non-reasoning models'],
      ['reasoningSummary', 'reasoningSummary is not supported for non-reasoning models'],
    ]);
  });

  it('emits no warning event when the provider has none', async () => {
    const s = await start(toolThenAnswer);
    const { events } = await mustDrive(calcAgent(modelConfig('openai-responses', s.url, { temperature: 0.3 })), 'add', stream);
    expect(s.requests[0].body.temperature).toBe(0.3);
    expect(ofType(events, 'warning')).toEqual([]);
  });
});
