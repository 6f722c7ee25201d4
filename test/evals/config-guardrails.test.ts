import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { type AgentEvent, GuardrailError } from '../../src/index.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { startFakeLlmServer } from '../support/fake-llm-server.js';

const dir = mkdtempSync(join(tmpdir(), 'corvid-guardrails-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model = (url: string) =>
  `models:\n  fake:\n    provider: openai-compatible\n    base_url: ${url}/v1\n    model: test\n    retry: { max_retries: 0 }\n`;

describe('guardrails: and scoring: in corvid.yaml', () => {
  it('builds block and check guardrails from built-in scorer references, and appends live scores to .corvid/scores.jsonl', async () => {
    const server = await startFakeLlmServer(() => ({ text: 'Your order 1234 ships tomorrow.' }));
    try {
      writeFileSync(
        join(dir, 'corvid.yaml'),
        `${model(server.url)}agents:
  support:
    model: fake
    guardrails:
      input:
        - { type: regex, name: no_passwords, pattern: password, flags: i, negate: true }
      output:
        - { type: regex, name: mentions_order, pattern: 'order \\d+', mode: check }
        - { type: budget, name: steps, max_steps: 2 }
    scoring:
      sample: 1
      scorers:
        - { type: regex, name: polite, pattern: please, flags: i }
`,
      );
      const runtime = await loadRuntime({ cwd: dir, env: {}, dotenv: false });
      try {
        const agent = runtime.agent('support');
        const events: AgentEvent[] = [];
        const r = await agent.run('Where is my order?', { onEvent: (e) => events.push(e) });
        expect(r.text).toBe('Your order 1234 ships tomorrow.');
        expect(
          events.filter((e) => e.type === 'guardrail').map((e) => e.type === 'guardrail' && [e.stage, e.guardrail, e.mode, e.passed]),
        ).toEqual([
          ['input', 'no_passwords', 'block', true],
          ['output', 'mentions_order', 'check', true],
          ['output', 'steps', 'block', true],
        ]);
        const err = await agent.run('my PASSWORD is x').catch((e: unknown) => e);
        expect(GuardrailError.isInstance(err) && err.guardrail).toBe('no_passwords');
        expect(server.requests).toHaveLength(1);
        // Live scores arrive after the run: wait for the file's line.
        const file = join(dir, '.corvid', 'scores.jsonl');
        await expect
          .poll(
            () => {
              try {
                return readFileSync(file, 'utf8');
              } catch {
                return '';
              }
            },
            { timeout: 10_000 },
          )
          .toContain(r.runId);
        const line = JSON.parse(readFileSync(file, 'utf8').trim().split('\n')[0]);
        expect(line).toMatchObject({ runId: r.runId, agent: 'support', scores: [{ scorer: 'polite', score: 0, pass: false }] });
      } finally {
        await runtime.close();
      }
    } finally {
      await server.close();
    }
  });

  it('reports a scorer that cannot be built at its config path', async () => {
    writeFileSync(
      join(dir, 'bad.yaml'),
      `agents:\n  a:\n    model: openai:gpt-4.1-mini\n    guardrails:\n      input:\n        - { type: regex, pattern: '(' }\n      tool_calls:\n        - { type: nope }\n`,
    );
    const err = await loadRuntime({ cwd: dir, configPath: 'bad.yaml', env: { OPENAI_API_KEY: 'k' }, dotenv: false }).catch(
      (e: unknown) => e,
    );
    expect(String((err as Error).message)).toContain('bad.yaml:8:19  agents.a.guardrails.tool_calls[0].type: scorer type must be one of');
    writeFileSync(
      join(dir, 'bad2.yaml'),
      `agents:\n  a:\n    model: openai:gpt-4.1-mini\n    guardrails:\n      input:\n        - { type: regex, pattern: '(' }\n`,
    );
    const err2 = await loadRuntime({ cwd: dir, configPath: 'bad2.yaml', env: { OPENAI_API_KEY: 'k' }, dotenv: false }).catch(
      (e: unknown) => e,
    );
    expect(JSON.stringify((err2 as { issues?: unknown }).issues)).toContain('agents.a.guardrails.input[0]');
    expect(String((err2 as Error).message)).toContain('regex scorer: invalid pattern');
  });
});
