import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ALL_PATHS, calcAgent, deltas, modelConfig, mustDrive, ofType, type ProviderPath } from '../support/provider-harness.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: FakeScript) => (server = await startFakeLlmServer(script));

const both = ALL_PATHS.flatMap((p) => [
  [p, false],
  [p, true],
]) as Array<[ProviderPath, boolean]>;

/** How often the body of a request carries a JSON call of `add` (as text: JSON mode has no native tools). */
const addCalls = (body: unknown) => (JSON.stringify(body).match(/\\"tool\\":\s*\\"add\\"/g) ?? []).length;

describe.each(both)('%s in JSON tool mode (stream=%s)', (path, stream) => {
  it('streams the prose before a call, never the call JSON, and sends the call back once', async () => {
    const s = await start([{ text: 'Let me compute that. {"tool": "add", "arguments": {"a": 2, "b": 3}}' }, { text: 'The sum is 5.' }]);
    const { result, events } = await mustDrive(calcAgent(modelConfig(path, s.url, { toolMode: 'json' })), 'add 2 and 3', stream);
    expect(result.text).toBe('The sum is 5.');
    expect(ofType(events, 'tool_call').map((e) => [e.toolName, e.input])).toEqual([['add', { a: 2, b: 3 }]]);
    expect(result.steps[0]).toMatchObject({ text: 'Let me compute that.', toolResults: [{ output: 5, isError: false }] });
    if (stream) {
      expect(deltas(events, 'text_delta')).toBe('Let me compute that.The sum is 5.');
      expect(ofType(events, 'step_end')[0].text).toBe('Let me compute that.');
    }
    expect(s.requests).toHaveLength(2);
    expect(s.requests[0].body.tools).toBeUndefined();
    expect(addCalls(s.requests[1].body)).toBe(1);
    expect(JSON.stringify(s.requests[1].body)).toContain('Let me compute that.');
    expect(JSON.stringify(s.requests[1].body)).toContain('Result of tool add: 5');
  });

  it('answers with JSON that names no offered tool instead of calling it', async () => {
    const s = await start([{ text: '{"name":"Ann","age":3}' }]);
    const { result, events } = await mustDrive(calcAgent(modelConfig(path, s.url, { toolMode: 'json' })), 'who?', stream);
    expect(result.text).toBe('{"name":"Ann","age":3}');
    expect(result.finishReason).toBe('stop');
    expect(ofType(events, 'tool_call')).toEqual([]);
    if (stream) expect(deltas(events, 'text_delta')).toBe('{"name":"Ann","age":3}');
    expect(s.requests).toHaveLength(1);
  });
});
