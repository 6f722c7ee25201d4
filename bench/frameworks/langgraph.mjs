// LangGraph.js: the prebuilt createReactAgent over a BaseChatModel subclass. invoke() for
// non-streaming; stream() with streamMode ['updates', 'messages'] (model tokens + each step's
// messages, like the other frameworks' event streams). No checkpointer. LangSmith tracing off
// (LANGSMITH_TRACING=false, LANGCHAIN_TRACING_V2=false; it is off by default without a key).
import '../lib/env.mjs';

import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';

import { chatModelAlone, consumeGraphStream, createChatModel } from '../lib/chat-model.mjs';
import { runFramework } from '../lib/harness.mjs';
import { addImpl, INSTRUCTIONS, PROMPT, TOOL_DESCRIPTION, TOOL_NAME } from '../lib/task.mjs';

await runFramework({
  id: 'langgraph',
  label: 'LangGraph createReactAgent',
  packages: ['@langchain/langgraph', '@langchain/core'],
  config: "LangSmith tracing off (LANGSMITH_TRACING=false, no API key); no checkpointer; stream: streamMode ['updates', 'messages']",
  setup(state) {
    const llm = createChatModel(state);
    const impl = addImpl(state);
    const add = tool(async (input) => impl(input), {
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      schema: z.object({ a: z.number(), b: z.number() }),
    });
    const make = (name) => createReactAgent({ llm, tools: [add], prompt: INSTRUCTIONS, name });
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
      model: chatModelAlone(llm),
      createAgent: make,
    };
  },
});
