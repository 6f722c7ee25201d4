/**
 * Cancelling a run ends it `aborted` promptly wherever it is: during a tool (even one that
 * ignores its signal — the tool is told through `ctx.signal`), inside a nested agent called as a
 * tool, and inside a workflow's sub-agent.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { SequentialAgent } from '../../src/agents/sequential-agent.js';
import { Agent, RunAbortedError, tool } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import type { AgentEvent } from '../../src/types/events.js';

/** Collects a stream's events, calling `abortWhen` on each; returns the events, the result's error and how long the end took after the abort. */
async function cancelOn(agent: { stream: Agent['stream'] }, abortWhen: (e: AgentEvent) => boolean) {
  const s = agent.stream('go');
  const events: AgentEvent[] = [];
  let abortedAt = 0;
  for await (const e of s) {
    events.push(e);
    if (abortedAt === 0 && abortWhen(e)) {
      abortedAt = Date.now();
      s.abort();
    }
  }
  const error = await s.result.then(
    () => undefined,
    (err: unknown) => err,
  );
  return { events, error, afterAbortMs: Date.now() - abortedAt, abortedAt };
}

describe('cancellation anywhere in a run', () => {
  it('during a tool that ignores its signal: the run ends aborted at once, and the tool saw its signal abort', async () => {
    let toolSignal: AbortSignal | undefined;
    let toolDone = false;
    const stubborn = tool({
      name: 'stubborn',
      description: 'Takes its time',
      input: z.object({}),
      execute: async (_input, ctx) => {
        toolSignal = ctx.signal;
        await new Promise((r) => setTimeout(r, 3000));
        toolDone = true;
        return 'done';
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'stubborn', input: {} }] }, { text: 'never reached' }]);
    const agent = new Agent({ name: 'a', model, tools: [stubborn] });
    const { events, error, afterAbortMs } = await cancelOn(agent, (e) => e.type === 'tool_call');
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'aborted' });
    expect(afterAbortMs).toBeLessThan(1000);
    expect(toolDone).toBe(false);
    expect(toolSignal?.aborted).toBe(true);
    // The model was not called again after the cancel.
    expect(model.calls).toHaveLength(1);
  });

  it('inside a nested agent (agent as a tool) whose model is still streaming', async () => {
    const inner = new Agent({ name: 'inner', model: new ScriptedModel([{ text: 'a long answer', delayMs: 3000 }]) });
    const outerModel = new ScriptedModel([{ toolCalls: [{ toolName: 'ask_inner', input: { message: 'hi' } }] }, { text: 'never' }]);
    const outer = new Agent({ name: 'outer', model: outerModel, tools: [inner.asTool()] });
    const { events, error, afterAbortMs } = await cancelOn(outer, (e) => e.type === 'run_start' && e.path.length === 2);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(afterAbortMs).toBeLessThan(1000);
    const ends = events.filter((e) => e.type === 'run_end');
    expect(ends.at(-1)).toMatchObject({ status: 'aborted', path: ['outer'] });
    expect(outerModel.calls).toHaveLength(1);
  });

  it('inside a workflow sub-agent', async () => {
    const first = new Agent({ name: 'first', model: new ScriptedModel([{ text: 'slow', delayMs: 3000 }]) });
    const second = new Agent({ name: 'second', model: new ScriptedModel([{ text: 'never' }]) });
    const flow = new SequentialAgent({ name: 'flow', subAgents: [first, second] });
    const { events, error, afterAbortMs } = await cancelOn(flow, (e) => e.type === 'run_start' && e.agent === 'first');
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(afterAbortMs).toBeLessThan(1000);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'aborted' });
    expect(events.some((e) => e.type === 'run_start' && e.agent === 'second')).toBe(false);
  });
});
