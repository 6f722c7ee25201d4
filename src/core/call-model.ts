import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';

import { ProviderError } from '../errors/provider-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { EventError } from '../types/events.js';
import type { ClassifiedError, ResolvedModel } from '../types/resolved-model.js';
import { linkAbort } from './abort-link.js';
import { sleep } from './sleep.js';

/** Called before each retry with the attempt number (1 = first retry), the delay and the error. */
export type RetryListener = (info: { attempt: number; delayMs: number; error: EventError }) => void;

/** What one attempt of `callWithRetry` can see and do. */
export interface Attempt {
  /** 1 for the first call, 2 for the first retry, … */
  readonly number: number;
  /** The response has started: the request timeout no longer applies (a stream has its own idle timeout). */
  responded(): void;
}

/**
 * A response stream that broke off before anything of it reached the caller: retried like a
 * failed request. `message` says what happened ("the connection was closed after 2 events").
 */
export class StreamBrokeOff extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StreamBrokeOff';
  }
}

/**
 * Calls the provider with retries: 429, 5xx, network errors, timeouts and streams that break off
 * before any output are retried with exponential backoff and jitter (Retry-After honoured, capped
 * by `maxDelayMs`); anything else surfaces at once as a typed Corvid error.
 */
export async function callWithRetry<T>(
  m: ResolvedModel,
  options: LanguageModelV3CallOptions,
  signal: AbortSignal | undefined,
  invoke: (options: LanguageModelV3CallOptions, attempt: Attempt) => PromiseLike<T>,
  onRetry?: RetryListener,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    let unlink: (() => void) | undefined;
    if (m.timeoutMs > 0) {
      const ctl = new AbortController();
      timer = setTimeout(() => {
        timedOut = true;
        ctl.abort(new Error('request timeout'));
      }, m.timeoutMs);
      unlink = linkAbort(signal, ctl);
      options.abortSignal = ctl.signal;
    } else options.abortSignal = signal;
    const control: Attempt = {
      number: attempt + 1,
      responded: () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
      },
    };
    try {
      return await invoke(options, control);
    } catch (err) {
      if (signal?.aborted) throw err instanceof RunAbortedError ? err : new RunAbortedError(undefined, { cause: err });
      const c = classify(m, err, timedOut, attempt + 1);
      if (!c.retryable || attempt >= m.retry.maxRetries) throw c.error;
      const backoff = Math.min(m.retry.maxDelayMs, m.retry.initialDelayMs * 2 ** attempt);
      const delayMs = Math.round(
        c.retryAfterMs !== undefined ? Math.min(c.retryAfterMs, m.retry.maxDelayMs) : backoff / 2 + Math.random() * (backoff / 2),
      );
      onRetry?.({ attempt: attempt + 1, delayMs, error: { name: c.error.name, code: c.error.code, message: c.error.message } });
      await sleep(delayMs, signal);
    } finally {
      if (timer) clearTimeout(timer);
      if (unlink) unlink();
    }
  }
}

function classify(m: ResolvedModel, err: unknown, timedOut: boolean, attempts: number): ClassifiedError {
  if (err instanceof StreamBrokeOff && !timedOut) {
    const error = new ProviderError({
      kind: 'stream_interrupted',
      provider: m.provider,
      model: m.modelId,
      providerMessage: err.message,
      attempts,
      cause: err.cause,
    });
    return { error, retryable: true };
  }
  return m.classifyError(err, { timedOut, attempts });
}
