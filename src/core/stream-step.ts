import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
} from '@ai-sdk/provider';

import { deepestMessage, networkCause } from '../errors/error-causes.js';
import { ProviderError } from '../errors/provider-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { ResolvedModel } from '../types/resolved-model.js';
import { linkAbort } from './abort-link.js';
import { callWithRetry, StreamBrokeOff } from './call-model.js';
import type { ModelStepOutput, StepCallOptions, StepEmitter } from './model-step.js';
import { StreamParts } from './stream-parts.js';

/**
 * One streaming model call (`doStream`): emits text and reasoning deltas as they arrive.
 *
 * Until something reaches the caller (a text or reasoning delta, a tool call), a stream that
 * breaks off, stalls longer than the model's timeout, reports an error or ends early is retried
 * with the model's retry policy, like a failed request. After that, the step fails with a
 * `stream_interrupted` ProviderError saying what happened ("the connection was closed after 12
 * events", "no data for 120000 ms") and is not retried: the caller has seen part of an answer.
 */
export function streamStep(
  m: ResolvedModel,
  options: LanguageModelV3CallOptions,
  how: StepCallOptions & { emitter?: StepEmitter },
): Promise<ModelStepOutput> {
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
  const parts = new StreamParts(emitter);
  const watch = new StallWatch(m.timeoutMs, () => stopReading(new Error('stream stalled')));
  const noData = () => `no data for ${m.timeoutMs} ms`;
  const broken = (message: string, cause?: unknown): Error =>
    parts.visible
      ? new ProviderError({ kind: 'stream_interrupted', provider: m.provider, model: m.modelId, providerMessage: message, attempts, cause })
      : new StreamBrokeOff(message, { cause });
  try {
    watch.arm();
    for (;;) {
      let chunk: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) throw new RunAbortedError(undefined, { cause: err, partialText: parts.out.text });
        throw broken(watch.stalled ? noData() : describeBreak(err, parts.events), err);
      }
      if (chunk.done) break;
      watch.arm();
      const failed = parts.add(chunk.value);
      if (failed !== undefined) {
        stopReading();
        // Before any output, an error event (an overloaded server answering 200 and then an
        // error, as Gemini and OpenAI-compatible servers do) is retried like a failed request.
        if (!parts.visible) throw streamErrorAsCallError(failed.error);
        throw broken(errorText(failed.error), failed.error);
      }
    }
  } finally {
    watch.stop();
    unlink();
    reader.releaseLock();
  }
  if (signal?.aborted) throw new RunAbortedError(undefined, { partialText: parts.out.text });
  // Cancelling the reader on a stall ends the stream quietly; report it as the stall it was.
  if (watch.stalled && !parts.finished) throw broken(noData());
  if (!parts.finished) throw broken(`the response stream ended after ${plural(parts.events, 'event')} before the model finished`);
  return parts.result();
}

/**
 * Fires `onStall` when no chunk arrived for `timeoutMs` (0: never). One timer per attempt that
 * re-arms itself from the time of the last chunk (no timer churn per chunk).
 */
class StallWatch {
  stalled = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastData = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly onStall: () => void,
  ) {}

  /** A chunk arrived (or reading starts). */
  arm(): void {
    if (this.timeoutMs <= 0) return;
    this.lastData = performance.now();
    if (!this.timer) this.timer = setTimeout(this.check, this.timeoutMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private readonly check = (): void => {
    const idle = performance.now() - this.lastData;
    if (idle < this.timeoutMs) {
      this.timer = setTimeout(this.check, this.timeoutMs - idle);
      return;
    }
    this.stalled = true;
    this.onStall();
  };
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
