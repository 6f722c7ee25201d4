// Vercel AI SDK 6: ToolLoopAgent (generate / stream) with stopWhen: stepCountIs(5), over the
// AI SDK's own MockLanguageModelV3 (from ai/test). Telemetry off (the default, also explicit).
import '../lib/env.mjs';

import { stepCountIs, tool, ToolLoopAgent } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

import { runFramework } from '../lib/harness.mjs';
import { addImpl, INSTRUCTIONS, PROMPT, TOOL_DESCRIPTION } from '../lib/task.mjs';
import { scriptedV3, v3ModelAlone } from '../lib/v3-model.mjs';

await runFramework({
  id: 'ai-sdk-agent',
  label: 'AI SDK ToolLoopAgent',
  packages: ['ai'],
  config: 'experimental_telemetry: { isEnabled: false } (the default); MockLanguageModelV3 call log cleared after each run',
  setup(state) {
    const model = new MockLanguageModelV3(scriptedV3(state));
    const add = tool({ description: TOOL_DESCRIPTION, inputSchema: z.object({ a: z.number(), b: z.number() }), execute: addImpl(state) });
    const make = (name = 'calc') =>
      new ToolLoopAgent({
        id: name,
        model,
        instructions: INSTRUCTIONS,
        tools: { add },
        stopWhen: stepCountIs(5),
        experimental_telemetry: { isEnabled: false },
      });
    const agent = make();
    return {
      async generate() {
        const r = await agent.generate({ prompt: PROMPT });
        model.doGenerateCalls.length = 0;
        return r.text;
      },
      async stream() {
        const r = await agent.stream({ prompt: PROMPT });
        let streamed = '';
        let deltas = 0;
        for await (const p of r.fullStream) {
          if (p.type === 'text-delta') {
            streamed += p.text;
            deltas++;
          } else if (p.type === 'error') throw p.error;
        }
        const text = await r.text;
        model.doStreamCalls.length = 0;
        return { text, streamed, deltas };
      },
      model: v3ModelAlone(model, () => {
        model.doGenerateCalls.length = 0;
        model.doStreamCalls.length = 0;
      }),
      createAgent: make,
    };
  },
});
