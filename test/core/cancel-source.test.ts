import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, CancelSource, RunAbortedError, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fake-llm-server.js';

/** Whether the source made its AbortSignal (what this class exists to avoid when nobody asks). */
const madeSignal = (source: CancelSource) => (source as unknown as { controller?: AbortController }).controller !== undefined;

describe('CancelSource', () => {
  it('aborts once, with a reason, runs its listeners, and makes a signal only when asked', () => {
    const source = new CancelSource();
    const seen: string[] = [];
    const unlink = source.onAbort(() => seen.push('a'));
    source.onAbort(() => seen.push('b'))();
    expect(source.aborted).toBe(false);
    expect(madeSignal(source)).toBe(false);
    source.abort(new Error('stop'));
    source.abort(new Error('again'));
    unlink();
    expect(seen).toEqual(['a']);
    expect(source.aborted).toBe(true);
    expect((source.reason as Error).message).toBe('stop');
    // A signal asked for after the abort is a real one, already aborted with the reason.
    expect(source.signal).toBeInstanceOf(AbortSignal);
    expect(source.signal.aborted).toBe(true);
    expect((source.signal.reason as Error).message).toBe('stop');
    source.onAbort(() => seen.push('late'));
    expect(seen).toEqual(['a', 'late']);
  });

  it('aborts a signal made before the abort, with an AbortError when no reason is given', () => {
    const source = new CancelSource();
    const signal = source.signal;
    expect(signal.aborted).toBe(false);
    source.abort();
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe('AbortError');
  });
});

describe('runs cancelled with a CancelSource', () => {
  let server: FakeLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('finish without making a signal when the model never asks for one', async () => {
    const source = new CancelSource();
    // (A recording ScriptedModel copies its call options, abortSignal included: this one does not record.)
    const r = await new Agent({ name: 'a', model: new ScriptedModel([{ text: 'hi' }], { record: false }) }).run('hello', { signal: source });
    expect(r.text).toBe('hi');
    expect(madeSignal(source)).toBe(false);
  });

  it('reject with RunAbortedError when cancelled during the model call, leaving the conversation unchanged', async () => {
    const source = new CancelSource();
    // The script cancels as the call starts; the model then waits on the abort signal it was given.
    const model = new ScriptedModel(() => (source.abort(), { text: 'slow', delayMs: 5_000 }));
    const chat = new Agent({ name: 'c', model }).conversation();
    const started = performance.now();
    await expect(chat.run('hello', { signal: source })).rejects.toBeInstanceOf(RunAbortedError);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(chat.messages).toHaveLength(0);
  });

  it('give tools a real AbortSignal that aborts with the source', async () => {
    const source = new CancelSource();
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
    await expect(new Agent({ name: 't', model, tools: [stop] }).run('go', { signal: source })).rejects.toBeInstanceOf(RunAbortedError);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal!.aborted).toBe(true);
  });

  it('abort an HTTP model call in flight (provider with its own timeout signal)', async () => {
    const source = new CancelSource();
    server = await startFakeLlmServer(() => (setImmediate(() => source.abort()), { text: 'late', delayMs: 10_000 }));
    const agent = new Agent({ name: 'h', model: { provider: 'openai-compatible', model: 'm', baseURL: `${server.url}/v1`, apiKey: 'k', retry: { maxRetries: 0 } } });
    const started = performance.now();
    await expect(agent.run('hello', { signal: source })).rejects.toBeInstanceOf(RunAbortedError);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(1);
    expect(madeSignal(source)).toBe(false); // linked to the call's own controller by a callback
  });

  it('stream(): the caller AbortSignal aborts the stream, and is let go once the run settles', async () => {
    const outer = new AbortController();
    const done = new Agent({ name: 's', model: new ScriptedModel([{ text: 'hi' }]) }).stream('hello', { signal: outer.signal });
    for await (const _ of done) void _;
    expect((await done.result).text).toBe('hi');
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);

    const slow = new Agent({ name: 's', model: new ScriptedModel(() => (outer.abort(), { text: 'slow', delayMs: 5_000 })) }).stream('hello', { signal: outer.signal });
    const types: string[] = [];
    for await (const e of slow) types.push(e.type);
    await expect(slow.result).rejects.toBeInstanceOf(RunAbortedError);
    expect(types.at(-1)).toBe('run_end');
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
  });
});
