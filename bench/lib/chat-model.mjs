// A zero-latency scripted LangChain chat model (a BaseChatModel subclass), shared by the
// LangGraph and LangChain benchmarks. bindTools converts the tools to OpenAI tool definitions
// once, as ChatOpenAI does; _generate answers invoke(), _streamResponseChunks answers streaming
// (each chunk is also reported through handleLLMNewToken, as real integrations do).
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';

import { ANSWER, ANSWER_DELTAS, CALL_ARGS, CALL_IDS, nextTurn, TOOL_NAME, USAGE } from './task.mjs';

const usageMetadata = () => ({ input_tokens: USAGE.input, output_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output });

export function createChatModel(state) {
  function inspect(messages, options, turn) {
    if (turn === 0) state.seenTools = (options.tools ?? []).map((t) => ({ name: t.function.name, schema: t.function.parameters }));
    if (turn === 3) state.seenResults = messages.filter((m) => m.getType() === 'tool').map((m) => Number(m.content));
  }

  class ScriptedChatModel extends BaseChatModel {
    _llmType() {
      return 'scripted';
    }
    bindTools(tools, kwargs) {
      return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t)), ...kwargs });
    }
    async _generate(messages, options) {
      const turn = nextTurn(state);
      if (state.verify) inspect(messages, options, turn);
      const message =
        turn < 3
          ? new AIMessage({
              content: '',
              tool_calls: [{ id: CALL_IDS[turn], name: TOOL_NAME, args: JSON.parse(CALL_ARGS[turn]), type: 'tool_call' }],
              usage_metadata: usageMetadata(),
            })
          : new AIMessage({ content: ANSWER, usage_metadata: usageMetadata() });
      return { generations: [{ text: turn < 3 ? '' : ANSWER, message }] };
    }
    async *_streamResponseChunks(messages, options, runManager) {
      const turn = nextTurn(state);
      if (state.verify) inspect(messages, options, turn);
      if (turn < 3) {
        const chunk = new ChatGenerationChunk({
          text: '',
          message: new AIMessageChunk({
            content: '',
            tool_call_chunks: [{ id: CALL_IDS[turn], name: TOOL_NAME, args: CALL_ARGS[turn], index: 0, type: 'tool_call_chunk' }],
            usage_metadata: usageMetadata(),
          }),
        });
        yield chunk;
        await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk });
        return;
      }
      for (let i = 0; i < ANSWER_DELTAS.length; i++) {
        const delta = ANSWER_DELTAS[i];
        const last = i === ANSWER_DELTAS.length - 1;
        const chunk = new ChatGenerationChunk({
          text: delta,
          message: new AIMessageChunk(last ? { content: delta, usage_metadata: usageMetadata() } : { content: delta }),
        });
        yield chunk;
        await runManager?.handleLLMNewToken(delta, undefined, undefined, undefined, undefined, { chunk });
      }
    }
  }
  return new ScriptedChatModel({});
}

/**
 * Consumes `graph.stream(input, { streamMode: ['updates', 'messages'] })`: counts the model's text
 * deltas ('messages') and takes the final answer from the last node update ('updates').
 */
export async function consumeGraphStream(stream) {
  let streamed = '';
  let deltas = 0;
  let text;
  for await (const [mode, payload] of stream) {
    if (mode === 'messages') {
      const msg = payload[0];
      if (msg.getType() === 'ai' && typeof msg.content === 'string' && msg.content.length > 0) {
        streamed += msg.content;
        deltas++;
      }
    } else if (mode === 'updates') {
      for (const update of Object.values(payload)) {
        const last = update?.messages?.at?.(-1);
        if (last && last.getType() === 'ai') text = last.content;
      }
    }
  }
  return { text, streamed, deltas };
}

/** The chat model alone: the 4 calls of one run (_generate / _streamResponseChunks read to the end). */
export function chatModelAlone(model) {
  return {
    async generate() {
      for (let i = 0; i < 4; i++) await model._generate([], {});
    },
    async stream() {
      for (let i = 0; i < 4; i++) for await (const chunk of model._streamResponseChunks([], {})) void chunk;
    },
  };
}
