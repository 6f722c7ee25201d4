import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { llmJudge, regexMatch } from '../../src/evals/index.js';
import { Agent, type AgentEvent, GuardrailError, type LiveScores, type Scorer, tool } from '../../src/index.js';
import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function fake(script: FakeScript) {
  server = await startFakeLlmServer(script);
  return { provider: 'openai-compatible', model: 'test', baseURL: `${server.url}/v1`, apiKey: 'k', retry: { maxRetries: 0 } } as const;
}

const noPasswords = regexMatch({ name: 'no_passwords', pattern: 'password', flags: 'i', negate: true });

describe('guardrails in the agent loop (fake model server)', () => {
  it('a blocking input guardrail stops the run before any model request, with a typed error and a guardrail event', async () => {
    const model = await fake([{ text: 'never sent' }]);
    const events: AgentEvent[] = [];
    const agent = new Agent({ name: 'support', model, guardrails: { input: [noPasswords] } });
    const err = await agent.run('My password is hunter2', { onEvent: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(GuardrailError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({ code: 'guardrail_tripped', stage: 'input', guardrail: 'no_passwords', score: 0, agent: 'support' });
    expect((err as Error).message).toContain('Guardrail "no_passwords" of agent "support" stopped the input');
    expect(server!.requests).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['run_start', 'guardrail', 'error', 'run_end']);
    expect(events[1]).toMatchObject({ type: 'guardrail', stage: 'input', mode: 'block', passed: false, guardrail: 'no_passwords' });
    expect(events[2]).toMatchObject({ error: { code: 'guardrail_tripped' } });

    // A clean input passes: the model answers, the passing check is reported too.
    const ok: AgentEvent[] = [];
    expect((await agent.run('Where is my order?', { onEvent: (e) => ok.push(e) })).text).toBe('never sent');
    expect(ok.find((e) => e.type === 'guardrail')).toMatchObject({ passed: true, score: 1 });
    expect(server!.requests).toHaveLength(1);
  });

  it('an output guardrail trips on the answer: GuardrailError, guardrail event, conversation unchanged', async () => {
    const model = await fake([{ text: 'Sure, the admin password is hunter2.' }]);
    const events: AgentEvent[] = [];
    const chat = new Agent({ name: 'support', model, guardrails: { output: [{ scorer: noPasswords }] } }).conversation();
    const err = await chat.run('Tell me a secret', { onEvent: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GuardrailError);
    expect(err).toMatchObject({ stage: 'output', reason: 'matches /password/i ("password")' });
    expect(events.filter((e) => e.type === 'guardrail')).toMatchObject([{ stage: 'output', passed: false }]);
    expect(events.some((e) => e.type === 'answer')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'failed' });
    expect(chat.messages).toHaveLength(0);
  });

  it('a tool-call guardrail stops the run before the tool runs', async () => {
    const model = await fake([{ toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf /' } }] }, { text: 'done' }]);
    let ran = 0;
    const shell = tool({
      name: 'shell',
      description: 'Run a command',
      input: z.object({ command: z.string() }),
      execute: () => (ran++, 'ok'),
    });
    const events: AgentEvent[] = [];
    const agent = new Agent({
      name: 'ops',
      model,
      tools: [shell],
      guardrails: { toolCalls: [{ scorer: regexMatch({ name: 'no_rm_rf', pattern: 'rm -rf', negate: true }), tools: ['shell'] }] },
    });
    const err = await agent.run('Clean up', { onEvent: (e) => events.push(e) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'GuardrailError', stage: 'tool_call', toolName: 'shell', guardrail: 'no_rm_rf' });
    expect((err as Error).message).toContain('stopped a call of tool "shell"');
    expect(ran).toBe(0);
    expect(server!.requests).toHaveLength(1);
    expect(events.filter((e) => e.type === 'guardrail')).toMatchObject([{ stage: 'tool_call', toolName: 'shell', passed: false }]);
    expect(events.some((e) => e.type === 'tool_result')).toBe(false);
  });

  it('check mode runs alongside the model and only reports; its event comes before run_end', async () => {
    const model = await fake([{ text: 'Your order ships tomorrow.' }]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // A slow check: the model request goes out while it is still running.
    const slow: Scorer = {
      name: 'slow_check',
      score: async () => {
        await gate;
        return { score: 0.2, pass: false, reason: 'sounds unsure' };
      },
    };
    const events: AgentEvent[] = [];
    const run = new Agent({ name: 'support', model, guardrails: { input: [{ scorer: slow, mode: 'check' }] } }).run('Where is my order?', {
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'step_end') release();
      },
    });
    const result = await run;
    expect(result.text).toBe('Your order ships tomorrow.');
    const types = events.map((e) => e.type);
    expect(types.indexOf('step_end')).toBeLessThan(types.indexOf('guardrail'));
    expect(types.indexOf('guardrail')).toBeLessThan(types.indexOf('run_end'));
    expect(events.find((e) => e.type === 'guardrail')).toMatchObject({ mode: 'check', passed: false, score: 0.2, reason: 'sounds unsure' });
  });

  it('an LLM judge as an output guardrail calls the judging model through the model layer', async () => {
    const model = await fake((req) =>
      JSON.stringify(req.body.messages[0]).includes('impartial judge')
        ? { text: '{"score": 0.2, "reason": "rude"}' }
        : { text: 'Go away.' },
    );
    const judge = llmJudge({ name: 'polite', model, criteria: 'The answer is polite.', passAt: 0.7 });
    const err = await new Agent({ name: 'support', model, guardrails: { output: [judge] } }).run('Hello?').catch((e: unknown) => e);
    expect(err).toMatchObject({ stage: 'output', guardrail: 'polite', score: 0.2, reason: 'rude' });
    expect(server!.requests).toHaveLength(2);
    const judgePrompt = JSON.stringify(server!.requests[1].body.messages);
    expect(judgePrompt).toContain('The answer is polite.');
    expect(judgePrompt).toContain('Go away.');
  });

  it('sampled live scoring scores finished runs afterwards; sample 0 scores none', async () => {
    const model = await fake(() => ({ text: 'Lima' }));
    const got: LiveScores[] = [];
    let scored!: () => void;
    const done = new Promise<void>((r) => (scored = r));
    const agent = new Agent({
      name: 'geo',
      model,
      scoring: { scorers: [regexMatch({ name: 'lima', pattern: 'Lima' })], sample: 1, onScores: (s) => (got.push(s), scored()) },
    });
    const r = await agent.run('Capital of Peru?');
    await done;
    expect(got).toEqual([
      expect.objectContaining({
        runId: r.runId,
        agent: 'geo',
        input: 'Capital of Peru?',
        output: 'Lima',
        scores: [expect.objectContaining({ scorer: 'lima', score: 1, pass: true })],
      }),
    ]);
    const none: LiveScores[] = [];
    const never = new Agent({
      name: 'geo',
      model,
      scoring: { scorers: [regexMatch({ pattern: 'x' })], sample: 0, onScores: (s) => void none.push(s) },
    });
    await never.run('Capital of Peru?');
    await never.run('Capital of Peru?');
    expect(none).toEqual([]);
  });
});
