import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool } from '../../src/index.js';
import { startFakeLlmServer } from '../support/fake-llm-server.js';

const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
const cfgs = (url: string) => ({
  responses: { provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'test', baseURL: url + '/v1' },
  chat: { provider: 'openai', api: 'chat' as const, model: 'gpt-4.1-mini', apiKey: 'test', baseURL: url + '/v1' },
  anthropic: { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'test', baseURL: url + '/v1' },
  google: { provider: 'google', model: 'gemini-2.5-flash', apiKey: 'test', baseURL: url + '/v1beta' },
  compat: { provider: 'openai-compatible', model: 'm', baseURL: url + '/v1' },
  ollama: { provider: 'ollama', model: 'llama3.2', baseURL: url + '/v1' },
});
describe('smoke', () => {
  for (const k of ['responses', 'chat', 'anthropic', 'google', 'compat', 'ollama'] as const) {
    for (const stream of [false, true]) {
      it(`${k} ${stream}`, async () => {
        const s = await startFakeLlmServer([{ reasoning: 'think', toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.', usage: { input: 20, output: 7, cachedInput: 4, reasoning: 2 } }]);
        try {
          const agent = new Agent({ name: 'a', instructions: 'sys', model: (cfgs(s.url) as any)[k], tools: [add] });
          const r = stream ? await (async () => { const st = agent.stream('add'); for await (const _ of st); return st.result; })() : await agent.run('add');
          console.log(k, stream, JSON.stringify({ text: r.text, steps: r.steps.map((x) => [x.reasoning, x.toolCalls, x.toolResults.map((t) => t.output), x.usage]) }));
          console.log(JSON.stringify(s.requests[1].body).slice(0, 1500));
        } finally { await s.close(); }
      });
    }
  }
});
