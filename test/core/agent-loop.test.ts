import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, type AgentEvent, MaxStepsExceededError, RunAbortedError, tool, ToolExecutionError } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('agent loop', () => {
  it('calls a tool, feeds the result back and answers', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
    const agent = new Agent({ name: 'calc', instructions: 'You add numbers.', model, tools: [add] });
    const result = await agent.run('add 2 and 3');
    expect(result.text).toBe('The sum is 5.');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolName: 'add', output: 5, isError: false });
    expect(result.usage.inputTokens).toBe(20);
    // What the model was sent: system prompt, tools with JSON Schema, the tool result paired with its call.
    expect(model.calls[0].prompt[0]).toEqual({ role: 'system', content: 'You add numbers.' });
    expect(model.calls[0].tools?.[0]).toMatchObject({
      name: 'add',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    const second = model.calls[1].prompt;
    const call = second[2];
    const res = second[3];
    expect(call.role).toBe('assistant');
    expect(res).toMatchObject({ role: 'tool', content: [{ type: 'tool-result', toolName: 'add', output: { type: 'json', value: 5 } }] });
    expect((res.content as Array<{ toolCallId: string }>)[0].toolCallId).toBe(
      (call.content as Array<{ toolCallId: string }>)[0].toolCallId,
    );
  });

  it('streams typed events in order', async () => {
    const model = new ScriptedModel([
      { reasoning: 'I should add.', toolCalls: [{ toolName: 'add', input: { a: 1, b: 1 } }] },
      { text: 'Two it is.' },
    ]);
    const agent = new Agent({ name: 'calc', model, tools: [add] });
    const events: AgentEvent[] = [];
    const s = agent.stream('1+1?');
    for await (const e of s) events.push(e);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run_start');
    expect(types).toContain('reasoning_delta');
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('tool_result'));
    expect(types.slice(-2)).toEqual(['answer', 'run_end']);
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('Two it is.');
    expect((await s.result).text).toBe('Two it is.');
  });

  it('keeps history across runs of a conversation and resets it', async () => {
    const model = new ScriptedModel([{ text: 'Hi Ann.' }, { text: 'You are Ann.' }, { text: 'I do not know.' }]);
    const chat = new Agent({ name: 'a', model }).conversation();
    await chat.run('I am Ann');
    await chat.run('Who am I?');
    expect(model.calls[1].prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(chat.usage.inputTokens).toBe(20);
    chat.reset();
    await chat.run('Who am I?');
    expect(model.calls[2].prompt).toHaveLength(1);
  });

  it('returns invalid arguments, unknown tools and thrown errors to the model', async () => {
    const boom = tool({
      name: 'boom',
      description: 'fails',
      input: z.object({}),
      execute: () => {
        throw new Error('kaput');
      },
    });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'add', input: { a: 'x', b: 1 } },
          { toolName: 'nope', input: {} },
          { toolName: 'boom', input: {} },
          { toolName: 'add', input: '{"a": 1,' },
        ],
      },
      { text: 'sorry' },
    ]);
    const agent = new Agent({ name: 'calc', model, tools: [add, boom] });
    const r = await agent.run('go');
    const results = r.steps[0].toolResults;
    expect(results.every((x) => x.isError)).toBe(true);
    expect(results[0].output).toMatch(/Invalid arguments for tool "add": a:/);
    expect(results[1].output).toMatch(/Unknown tool "nope". Available tools: add, boom/);
    expect(results[2].output).toMatch(/kaput/);
    expect(results[3].output).toMatch(/Invalid JSON/);
    const toolMsg = model.calls[1].prompt.at(-1)!;
    expect(toolMsg.content).toHaveLength(4);
    expect((toolMsg.content as Array<{ output: { type: string } }>).every((c) => c.output.type === 'error-text')).toBe(true);
  });

  it('raises tool errors when configured to', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 'x' } }] }]);
    const agent = new Agent({ name: 'calc', model, tools: [add], toolErrors: 'throw' });
    await expect(agent.run('go')).rejects.toBeInstanceOf(ToolExecutionError);
  });

  it('stops at maxSteps with the steps so far', async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [{ toolName: 'add', input: { a: 1, b: 1 } }] }));
    const agent = new Agent({ name: 'loop', model, tools: [add], maxSteps: 3 });
    const err = await agent.run('go').catch((e) => e);
    expect(err).toBeInstanceOf(MaxStepsExceededError);
    expect(err.steps).toHaveLength(3);
    expect(err.message).toMatch(/limit of 3 steps/);
  });

  it('runs several tool calls concurrently under a limit', async () => {
    let active = 0;
    let peak = 0;
    const slow = tool({
      name: 'slow',
      description: 'slow',
      input: z.object({ i: z.number() }),
      execute: async ({ i }) => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return i;
      },
    });
    const calls = Array.from({ length: 6 }, (_, i) => ({ toolName: 'slow', input: { i } }));
    const model = new ScriptedModel([{ toolCalls: calls }, { text: 'done' }]);
    const r = await new Agent({ name: 'c', model, tools: [slow], toolConcurrency: 3 }).run('go');
    expect(peak).toBe(3);
    expect(r.steps[0].toolResults.map((x) => x.output)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('times out a slow tool and tells the model', async () => {
    const hang = tool({
      name: 'hang',
      description: 'never ends',
      input: z.object({}),
      timeoutMs: 50,
      execute: () => new Promise(() => {}),
    });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'hang', input: {} }] }, { text: 'gave up' }]);
    const r = await new Agent({ name: 'c', model, tools: [hang] }).run('go');
    expect(r.steps[0].toolResults[0]).toMatchObject({ isError: true, output: expect.stringMatching(/timed out after 50 ms/) });
  });

  it('cancels with an AbortSignal and leaves the conversation unchanged', async () => {
    const model = new ScriptedModel([{ text: 'slow', delayMs: 5_000 }]);
    const chat = new Agent({ name: 'c', model }).conversation();
    const ac = new AbortController();
    const p = chat.run('hello', { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    await expect(p).rejects.toBeInstanceOf(RunAbortedError);
    expect(chat.messages).toHaveLength(0);
  });

  it('passes per-run overrides to the model', async () => {
    const model = new ScriptedModel([{ text: 'ok' }]);
    const agent = new Agent({ name: 'c', model, tools: [add], temperature: 0.1 });
    await agent.run('x', { temperature: 0.7, maxTokens: 99, topP: 0.5, toolChoice: { tool: 'add' } });
    expect(model.calls[0]).toMatchObject({
      temperature: 0.7,
      maxOutputTokens: 99,
      topP: 0.5,
      toolChoice: { type: 'tool', toolName: 'add' },
    });
  });
});

describe('agent as tool', () => {
  it('runs the sub-agent on a fresh conversation and nests its events once', async () => {
    const inner = new ScriptedModel([{ text: 'Paris' }, { text: 'Rome' }]);
    const geo = new Agent({ name: 'geo', description: 'Knows capitals', model: inner });
    const outer = new ScriptedModel([
      { toolCalls: [{ toolName: 'ask_geo', input: { message: 'capital of France?' } }] },
      { toolCalls: [{ toolName: 'ask_geo', input: { message: 'capital of Italy?' } }] },
      { text: 'Paris and Rome.' },
    ]);
    const boss = new Agent({ name: 'boss', model: outer, tools: [geo.asTool()] });
    const events: AgentEvent[] = [];
    const r = await boss.run('capitals?', { onEvent: (e) => events.push(e) });
    expect(r.text).toBe('Paris and Rome.');
    expect(inner.calls[1].prompt).toHaveLength(1);
    const nested = events.filter((e) => e.path.length === 2);
    expect(nested[0]).toMatchObject({ type: 'run_start', agent: 'geo', path: ['boss', 'geo'] });
    expect(events.filter((e) => e.type === 'answer')).toHaveLength(1);
    expect(r.usage.inputTokens).toBe(50);
  });
});
