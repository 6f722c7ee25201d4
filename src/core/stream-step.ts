import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type SharedV3ProviderMetadata,
} from '@ai-sdk/provider';
import { ProviderError } from '../errors/provider-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { deepestMessage, networkCause } from '../errors/error-causes.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import { fromProviderUsage } from '../types/usage.js';
import { linkAbort } from './abort-link.js';
import { callWithRetry, StreamBrokeOff, type RetryListener } from './call-model.js';
import { addContent, addToolCall, withOptions, type ModelStepOutput, type StepCallOptions, type StepEmitter } from './model-step.js';

/**
 * One streaming model call (`doStream`): emits text and reasoning deltas as they arrive.
 *
 * Until something reaches the caller (a text or reasoning delta, a tool call), a stream that
 * breaks off, stalls longer than the model's timeout, reports an error or ends early is retried
 * with the model's retry policy, like a failed request. After that, the step fails with a
 * `stream_interrupted` ProviderError saying what happened ("the connection was closed after 12
 * events", "no data for 120000 ms") and is not retried: the caller has seen part of an answer.
 */
export function streamStep(m: ResolvedModel, options: LanguageModelV3CallOptions, how: StepCallOptions & { emitter?: StepEmitter }): Promise<ModelStepOutput> {
  const { signal, emitter, onRetry } = how;
  return callWithRetry(
    m,
    options,
    signal,
    async (o, attempt) => {
      let res: LanguageModelV3StreamResult;
      try {
        res = await m.model.doStream(o);
      } catch (err) {
        throw brokenBeforeOutput(err);
      }
      attempt.responded();
      return readStream(m, res, signal, emitter, attempt.number);
    },
    onRetry,
  );
}

type TextPart = { type: 'text'; text: string; providerOptions?: SharedV3ProviderMetadata };
type ReasoningPart = { type: 'reasoning'; text: string; providerOptions?: SharedV3ProviderMetadata };

