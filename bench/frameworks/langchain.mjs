// LangChain.js v1: createAgent (a LangGraph graph with middleware support) over a BaseChatModel
// subclass. invoke() for non-streaming; stream() with streamMode ['updates', 'messages'].
// No checkpointer, no middleware. LangSmith tracing off (LANGSMITH_TRACING=false, no API key).
import '../lib/env.mjs';

import { createAgent, tool } from 'langchain';
import { z } from 'zod';

import { chatModelAlone, consumeGraphStream, createChatModel } from '../lib/chat-model.mjs';
import { runFramework } from '../lib/harness.mjs';
import { addImpl, INSTRUCTIONS, PROMPT, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/task.mjs';

await runFramework({
  id: 'langchain',
  label: 'LangChain createAgent',
  packages: ['langchain', '@langchain/core'],
  config:
    "LangSmith tracing off (LANGSMITH_TRACING=false, no API key); no checkpointer, no middleware; stream: streamMode ['updates', 'messages']",
  setup(state) {
    const model = createChatModel(state);
    const impl = addImpl(state);
    const add = tool(async (input) => impl(input), {
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const make = (name) => createAgent({ model, tools: [add], systemPrompt: INSTRUCTIONS, name });
    const agent = make('calc');
    const input = () => ({ messages: [{ role: 'user', content: PROMPT }] });
    return {
      async generate() {
        const r = await agent.invoke(input());
        return r.messages.at(-1).content;
      },
      async stream() {
        return consumeGraphStream(await agent.stream(input(), { streamMode: ['updates', 'messages'] }));
      },
      model: chatModelAlone(model),
      createAgent: make,
    };
  },
});
