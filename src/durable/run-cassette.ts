import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3GenerateResult } from '@ai-sdk/provider';

import { Agent } from '../core/agent.js';
import { DurableRunError } from '../errors/durable-run-error.js';
import { openCassette } from '../models/cassette/index.js';
import type { Message } from '../types/message.js';
import type { ModelCassette, ModelConfig } from '../types/model.js';
import type { Store } from '../types/storage/store.js';
import { TOOL_CALL_REPLAY, type ToolCallReplay, type ToolOutcome } from '../types/tool-call-replay.js';
import type { Usage } from '../types/usage.js';
import { parseRunState } from './run-state-v1.js';

/** What `cassetteFromRun` wrote. */
export interface RunCassette {
  /** The run's input (what to ask the agent to replay it). */
  input: string;
  /** Model calls recorded. */
  calls: number;
}

/**
 * Turns a stored run into a cassette at `path`: the agent runs again on the run's input, its model
 * answered by the run's stored answers in order and its tools by their stored results, while a
 * cassette records — so the cassette holds the requests the agent makes now. Runs of one LLM agent
 * (no handoffs) are supported; a session run is replayed on its own input, without the session's
 * earlier history. @throws DurableRunError when the run is unknown, of another kind, or the agent
 * now asks for more than the run answered.
 */
export async function cassetteFromRun(options: { agent: Agent; store: Store; runId: string; path: string }): Promise<RunCassette> {
  const { agent, store, runId, path } = options;
  const checkpoint = await store.checkpoints.latest(runId);
  if (checkpoint === undefined) throw new DurableRunError(`Unknown run "${runId}" in ${store.info.location}`, { kind: 'not_found', runId });
  if (agent.handoffs.length > 0)
    throw new DurableRunError(`Run "${runId}": agent "${agent.name}" has handoffs; corvid replay converts runs of a single agent`, {
      kind: 'invalid',
      runId,
    });
  const state = parseRunState(checkpoint.state, runId);
  const messages =
    checkpoint.sessionId !== undefined
      ? (await store.sessions.entries(checkpoint.sessionId)).filter((e) => e.runId === runId && e.message).map((e) => e.message!)
      : (state.messages ?? []).slice(state.baseLength ?? 0);
  const answers = messages.filter((m) => m.role === 'assistant');
  const usages = (state.timeline ?? []).map((s) => s.usage);
  const recorder = openCassette({ path, mode: 'record' });
  const tools = storedToolResults(messages);
  let calls = 0;
  const stored: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'stored-run',
    modelId: runId,
    supportedUrls: {},
    doGenerate: async () => {
      const answer = answers[calls];
      if (answer === undefined)
        throw new DurableRunError(
          `Run "${runId}" has ${answers.length} model answer(s); agent "${agent.name}" now asks for more (its requests differ from the run's)`,
          { kind: 'invalid', runId },
        );
      return generateResult(answer, usages[calls++]);
    },
    doStream: () => Promise.reject(new Error('a stored run is replayed without streaming')),
  };
  // The recorded answers' tools: their stored results, recorded into the cassette, never run.
  const replay: ToolCallReplay = {
    replay: (call, lanePath) => {
      const outcome = tools.get(call.toolCallId);
      if (outcome !== undefined) recorder.tools.record(call, lanePath, outcome);
      return outcome;
    },
    record: recorder.tools.record,
  };
  const cassette: ModelCassette = {
    wrap: (_provider, name) => Object.assign(recorder.wrap(stored, name), { [TOOL_CALL_REPLAY]: replay }),
    addSecret: (secret) => recorder.addSecret(secret),
  };
  const model = agent.options.model;
  const config: ModelConfig =
    typeof model === 'object' && !('doGenerate' in model) ? { ...model, cassette } : { provider: 'stored-run', model: runId, cassette };
  await new Agent({ ...agent.options, model: config, store: undefined }).run(state.input);
  return { input: state.input, calls };
}

function storedToolResults(messages: readonly Message[]): Map<string, ToolOutcome> {
  const out = new Map<string, ToolOutcome>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      if (part.type !== 'tool-result') continue;
      const o = part.output;
      const isError = o.type === 'error-text' || o.type === 'error-json';
      out.set(part.toolCallId, { output: 'value' in o ? o.value : o, isError });
    }
  }
  return out;
}

function generateResult(answer: Extract<Message, { role: 'assistant' }>, usage: Usage | undefined): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  for (const part of answer.content) {
    const meta = part.providerOptions ? { providerMetadata: part.providerOptions } : {};
    if (part.type === 'text' || part.type === 'reasoning') content.push({ type: part.type, text: part.text, ...meta });
    else if (part.type === 'tool-call')
      content.push({
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: JSON.stringify(part.input ?? {}),
        ...meta,
      });
  }
  const calls = content.some((c) => c.type === 'tool-call');
  return {
    content,
    finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
    usage: providerUsage(usage),
    warnings: [],
  };
}

/** A stored step's usage in the provider spec's form. */
function providerUsage(u: Usage | undefined) {
  const x = u ?? { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 0 };
  return {
    inputTokens: {
      total: x.inputTokens,
      noCache: x.inputTokens - x.cachedInputTokens,
      cacheRead: x.cachedInputTokens,
      cacheWrite: undefined,
    },
    outputTokens: { total: x.outputTokens, text: x.outputTokens - x.reasoningTokens, reasoning: x.reasoningTokens },
  };
}
