// A zero-latency scripted model speaking the AI SDK provider specification (LanguageModelV3),
// used by Corvid directly and, wrapped in the AI SDK's own MockLanguageModelV3, by the AI SDK.
// Each call builds its response afresh, as a provider would.
import { ANSWER, ANSWER_DELTAS, CALL_ARGS, CALL_IDS, nextTurn, TOOL_NAME, USAGE } from './task.mjs';

function usage() {
  return {
    inputTokens: { total: USAGE.input, noCache: USAGE.input, cacheRead: 0, cacheWrite: undefined },
    outputTokens: { total: USAGE.output, text: USAGE.output, reasoning: 0 },
  };
}

function inspect(state, options, turn) {
  if (turn === 0) state.seenTools = (options.tools ?? []).map((t) => ({ name: t.name, schema: t.inputSchema }));
  if (turn === 3) {
    state.seenResults = options.prompt
      .filter((m) => m.role === 'tool')
      .flatMap((m) => m.content.filter((c) => c.type === 'tool-result').map((c) => Number(c.output.value)));
  }
}

/** `doGenerate` / `doStream` implementations answering from the benchmark script. */
export function scriptedV3(state) {
  return {
    async doGenerate(options) {
      const turn = nextTurn(state);
      if (state.verify) inspect(state, options, turn);
      const content =
        turn < 3
          ? [{ type: 'tool-call', toolCallId: CALL_IDS[turn], toolName: TOOL_NAME, input: CALL_ARGS[turn] }]
          : [{ type: 'text', text: ANSWER }];
      return { content, finishReason: { unified: turn < 3 ? 'tool-calls' : 'stop', raw: undefined }, usage: usage(), warnings: [] };
    },
    async doStream(options) {
      const turn = nextTurn(state);
      if (state.verify) inspect(state, options, turn);
      const parts = [{ type: 'stream-start', warnings: [] }];
      if (turn < 3) {
        const id = CALL_IDS[turn];
        parts.push({ type: 'tool-input-start', id, toolName: TOOL_NAME });
        parts.push({ type: 'tool-input-delta', id, delta: CALL_ARGS[turn] });
        parts.push({ type: 'tool-input-end', id });
        parts.push({ type: 'tool-call', toolCallId: id, toolName: TOOL_NAME, input: CALL_ARGS[turn] });
      } else {
        parts.push({ type: 'text-start', id: 't0' });
        for (const delta of ANSWER_DELTAS) parts.push({ type: 'text-delta', id: 't0', delta });
        parts.push({ type: 'text-end', id: 't0' });
      }
      parts.push({ type: 'finish', finishReason: { unified: turn < 3 ? 'tool-calls' : 'stop', raw: undefined }, usage: usage() });
      const stream = new ReadableStream({
        start(controller) {
          for (const p of parts) controller.enqueue(p);
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** The model alone, as the frameworks call it: the 4 calls of one run, streams read to the end. */
export function v3ModelAlone(model, afterRun) {
  const options = { prompt: [] };
  return {
    async generate() {
      for (let i = 0; i < 4; i++) await model.doGenerate(options);
      afterRun?.();
    },
    async stream() {
      for (let i = 0; i < 4; i++) {
        const { stream } = await model.doStream(options);
        const reader = stream.getReader();
        while (!(await reader.read()).done);
        reader.releaseLock();
      }
      afterRun?.();
    },
  };
}
