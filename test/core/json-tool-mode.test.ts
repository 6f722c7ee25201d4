import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, type AgentEvent, jsonToolModel, parseToolCallsFromText, tool } from '../../src/index.js';
import { JsonToolCallScanner } from '../../src/models/json-tool-calls.js';
import { ScriptedModel } from '../../src/testing/index.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('parseToolCallsFromText', () => {
  it('finds calls in bare JSON, code fences and prose', () => {
    expect(parseToolCallsFromText('{"tool": "add", "arguments": {"a": 1, "b": 2}}').calls).toEqual([
      { toolName: 'add', input: '{"a":1,"b":2}' },
    ]);
    const fenced = parseToolCallsFromText('Sure, let me add.\n```json\n{"name": "add", "args": {"a": 1, "b": 2}}\n```');
    expect(fenced.calls[0].toolName).toBe('add');
    expect(fenced.prose).toBe('Sure, let me add.');
    const many = parseToolCallsFromText('{"tool_calls": [{"tool": "a", "arguments": {}}, {"tool": "b", "arguments": "{\\"x\\":1}"}]}');
    expect(many.calls.map((c) => c.toolName)).toEqual(['a', 'b']);
    expect(many.calls[1].input).toBe('{"x":1}');
  });

  it('leaves plain answers alone and reports malformed calls', () => {
    expect(parseToolCallsFromText('The answer is {not json} really').calls).toEqual([]);
    expect(parseToolCallsFromText('42').calls).toEqual([]);
    const bad = parseToolCallsFromText('{"tool": "add", "arguments": {"a": 1,');
    expect(bad.calls[0]).toEqual({ toolName: 'add', input: '{"tool": "add", "arguments": {"a": 1,' });
  });
});

describe('JSON tool-call mode', () => {
  it('describes tools in the prompt, parses calls, and writes results back as text', async () => {
    const inner = new ScriptedModel([
      { text: 'I will add.\n```json\n{"tool": "add", "arguments": {"a": 2, "b": 3}}\n```' },
      { text: 'The sum is 5.' },
    ]);
    const agent = new Agent({ name: 'calc', instructions: 'You add.', model: jsonToolModel(inner), tools: [add] });
    const r = await agent.run('add 2 and 3');
    expect(r.text).toBe('The sum is 5.');
    expect(r.steps[0].toolResults[0]).toMatchObject({ output: 5, isError: false });
    const first = inner.calls[0];
    expect(first.tools).toBeUndefined();
    expect(first.prompt[0].role).toBe('system');
    expect(first.prompt[0].content).toMatch(/^You add\.\n\nYou can call tools/);
    expect(first.prompt[0].content).toContain('"required":["a","b"]');
    const second = inner.calls[1].prompt;
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(second[3])).toContain('Result of tool add: 5');
  });

  it('reports a malformed call back to the model, streaming too', async () => {
    const inner = new ScriptedModel([{ text: '{"tool": "add", "arguments": {"a": 2,' }, { text: 'Let me fix that.' }]);
    const agent = new Agent({ name: 'calc', model: jsonToolModel(inner), tools: [add] });
    const events: AgentEvent[] = [];
    for await (const e of agent.stream('add')) events.push(e);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: true, output: expect.stringMatching(/Invalid JSON/) });
    expect(JSON.stringify(inner.calls[1].prompt.at(-1))).toContain('Tool add failed: Invalid JSON');
    const text = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e as { delta: string }).delta)
      .join('');
    expect(text).toBe('Let me fix that.');
  });
});

describe('JsonToolCallScanner', () => {
  /** Feeds `text` one character at a time; returns what was written after each push, and the calls. */
  function scan(text: string, tools = ['add']): { pieces: string[]; text: string; calls: string[] } {
    const s = new JsonToolCallScanner({ tools });
    const pieces = [...text].map((c) => s.push(c));
    pieces.push(s.finish());
    return { pieces, text: pieces.join(''), calls: s.calls.map((c) => `${c.toolName}(${c.input})`) };
  }

  it('streams the prose before a call at once and never writes the call JSON', () => {
    const r = scan('Let me compute that. {"tool": "add", "arguments": {"a": 2, "b": 3}}');
    expect(r.text).toBe('Let me compute that.');
    expect(r.calls).toEqual(['add({"a":2,"b":3})']);
    // The prose was written while the JSON was still arriving, not at the end.
    const firstJson = 'Let me compute that. '.length;
    expect(r.pieces.slice(0, firstJson).join('')).toBe('Let me compute that.');
  });

  it('takes only offered tools as calls; other JSON is answer text', () => {
    expect(scan('{"name":"Ann","age":3}')).toMatchObject({ text: '{"name":"Ann","age":3}', calls: [] });
    expect(scan('Here: ```json\n{"tool": "weather", "arguments": {}}\n```')).toMatchObject({ calls: [] });
    expect(scan('```json\n{"tool": "add", "arguments": {"a": 1, "b": 1}}\n```\nDone.')).toMatchObject({
      text: 'Done.',
      calls: ['add({"a":1,"b":1})'],
    });
    expect(parseToolCallsFromText('{"name":"Ann","age":3}', { tools: ['add'] })).toEqual({ calls: [], prose: '{"name":"Ann","age":3}' });
  });

  it('leaves answers with braces, brackets and code blocks unchanged, streaming code as it comes', () => {
    const answer = 'Sets look like {1, 2} and [links](x). Code:\n```ts\nconst o = { a: 1 };\n```\nEnd `x`.\n';
    const r = scan(answer);
    expect(r).toMatchObject({ text: answer, calls: [] });
    // The code block streamed before the end of the text.
    expect(r.pieces.slice(0, answer.indexOf('};') + 2).join('')).toContain('const o = { a: 1 }');
  });

  it('reads strings with escaped quotes and brackets across pieces', () => {
    const r = scan('Saying it: {"tool": "add", "arguments": {"a": 1, "b": 2, "note": "a \\"}\\" and ] inside"}}');
    expect(r.text).toBe('Saying it:');
    expect(r.calls).toEqual(['add({"a":1,"b":2,"note":"a \\"}\\" and ] inside"})']);
  });

  it('reports a malformed or truncated call to an offered tool', () => {
    expect(scan('{"tool": "add", "arguments": {"a": 1,').calls).toEqual(['add({"tool": "add", "arguments": {"a": 1,)']);
    expect(scan('{"tool": "nope", "arguments": {"a": 1,').calls).toEqual([]);
  });
});
