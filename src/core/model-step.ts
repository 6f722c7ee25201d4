import { CancelSource, type RunSignal } from './cancel-source.js';
import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import { ProviderError } from '../errors/provider-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { ResolvedModel } from '../models/resolved-model.js';
import type { EventSink } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { FinishReason } from '../types/result.js';
import { fromProviderUsage, type Usage } from '../types/usage.js';
import { linkAbort } from './abort-link.js';
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
}

/** Where stream deltas go. */
export interface StepEmitter {
  sink: EventSink;
  runId: string;
  agent: string;
  path: readonly string[];
  step: number;
}

/** One non-streaming model call (`doGenerate`). */
export async function generateStep(
  m: ResolvedModel,
  options: LanguageModelV3CallOptions,
  signal: RunSignal | undefined,
  onRetry?: RetryListener,
): Promise<ModelStepOutput> {
  const res = await callWithRetry(m, options, signal, (o) => m.model.doGenerate(o), onRetry);
  const out: ModelStepOutput = {
    content: [],
    calls: [],
    text: '',
    reasoning: '',
    finishReason: res.finishReason?.unified ?? 'other',
    usage: fromProviderUsage(res.usage),
  };
  for (const part of res.content) addContent(out, part);
  return out;
}

function addContent(out: ModelStepOutput, part: LanguageModelV3Content): void {
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

function addToolCall(
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

function withOptions<T extends object>(part: T, meta: SharedV3ProviderMetadata | undefined): T {
  if (meta) (part as { providerOptions?: SharedV3ProviderMetadata }).providerOptions = meta;
  return part;
}

/**
 * One streaming model call (`doStream`): emits text and reasoning deltas as they arrive.
 * A stream that stalls longer than the model's timeout, reports an error or ends without
 * `finish` fails the step with a ProviderError.
 */
export async function streamStep(
  m: ResolvedModel,
  options: LanguageModelV3CallOptions,
  signal: RunSignal | undefined,
  emitter: StepEmitter | undefined,
  onRetry?: RetryListener,
): Promise<ModelStepOutput> {
  // Aborted by a stall or with the run's signal; an AbortSignal is made only if the call needs one.
  const stall = new CancelSource();
  const unlink = linkAbort(signal, stall);
  const combined = stall;
  let opened: Awaited<ReturnType<typeof readStreamHead>>;
  try {
    opened = await callWithRetry(m, options, combined, (o) => m.model.doStream(o).then(readStreamHead), onRetry);
  } catch (err) {
    unlink();
    throw err;
  }
  const { reader, head } = opened;
  // A stall or the run's cancellation stops reading at once: cancelling the reader cancels the
  // response body, which closes the provider's connection (the model stops generating).
  const stopReading = stall.onAbort(() => void reader.cancel(stall.reason).catch(() => {}));
  let headIndex = 0;
  const out: ModelStepOutput = { content: [], calls: [], text: '', reasoning: '', finishReason: 'other', usage: fromProviderUsage(undefined) };
  // Text and reasoning parts take their place in `content` when they start, so the order the
  // model produced them in is kept (a tool call can arrive before a part's end marker).
  type TextPart = { type: 'text'; text: string; providerOptions?: SharedV3ProviderMetadata };
  type ReasoningPart = { type: 'reasoning'; text: string; providerOptions?: SharedV3ProviderMetadata };
  const texts = new Map<string, TextPart>();
  const reasonings = new Map<string, ReasoningPart>();
  const openText = (id: string, meta: SharedV3ProviderMetadata | undefined) => {
    const t: TextPart = withOptions({ type: 'text', text: '' }, meta);
    texts.set(id, t);
    out.content.push(t);
    return t;
  };
  const openReasoning = (id: string, meta: SharedV3ProviderMetadata | undefined) => {
    const r: ReasoningPart = withOptions({ type: 'reasoning', text: '' }, meta);
    reasonings.set(id, r);
    out.content.push(r);
    return r;
  };
  let finished = false;
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer per step that re-arms itself from the time of the last chunk (no timer churn per chunk).
  let lastData = 0;
  const check = () => {
    const idle = performance.now() - lastData;
    if (idle < m.timeoutMs) {
      timer = setTimeout(check, m.timeoutMs - idle);
      return;
    }
    stalled = true;
    stall.abort(new Error('stream stalled'));
  };
  const arm = () => {
    if (m.timeoutMs <= 0) return;
    lastData = performance.now();
    if (!timer) timer = setTimeout(check, m.timeoutMs);
  };
  const fail = (message: string, cause?: unknown) =>
    new ProviderError({ kind: 'stream_interrupted', provider: m.provider, model: m.modelId, providerMessage: message, cause });
  try {
    arm();
    for (;;) {
      let chunk: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        chunk = headIndex < head.length ? { done: false, value: head[headIndex++] } : await reader.read();
      } catch (err) {
        if (signal?.aborted) throw new RunAbortedError(undefined, { cause: err });
        if (stalled) throw fail(`no data for ${m.timeoutMs} ms`, err);
        throw fail(`the response stream broke off: ${err instanceof Error ? err.message : String(err)}`, err);
      }
      if (chunk.done) break;
      arm();
      const part = chunk.value;
      switch (part.type) {
        case 'text-start':
          openText(part.id, part.providerMetadata);
          break;
        case 'text-delta': {
          const t = texts.get(part.id) ?? openText(part.id, undefined);
          t.text += part.delta;
          if (part.providerMetadata) t.providerOptions = part.providerMetadata;
          out.text += part.delta;
          if (emitter && part.delta)
            emitter.sink({ type: 'text_delta', runId: emitter.runId, agent: emitter.agent, path: emitter.path, step: emitter.step, delta: part.delta });
          break;
        }
        case 'text-end': {
          const t = texts.get(part.id);
          if (t && part.providerMetadata) t.providerOptions = part.providerMetadata;
          texts.delete(part.id);
          break;
        }
        case 'reasoning-start':
          openReasoning(part.id, part.providerMetadata);
          break;
        case 'reasoning-delta': {
          const r = reasonings.get(part.id) ?? openReasoning(part.id, undefined);
          r.text += part.delta;
          if (part.providerMetadata) r.providerOptions = { ...r.providerOptions, ...part.providerMetadata };
          out.reasoning += part.delta;
          if (emitter && part.delta)
            emitter.sink({ type: 'reasoning_delta', runId: emitter.runId, agent: emitter.agent, path: emitter.path, step: emitter.step, delta: part.delta });
          break;
        }
        case 'reasoning-end': {
          const r = reasonings.get(part.id);
          if (r && part.providerMetadata) r.providerOptions = { ...r.providerOptions, ...part.providerMetadata };
          reasonings.delete(part.id);
          break;
        }
        case 'tool-call':
          addToolCall(out, part.toolCallId, part.toolName, part.input, part.providerExecuted, part.providerMetadata);
          break;
        case 'tool-result':
          addContent(out, part);
          break;
        case 'finish':
          finished = true;
          out.finishReason = part.finishReason?.unified ?? 'other';
          out.usage = fromProviderUsage(part.usage);
          break;
        case 'error':
          throw fail(errorText(part.error), part.error);
        case 'tool-input-start':
        case 'tool-input-delta':
        case 'tool-input-end':
        case 'stream-start':
        case 'response-metadata':
        case 'raw':
        case 'file':
        case 'source':
        case 'tool-approval-request':
          break;
        default: {
          const never: never = part;
          void never;
        }
      }
    }
  } finally {
    if (timer) clearTimeout(timer);
    stopReading();
    unlink();
    reader.releaseLock();
  }
  if (signal?.aborted) throw new RunAbortedError();
  // Cancelling the reader on a stall ends the stream quietly; report it as the stall it was.
  if (stalled && !finished) throw fail(`no data for ${m.timeoutMs} ms`);
  // Parts whose end marker never came (some providers omit it) are kept where they started; empty texts are dropped.
  if (out.content.some((c) => c.type === 'text' && c.text.length === 0)) {
    out.content = out.content.filter((c) => c.type !== 'text' || c.text.length > 0);
  }
  if (!finished) throw fail('the response stream ended before the model finished');
  return out;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const e = error as { message?: string; error?: { message?: string } };
    if (e.error?.message) return e.error.message;
    if (e.message) return e.message;
    return JSON.stringify(error);
  }
  return String(error);
}

