import type { LanguageModelV3CallOptions, LanguageModelV3Content, SharedV3ProviderMetadata, SharedV3Warning } from '@ai-sdk/provider';

import type { EventSink } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import type { FinishReason } from '../types/result.js';
import { fromProviderUsage, type Usage } from '../types/usage.js';
import { callWithRetry, type RetryListener } from './call-model.js';
import type { PreparedCall } from './tool-executor.js';

type AssistantContent = Extract<Message, { role: 'assistant' }>['content'];

/** What one model call produced, ready to append to the conversation. */
export interface ModelStepOutput {
  content: AssistantContent;
  /** Client-side tool calls to execute. */
  calls: PreparedCall[];
  text: string;
  reasoning: string;
  finishReason: FinishReason;
  usage: Usage;
  /** What the provider said it ignored or changed in the request (unsupported settings …). */
  warnings?: SharedV3Warning[];
}

/** Where stream deltas go. */
export interface StepEmitter {
  sink: EventSink;
  runId: string;
  agent: string;
  path: readonly string[];
  step: number;
}

/** The run's side of a model call: its cancellation and who hears about retries. */
export interface StepCallOptions {
  signal: AbortSignal | undefined;
  onRetry?: RetryListener;
}

/** One non-streaming model call (`doGenerate`). */
export async function generateStep(m: ResolvedModel, options: LanguageModelV3CallOptions, how: StepCallOptions): Promise<ModelStepOutput> {
  const res = await callWithRetry(m, options, how.signal, (o) => m.model.doGenerate(o), how.onRetry);
  const out: ModelStepOutput = {
    content: [],
    calls: [],
    text: '',
    reasoning: '',
    finishReason: res.finishReason?.unified ?? 'other',
    usage: fromProviderUsage(res.usage),
  };
  if (res.warnings?.length) out.warnings = res.warnings;
  for (const part of res.content) addContent(out, part);
  return out;
}

/** Adds one part of a model response to the step output. */
export function addContent(out: ModelStepOutput, part: LanguageModelV3Content): void {
  switch (part.type) {
    case 'text':
      if (part.text.length === 0) return;
      out.text += part.text;
      out.content.push(withOptions({ type: 'text', text: part.text }, part.providerMetadata));
      return;
    case 'reasoning':
      out.reasoning += part.text;
      out.content.push(withOptions({ type: 'reasoning', text: part.text }, part.providerMetadata));
      return;
    case 'tool-call':
      addToolCall(out, part.toolCallId, part.toolName, part.input, part.providerExecuted, part.providerMetadata);
      return;
    case 'tool-result':
      out.content.push({
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: part.isError ? { type: 'error-json', value: part.result } : { type: 'json', value: part.result },
      });
      return;
    case 'file':
    case 'source':
    case 'tool-approval-request':
      return;
    default: {
      const never: never = part;
      return never;
    }
  }
}

/** Adds a tool call (its JSON arguments parsed; invalid JSON is kept and reported to the model). */
export function addToolCall(
  out: ModelStepOutput,
  toolCallId: string,
  toolName: string,
  rawInput: string,
  providerExecuted: boolean | undefined,
  meta: SharedV3ProviderMetadata | undefined,
): void {
  let input: unknown;
  let parseError: string | undefined;
  if (rawInput === '' || rawInput === undefined) input = {};
  else {
    try {
      input = JSON.parse(rawInput);
    } catch (err) {
      input = rawInput;
      parseError = `Invalid JSON in the arguments of tool "${toolName}": ${(err as Error).message}. Send a JSON object.`;
    }
  }
  out.content.push(withOptions({ type: 'tool-call', toolCallId, toolName, input, providerExecuted }, meta));
  if (!providerExecuted) out.calls.push(parseError ? { toolCallId, toolName, input, parseError } : { toolCallId, toolName, input });
}

/** Sets `providerOptions` from a part's provider metadata (carried back to the provider). */
export function withOptions<T extends object>(part: T, meta: SharedV3ProviderMetadata | undefined): T {
  if (meta) (part as { providerOptions?: SharedV3ProviderMetadata }).providerOptions = meta;
  return part;
}
