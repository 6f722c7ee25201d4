import { getEventListeners } from 'node:events';

import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, RunAbortedError, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

describe('runs cancelled with an AbortSignal', () => {
  let server: FakeLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reject with RunAbortedError when cancelled during the model call, leaving the conversation unchanged', async () => {
    const source = new AbortController();
    // The script cancels as the call starts; the model then waits on the abort signal it was given.
    const model = new ScriptedModel(() => (source.abort(), { text: 'slow', delayMs: 5_000 }));
    const chat = new Agent({ name: 'c', model }).conversation();
    const started = performance.now();
    await expect(chat.run('hello', { signal: source.signal })).rejects.toBeInstanceOf(RunAbortedError);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(chat.messages).toHaveLength(0);
  });

  it('give tools a signal that aborts with the run', async () => {
    const source = new AbortController();
    let signal: AbortSignal | undefined;
    const stop = tool({
      name: 'stop',
      description: 'cancels the run',
      input: z.object({}),
      execute: (_input, ctx) => {
        signal = ctx.signal;
        expect(signal.aborted).toBe(false);
        source.abort(new Error('user left'));
        return 'stopping';
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'stop', input: {} }] }, { text: 'never' }]);
    await expect(new Agent({ name: 't', model, tools: [stop] }).run('go', { signal: source.signal })).rejects.toBeInstanceOf(
      RunAbortedError,
    );
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal!.aborted).toBe(true);
  });

  it('abort an HTTP model call in flight (provider with its own timeout signal)', async () => {
    const source = new AbortController();
    server = await startFakeLlmServer(() => (setImmediate(() => source.abort()), { text: 'late', delayMs: 10_000 }));
    const agent = new Agent({
      name: 'h',
      model: { provider: 'openai-compatible', model: 'm', baseURL: `${server.url}/v1`, apiKey: 'k', retry: { maxRetries: 0 } },
    });
    const started = performance.now();
    await expect(agent.run('hello', { signal: source.signal })).rejects.toBeInstanceOf(RunAbortedError);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
  });

  it('stream(): the caller AbortSignal aborts the stream, and is let go once the run settles', async () => {
    const outer = new AbortController();
    const done = new Agent({ name: 's', model: new ScriptedModel([{ text: 'hi' }]) }).stream('hello', { signal: outer.signal });
    for await (const _ of done) void _;
    expect((await done.result).text).toBe('hi');
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);

    const slow = new Agent({ name: 's', model: new ScriptedModel(() => (outer.abort(), { text: 'slow', delayMs: 5_000 })) }).stream(
      'hello',
      { signal: outer.signal },
    );
    const types: string[] = [];
    for await (const e of slow) types.push(e.type);
    await expect(slow.result).rejects.toBeInstanceOf(RunAbortedError);
    expect(types.at(-1)).toBe('run_end');
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
  });
});
