// Corvid: Agent.run() / Agent.stream() over an in-process LanguageModelV3 (the same script
// the AI SDK gets). Nothing to turn off: Corvid has no tracing or telemetry in the loop.
import '../lib/env.mjs';

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { z } from 'zod';

import { runFramework } from '../lib/harness.mjs';
import { addImpl, INSTRUCTIONS, PROMPT, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/task.mjs';
import { scriptedV3, v3ModelAlone } from '../lib/v3-model.mjs';

// CORVID_DIST=/path/to/a/dist measures another build (e.g. a scratch copy with a prototype fix).
const dist = process.env.CORVID_DIST ? pathToFileURL(join(process.env.CORVID_DIST, 'index.js')).href : '../../dist/index.js';
const { Agent, tool } = await import(dist);

await runFramework({
  id: 'corvid',
  label: 'Corvid',
  packages: ['corvid'],
  config: `defaults (no tracing or telemetry exists); model: a plain LanguageModelV3 object${process.env.CORVID_DIST ? `; build: ${process.env.CORVID_DIST}` : ''}`,
  setup(state) {
    const model = { specificationVersion: 'v3', provider: 'bench', modelId: 'scripted', supportedUrls: {}, ...scriptedV3(state) };
    const add = tool({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      input: z.object({ a: z.number(), b: z.number() }),
      execute: addImpl(state),
    });
    const agent = new Agent({ name: 'calc', instructions: INSTRUCTIONS, model, tools: [add] });
    return {
      async generate() {
        return (await agent.run(PROMPT)).text;
      },
      async stream() {
        const s = agent.stream(PROMPT);
        let streamed = '';
        let deltas = 0;
        for await (const e of s) {
          if (e.type === 'text_delta') {
            streamed += e.delta;
            deltas++;
          }
        }
        const r = await s.result;
        return { text: r.text, streamed, deltas };
      },
      model: v3ModelAlone(model),
      createAgent(name) {
        return new Agent({ name, instructions: INSTRUCTIONS, model, tools: [add] });
      },
    };
  },
});
