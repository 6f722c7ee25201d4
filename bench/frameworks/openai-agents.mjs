// OpenAI Agents SDK for JS: Runner.run(agent, input[, { stream: true }]) over a custom `Model`
// (getResponse / getStreamedResponse). Tracing off: setTracingDisabled(true), a Runner created
// with tracingDisabled: true, and OPENAI_AGENTS_DISABLE_TRACING=1.
import '../lib/env.mjs';

import { Agent, Runner, setTracingDisabled, tool, Usage } from '@openai/agents';
import { z } from 'zod';

import { runFramework } from '../lib/harness.mjs';
import {
  addImpl,
  ANSWER,
  ANSWER_DELTAS,
  CALL_ARGS,
  CALL_IDS,
  INSTRUCTIONS,
  nextTurn,
  PROMPT,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USAGE,
} from '../lib/task.mjs';

setTracingDisabled(true);

function output(turn) {
  if (turn < 3) {
    return [
      { type: 'function_call', id: `fc_${turn}`, callId: CALL_IDS[turn], name: TOOL_NAME, arguments: CALL_ARGS[turn], status: 'completed' },
    ];
  }
  return [{ type: 'message', id: 'msg_0', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: ANSWER }] }];
}

const usageData = () => ({ requests: 1, inputTokens: USAGE.input, outputTokens: USAGE.output, totalTokens: USAGE.input + USAGE.output });

function resultValue(item) {
  const o = item.output;
  if (typeof o === 'string') return Number(o);
  if (o && typeof o === 'object' && 'text' in o) return Number(o.text);
  return Number(o);
}

class ScriptedModel {
  constructor(state) {
    this.state = state;
  }
  inspect(request, turn) {
    if (turn === 0) this.state.seenTools = request.tools.map((t) => ({ name: t.name, schema: t.parameters }));
    if (turn === 3) {
      this.state.seenResults = request.input.filter((i) => typeof i === 'object' && i.type === 'function_call_result').map(resultValue);
    }
  }
  async getResponse(request) {
    const turn = nextTurn(this.state);
    if (this.state.verify) this.inspect(request, turn);
    return { usage: new Usage(usageData()), output: output(turn), responseId: `resp_${turn}` };
  }
  async *getStreamedResponse(request) {
    const turn = nextTurn(this.state);
    if (this.state.verify) this.inspect(request, turn);
    yield { type: 'response_started' };
    if (turn === 3) for (const delta of ANSWER_DELTAS) yield { type: 'output_text_delta', delta };
    yield { type: 'response_done', response: { id: `resp_${turn}`, usage: usageData(), output: output(turn) } };
  }
}

await runFramework({
  id: 'openai-agents',
  label: 'OpenAI Agents SDK',
  packages: ['@openai/agents'],
  config: 'tracing off: setTracingDisabled(true) + Runner({ tracingDisabled: true }) + OPENAI_AGENTS_DISABLE_TRACING=1',
  setup(state) {
    const model = new ScriptedModel(state);
    const add = tool({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: addImpl(state),
    });
    const runner = new Runner({ tracingDisabled: true });
    const make = (name) => new Agent({ name, instructions: INSTRUCTIONS, model, tools: [add] });
    const agent = make('calc');
    return {
      async generate() {
        const r = await runner.run(agent, PROMPT);
        return r.finalOutput;
      },
      async stream() {
        const r = await runner.run(agent, PROMPT, { stream: true });
        let streamed = '';
        let deltas = 0;
        for await (const e of r) {
          if (e.type === 'raw_model_stream_event' && e.data.type === 'output_text_delta') {
            streamed += e.data.delta;
            deltas++;
          }
        }
        await r.completed;
        if (r.error) throw r.error;
        return { text: r.finalOutput, streamed, deltas };
      },
      model: {
        async generate() {
          for (let i = 0; i < 4; i++) await model.getResponse({});
        },
        async stream() {
          for (let i = 0; i < 4; i++) for await (const e of model.getStreamedResponse({})) void e;
        },
      },
      createAgent: make,
    };
  },
});