/** Reads one response stream into a step output (one attempt). */
async function readStream(
  m: ResolvedModel,
  res: LanguageModelV3StreamResult,
  signal: AbortSignal | undefined,
  emitter: StepEmitter | undefined,
  attempts: number,
): Promise<ModelStepOutput> {
  const reader = res.stream.getReader();
  // A stall or the run's cancellation stops reading at once: cancelling the reader cancels the
  // response body, which closes the provider's connection (the model stops generating).
  const stopReading = (reason?: unknown) => void reader.cancel(reason).catch(() => {});
  const unlink = linkAbort(signal, { abort: stopReading });
  const out: ModelStepOutput = { content: [], calls: [], text: '', reasoning: '', finishReason: 'other', usage: fromProviderUsage(undefined) };
  // Text and reasoning parts take their place in `content` when they start, so the order the
  // model produced them in is kept (a tool call can arrive before a part's end marker).
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
  /** Something reached the caller: from here on a failure is not retried. */
  let visible = false;
  /** Parts received from the provider (for error messages). */
  let events = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer per attempt that re-arms itself from the time of the last chunk (no timer churn per chunk).
  let lastData = 0;
  const check = () => {
    const idle = performance.now() - lastData;
    if (idle < m.timeoutMs) {
      timer = setTimeout(check, m.timeoutMs - idle);
      return;
    }
    stalled = true;
    stopReading(new Error('stream stalled'));
  };
  const arm = () => {
    if (m.timeoutMs <= 0) return;
    lastData = performance.now();
    if (!timer) timer = setTimeout(check, m.timeoutMs);
  };
  const noData = () => `no data for ${m.timeoutMs} ms`;
  const broken = (message: string, cause?: unknown): Error =>
    visible
      ? new ProviderError({ kind: 'stream_interrupted', provider: m.provider, model: m.modelId, providerMessage: message, attempts, cause })
      : new StreamBrokeOff(message, { cause });
  try {
    arm();
    for (;;) {
      let chunk: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw new RunAbortedError(undefined, { cause: err });
        throw broken(stalled ? noData() : describeBreak(err, events), err);
      }
      if (chunk.done) break;
      arm();
      const part = chunk.value;
      if (part.type !== 'stream-start') events++;
      switch (part.type) {
        case 'stream-start':
          if (part.warnings.length > 0) out.warnings = part.warnings;
          break;
        case 'text-start':
          openText(part.id, part.providerMetadata);
          break;
        case 'text-delta': {
          const t = texts.get(part.id) ?? openText(part.id, undefined);
          t.text += part.delta;
          if (part.providerMetadata) t.providerOptions = part.providerMetadata;
          out.text += part.delta;
          if (part.delta) {
            visible = true;
            if (emitter)
              emitter.sink({ type: 'text_delta', runId: emitter.runId, agent: emitter.agent, path: emitter.path, step: emitter.step, delta: part.delta });
          }
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
          if (part.delta) {
            visible = true;
            if (emitter)
              emitter.sink({ type: 'reasoning_delta', runId: emitter.runId, agent: emitter.agent, path: emitter.path, step: emitter.step, delta: part.delta });
          }
          break;
        }
        case 'reasoning-end': {
          const r = reasonings.get(part.id);
          if (r && part.providerMetadata) r.providerOptions = { ...r.providerOptions, ...part.providerMetadata };
          reasonings.delete(part.id);
          break;
        }
        case 'tool-call':
          visible = true;
          addToolCall(out, part.toolCallId, part.toolName, part.input, part.providerExecuted, part.providerMetadata);
          break;
        case 'tool-result':
          visible = true;
          addContent(out, part);
          break;
        case 'finish':
          finished = true;
          out.finishReason = part.finishReason?.unified ?? 'other';
          out.usage = fromProviderUsage(part.usage);
          break;
        case 'error':
          stopReading();
          // Before any output, an error event (an overloaded server answering 200 and then an
          // error, as Gemini and OpenAI-compatible servers do) is retried like a failed request.
          if (!visible) throw streamErrorAsCallError(part.error);
          throw broken(errorText(part.error), part.error);
        case 'tool-input-start':
        case 'tool-input-delta':
        case 'tool-input-end':
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
    unlink();
    reader.releaseLock();
  }
  if (signal?.aborted) throw new RunAbortedError();
  // Cancelling the reader on a stall ends the stream quietly; report it as the stall it was.
  if (stalled && !finished) throw broken(noData());
  // Parts whose end marker never came (some providers omit it) are kept where they started; empty texts are dropped.
  if (out.content.some((c) => c.type === 'text' && c.text.length === 0)) {
    out.content = out.content.filter((c) => c.type !== 'text' || c.text.length > 0);
  }
  if (!finished) throw broken(`the response stream ended after ${plural(events, 'event')} before the model finished`);
  return out;
}

/** What broke a stream, in words: a closed connection, or the reading error itself. */
function describeBreak(err: unknown, events: number): string {
  if (networkCause(err)) return `the connection was closed after ${plural(events, 'event')}`;
  // The AI SDK wraps read errors as "Failed to process successful response": say what is under it.
  return `the response stream could not be read after ${plural(events, 'event')}: ${deepestMessage(err)}`;
}

/**
 * Some providers read the stream up to the first output before `doStream` resolves (to report an
 * early error event as a failed call): a stream that breaks off there is retried like one that
 * breaks off later, before any output. Other errors are classified as they are.
 */
function brokenBeforeOutput(err: unknown): unknown {
  if (!APICallError.isInstance(err) || err.statusCode === undefined || err.statusCode < 200 || err.statusCode >= 300) return err;
  if (networkCause(err)) return new StreamBrokeOff('the connection was closed before any output arrived', { cause: err });
  return new StreamBrokeOff(`the response stream could not be read: ${deepestMessage(err)}`, { cause: err });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** An in-stream error event as the failed call it is (classified and retried by `callWithRetry`). */
function streamErrorAsCallError(error: unknown): Error {
  if (error instanceof Error) return error;
  const code = (error as { code?: unknown } | undefined)?.code ?? (error as { error?: { code?: unknown } } | undefined)?.error?.code;
  return new APICallError({
    message: errorText(error),
    url: '',
    requestBodyValues: undefined,
    statusCode: typeof code === 'number' && code >= 400 && code < 600 ? code : undefined,
    responseBody: JSON.stringify(error),
    isRetryable: true,
    data: error,
  });
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
