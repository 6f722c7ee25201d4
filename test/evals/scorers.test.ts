import { describe, expect, it } from 'vitest';

import { budget, exactMatch, jsonSchema, regexMatch, toolTrajectory } from '../../src/evals/index.js';
import { buildScorer } from '../../src/evals/scorer-spec.js';
import { parseVerdict } from '../../src/evals/scorers/llm-judge.js';
import type { ScoreInput } from '../../src/types/scorer.js';

const run = (over: Partial<ScoreInput> = {}): ScoreInput => ({ stage: 'run', agent: 'a', input: 'q', output: '', toolCalls: [], ...over });
const calls = (...names: Array<[string, unknown?]>) => names.map(([toolName, input]) => ({ toolName, input: input ?? {} }));

describe('built-in scorers', () => {
  it('exact: trims by default, ignore_case, expected from the case', async () => {
    expect(await exactMatch({ expected: 'Lima' }).score(run({ output: ' Lima\n' }))).toMatchObject({ score: 1, pass: true });
    expect(await exactMatch({ expected: 'lima' }).score(run({ output: 'Lima' }))).toMatchObject({
      score: 0,
      reason: 'expected "lima", got "Lima"',
    });
    expect(await exactMatch({ ignoreCase: true }).score(run({ output: 'LIMA', expected: { output: 'lima' } }))).toMatchObject({
      pass: true,
    });
    expect(await exactMatch().score(run({ output: 'x' }))).toMatchObject({
      pass: false,
      reason: expect.stringContaining('no expected text'),
    });
  });

  it('regex: matches, negates, and reads the input at the input stage and the call at the tool-call stage', async () => {
    expect(await regexMatch({ pattern: 'lima', flags: 'i' }).score(run({ output: 'It is Lima.' }))).toMatchObject({ score: 1 });
    const guard = regexMatch({ pattern: 'password', negate: true });
    expect(await guard.score(run({ stage: 'input', input: 'my password', output: '' }))).toMatchObject({ pass: false, score: 0 });
    expect(await guard.score(run({ stage: 'tool_call', toolCalls: calls(['login', { password: 'x' }]) }))).toMatchObject({ pass: false });
    expect(await guard.score(run({ output: 'all fine' }))).toMatchObject({ pass: true });
    expect(() => regexMatch({ pattern: '(' })).toThrow(/regex scorer: invalid pattern \/\(\//);
  });

  it('json_schema: valid JSON (also in a fence), invalid JSON, schema violations', async () => {
    const s = jsonSchema({ schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
    expect(await s.score(run({ output: '```json\n{"city": "Lima"}\n```' }))).toMatchObject({ score: 1, pass: true });
    expect(await s.score(run({ output: 'Lima' }))).toMatchObject({ score: 0, reason: expect.stringMatching(/^not JSON/) });
    expect(await s.score(run({ output: '{"city": 3}' }))).toMatchObject({ score: 0, reason: expect.stringContaining('city') });
  });

  it('tool_calls: exact, in_order, any_order, subset, ignored arguments', async () => {
    const actual = calls(['search', { q: 'peru', id: 1 }], ['lookup', { id: 7 }], ['answer']);
    const expected = [{ tool: 'search', args: { q: 'peru' } }, { tool: 'answer' }];
    const score = (mode: 'exact' | 'in_order' | 'any_order' | 'subset', ignoreArgs?: string[]) =>
      toolTrajectory({ mode, expected, ignoreArgs }).score(run({ toolCalls: actual }));
    expect(await score('in_order', ['id'])).toMatchObject({ score: 1, pass: true });
    expect(await score('in_order')).toMatchObject({ pass: false, score: 0 });
    expect(await score('exact', ['id'])).toMatchObject({ pass: false, score: 1 / 3 });
    expect(await score('any_order', ['id'])).toMatchObject({ pass: false, score: 2 / 3 });
    expect(await score('subset', ['id'])).toMatchObject({ pass: false, score: 2 / 3 });
    const reversed = toolTrajectory({ mode: 'any_order', expected: [{ tool: 'b' }, { tool: 'a' }] });
    expect(await reversed.score(run({ toolCalls: calls(['a'], ['b']) }))).toMatchObject({ pass: true, score: 1 });
    expect(await toolTrajectory({ mode: 'exact' }).score(run({ toolCalls: [], expected: { toolCalls: [] } }))).toMatchObject({
      pass: true,
      score: 1,
    });
    expect(
      await toolTrajectory({ mode: 'subset', expected: [{ tool: 'a' }] }).score(run({ toolCalls: calls(['a'], ['rm']) })),
    ).toMatchObject({
      pass: false,
      reason: 'tool calls a, rm; expected (subset) a',
    });
  });

  it('budget: tokens, latency, steps and cost', async () => {
    const usage = { inputTokens: 1000, outputTokens: 500, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 1500 };
    const b = budget({ maxTokens: 2000, maxLatencyMs: 100, maxSteps: 3, maxCostUsd: 0.001, pricePerMillion: { input: 0.4, output: 1.6 } });
    const r = await b.score(run({ usage, latencyMs: 250, steps: 2 }));
    // cost = (1000 × 0.4 + 500 × 1.6) / 1e6 = 0.0012 > 0.001; latency 250 > 100.
    expect(r).toMatchObject({ pass: false, score: 0.5, details: { tokens: 1500, 'latency ms': 250, steps: 2, 'cost usd': 0.0012 } });
    expect(r.reason).toBe('over budget: latency ms 250 > 100, cost usd 0.0012 > 0.001');
    expect(await budget({ maxSteps: 2 }).score(run({ steps: 2 }))).toMatchObject({ pass: true, score: 1 });
    expect(() => budget({ maxCostUsd: 1 })).toThrow(/price_per_million/);
  });

  it('llm_judge verdicts: JSON anywhere in the reply, 0–10 scaled, bare numbers, nonsense', () => {
    expect(parseVerdict('Here: {"score": 0.8, "reason": "ok"}')).toEqual({ score: 0.8, reason: 'ok' });
    expect(parseVerdict('{"score": 7}')).toEqual({ score: 0.7 });
    expect(parseVerdict('1')).toEqual({ score: 1 });
    expect(parseVerdict('no idea')).toBeUndefined();
  });

  it('YAML references build the same scorers, with the type as the default name', async () => {
    const s = buildScorer({ type: 'regex', pattern: 'Lima' }, () => 'openai:gpt-4.1-mini');
    expect(s.name).toBe('regex');
    expect(await s.score(run({ output: 'Lima' }))).toMatchObject({ pass: true });
    expect(() => buildScorer({ type: 'json_schema', schema: { type: 'nonsense' } }, () => 'x')).toThrow(/not a usable JSON Schema/);
  });
});
