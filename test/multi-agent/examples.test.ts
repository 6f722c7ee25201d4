import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { Agent, type Runnable, tool } from '../../src/index.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { declaredTools, EXAMPLES_DIR } from '../config/example-files.js';
import { recorder } from './helpers.js';

const ENV = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test', GEMINI_API_KEY: 'g-test' };

/** Each multi-agent example, a request, and what its run must show. */
const CASES: Array<[string, string, (r: Awaited<ReturnType<Runnable['run']>>, events: ReturnType<typeof recorder>) => void]> = [
  ['handoffs', 'I was charged twice', (r) => expect(r.activeAgent).toBe('billing')],
  ['sequential', 'crows', (r) => expect(r.subRuns!.map((s) => s.id)).toEqual(['researcher', 'writer'])],
  ['parallel', 'the contract', (r) => expect(r.text).toMatch(/^## legal\n.*\n\n## finance\n.*\n\n## security\n/s)],
  ['loop', 'a haiku', (r) => expect(r.workflow).toEqual({ kind: 'loop', iterations: 1, exitReason: 'condition' })],
  [
    'orchestrator',
    'e-bikes',
    (r) =>
      expect(r.subRuns!.map((s) => `${s.id}:${s.status}`).sort()).toEqual([
        'analysis:completed',
        'competitors:completed',
        'market:completed',
        'regulation:completed',
        'summary:completed',
      ]),
  ],
  ['pipeline', 'My order 42 arrived broken', (r) => expect(r.subRuns!.map((s) => s.id)).toEqual(['extractor', 'classifier', 'reply'])],
  ['router', 'My invoice is wrong', (r, e) => expect(e.of('route')[0]).toMatchObject({ route: 'billing', matchedBy: 'keyword' })],
];

describe('multi-agent examples run', () => {
  it.each(CASES)('%s', async (dir, input, check) => {
    const file = join(EXAMPLES_DIR, dir, 'corvid.yaml');
    const tools = declaredTools(readFileSync(file, 'utf8')).map((name) =>
      tool({ name, description: name, parameters: { type: 'object' }, execute: () => 'result' }),
    );
    const runtime = await loadRuntime({ configPath: file, env: ENV, dotenv: false, tools });
    // Every LLM agent answers from a script (the loop's critic approves; triage hands over to billing).
    for (const agent of runtime.agents.values()) {
      if (!(agent instanceof Agent)) continue;
      let first = true;
      agent.setModel(
        new ScriptedModel(() => {
          if (agent.name === 'triage' && first) {
            first = false;
            return { toolCalls: [{ toolName: 'transfer_to_billing', input: {} }] };
          }
          return { text: agent.name === 'critic' ? 'APPROVED' : `${agent.name} answer` };
        }),
      );
    }
    const events = recorder();
    const r = await runtime.agent<Runnable>().run(input, { onEvent: events.onEvent });
    expect(r.text.length).toBeGreaterThan(0);
    check(r, events);
    await runtime.close();
  });
});
