import { afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { ALL_PATHS, calcAgent, modelConfig, mustDrive, ofType, type ProviderPath } from '../support/provider-harness.js';

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

/** The tool choice a request carries, in its API's own terms (undefined: none, the model decides). */
function sentChoice(req: RecordedRequest): unknown {
  return req.api === 'gemini' ? req.body.toolConfig : req.body.tool_choice;
}

/** What each API sends for `required` (any tool must be called). */
const REQUIRED: Record<ProviderPath, unknown> = {
  'openai-responses': 'required',
  'openai-chat': 'required',
  'openai-compatible': 'required',
  ollama: 'required',
  anthropic: { type: 'any' },
  google: { functionCallingConfig: { mode: 'ANY' } },
};

describe.each(both)('%s tool choice (stream=%s)', (path, stream) => {
  it("forces a tool call with 'required' on the first step only, so the run answers", async () => {
    const s = await start([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
    const agent = calcAgent(modelConfig(path, s.url), { toolChoice: 'required', maxSteps: 3 });
    const { result, events } = await mustDrive(agent, 'add 2 and 3', stream);
    expect(result.text).toBe('The sum is 5.');
    expect(result.steps).toHaveLength(2);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ output: 5, isError: false });
    expect(s.requests).toHaveLength(2);
    expect(sentChoice(s.requests[0])).toEqual(REQUIRED[path]);
    expect(sentChoice(s.requests[1])).toBeUndefined();
    // The tools are still offered: only the obligation to call one is gone.
    expect(JSON.stringify(s.requests[1].body)).toContain('"add"');
  });

  it('forces a named tool on the first step only (run option)', async () => {
    const s = await start([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, { text: 'Two.' }]);
    const { result } = await mustDrive(calcAgent(modelConfig(path, s.url)), '1+1', stream, { toolChoice: { tool: 'add' } });
    expect(result.text).toBe('Two.');
    expect(JSON.stringify(sentChoice(s.requests[0]))).toContain('add');
    expect(sentChoice(s.requests[1])).toBeUndefined();
  });
});
