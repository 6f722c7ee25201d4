import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, type AgentEvent, tool, type ToolContext, toolSpec, ValidationError } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

describe('tool()', () => {
  it('rejects names providers would refuse', () => {
    expect(() => tool({ name: 'has space', description: '', execute: () => 1 })).toThrow(ValidationError);
    expect(() => tool({ name: 'x'.repeat(65), description: '', execute: () => 1 })).toThrow(/1-64 letters/);
  });

  it('converts a zod schema to JSON Schema once', () => {
    const t = tool({
      name: 'search',
      description: 'Search',
      input: z.object({ q: z.string().describe('query'), limit: z.number().int().default(5) }),
      execute: () => [],
    });
    const a = toolSpec(t);
    expect(a).toBe(toolSpec(t));
    expect(a.inputSchema).toMatchObject({ type: 'object', properties: { q: { type: 'string', description: 'query' } }, required: ['q'] });
    expect(a.inputSchema).not.toHaveProperty('$schema');
  });

  it('validates raw JSON Schema arguments and passes the tool context', async () => {
    let seen: ToolContext | undefined;
    const lookup = tool<{ key: string }>({
      name: 'lookup',
      description: 'Look up',
      parameters: { type: 'object', properties: { key: { type: 'string' }, n: { type: 'integer' } }, required: ['key'] },
      execute: ({ key }, ctx) => {
        seen = ctx;
        return { key, found: true, at: new Date(0) };
      },
    });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'lookup', input: { n: 1.5 } },
          { toolName: 'lookup', input: { key: 'k' } },
        ],
      },
      { text: 'ok' },
    ]);
    const r = await new Agent({ name: 'db', model, tools: [lookup] }).run('find k');
    const [bad, good] = r.steps[0].toolResults;
    expect(bad).toMatchObject({ isError: true, output: 'Invalid arguments for tool "lookup": key: required' });
    expect(good).toMatchObject({ isError: false });
    expect(seen).toMatchObject({ agent: 'db', path: ['db'], runId: r.runId });
    expect(seen!.messages[0]).toMatchObject({ role: 'user' });
    // Non-string results are sent as JSON (Dates serialised).
    const sent = model.calls[1].prompt.at(-1)!.content as Array<{ output: unknown }>;
    expect(sent[1].output).toEqual({ type: 'json', value: { key: 'k', found: true, at: '1970-01-01T00:00:00.000Z' } });
  });

  it('rejects two tools with the same name on one agent', async () => {
    const a = tool({ name: 'a', description: '', execute: () => 1 });
    const agent = new Agent({ name: 'x', model: new ScriptedModel([]) });
    agent.addTools(a);
    expect(() => agent.addTools(a)).toThrow(/two tools named "a"/);
  });
});

describe('streaming', () => {
  it('aborting a stream ends it with error + run_end(aborted) and rejects result', async () => {
    const model = new ScriptedModel([{ text: 'never', delayMs: 10_000 }]);
    const s = new Agent({ name: 'slow', model }).stream('hi');
    const events: AgentEvent[] = [];
    setTimeout(() => s.abort(), 10);
    for await (const e of s) events.push(e);
    expect(events.at(-2)).toMatchObject({ type: 'error', error: { code: 'run_aborted' } });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'aborted' });
    await expect(s.result).rejects.toMatchObject({ code: 'run_aborted' });
  });

  it('a stream cut mid-answer fails the run with a provider error', async () => {
    const model = new ScriptedModel([{ text: 'one two three four', streamError: new Error('socket hang up') }]);
    const s = new Agent({ name: 'x', model }).stream('hi');
    const types: string[] = [];
    for await (const e of s) types.push(e.type);
    expect(types).toContain('text_delta');
    expect(types.slice(-2)).toEqual(['error', 'run_end']);
    await expect(s.result).rejects.toMatchObject({ name: 'ProviderError', kind: 'stream_interrupted' });
  });

  it('nested agent deltas stream with their path', async () => {
    const sub = new Agent({ name: 'sub', model: new ScriptedModel([{ text: 'inner answer' }]) });
    const top = new Agent({
      name: 'top',
      model: new ScriptedModel([{ toolCalls: [{ toolName: 'ask_sub', input: { message: 'q' } }] }, { text: 'outer' }]),
      tools: [sub.asTool()],
    });
    const deltas: AgentEvent[] = [];
    for await (const e of top.stream('go')) if (e.type === 'text_delta') deltas.push(e);
    expect(deltas[0].path).toEqual(['top', 'sub']);
    expect(deltas.at(-1)!.path).toEqual(['top']);
  });

  it('a failure before the loop (no model) still ends the stream cleanly', async () => {
    const agent = new Agent({ name: 'x', model: 'nosuch:model' });
    const s = agent.stream('hi');
    const events: AgentEvent[] = [];
    for await (const e of s) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['error', 'run_end']);
    await expect(s.result).rejects.toMatchObject({ name: 'ConfigError', message: expect.stringContaining('Unknown provider "nosuch"') });
  });
});