const PREAMBLE = new Set<LanguageModelV3StreamPart['type']>(['stream-start', 'response-metadata', 'raw']);

/**
 * Reads a stream up to its first real part. An error the provider reports before any output
 * (an overloaded server answering 200 and then an error event, as Gemini and OpenAI-compatible
 * servers do) is thrown like a failed HTTP call, so `callWithRetry` retries it. Returns the
 * reader and the parts already read, which the caller consumes first (no extra stream layer).
 */
async function readStreamHead(
  res: LanguageModelV3StreamResult,
): Promise<{ reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>; head: LanguageModelV3StreamPart[] }> {
  const reader = res.stream.getReader();
  const head: LanguageModelV3StreamPart[] = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    const part = r.value;
    if (part.type === 'error') {
      reader.cancel().catch(() => {});
      const error = part.error;
      if (error instanceof Error) throw error;
      const code = (error as { code?: unknown; error?: { code?: unknown } } | undefined)?.code ?? (error as { error?: { code?: unknown } })?.error?.code;
      throw new APICallError({
        message: errorText(error),
        url: '',
        requestBodyValues: undefined,
        statusCode: typeof code === 'number' && code >= 400 && code < 600 ? code : undefined,
        responseBody: JSON.stringify(error),
        isRetryable: true,
        data: error,
      });
    }
    head.push(part);
    if (!PREAMBLE.has(part.type)) break;
  }
  return { reader, head };
}
