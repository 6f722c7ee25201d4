import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions, type LanguageModelV3StreamResult } from '@ai-sdk/provider';

import type { ModelConfig } from '../types/model.js';

/** Default time a streaming call may take to get the response headers. */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;

const MARK = Symbol.for('corvid.firstByteTimeout');

/**
 * The first-byte timeout of a model's streaming calls, 0 for none (also when the per-request
 * timeout `timeoutMs` is as short): `firstByteTimeoutMs`, else 60 s, except for Ollama, which may
 * load the model into memory before it answers.
 */
export function firstByteTimeoutFor(config: ModelConfig, timeoutMs: number): number {
  const ms = config.firstByteTimeoutMs ?? (config.provider === 'ollama' ? 0 : DEFAULT_FIRST_BYTE_TIMEOUT_MS);
  return ms > 0 && (timeoutMs <= 0 || ms < timeoutMs) ? ms : 0;
}

/** True for the error a streaming call fails with when no response came within its first-byte timeout. */
export function isFirstByteTimeout(err: unknown): err is APICallError {
  return typeof err === 'object' && err !== null && (err as { [MARK]?: boolean })[MARK] === true;
}

function timeoutError(ms: number, model: LanguageModelV3): APICallError {
  const seconds = ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
  const err = new APICallError({
    message: `no response within ${seconds} (the server accepted the connection but sent nothing; first_byte_timeout_ms)`,
    url: `${model.provider}:${model.modelId}`,
    requestBodyValues: undefined,
    isRetryable: true,
  });
  Object.defineProperty(err, MARK, { value: true });
  return err;
}

/**
 * Wraps a model so that a streaming call whose response does not start within `ms` (no response
 * headers: a server that accepts the connection and never answers) is aborted and fails with a
 * retryable timeout, long before the per-request timeout. Once the response has started, the
 * stream is not limited here (the step's stall timeout applies). Non-streaming calls are left
 * alone: their headers come only with the complete answer.
 */
export function withFirstByteTimeout(inner: LanguageModelV3, ms: number): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: (options) => inner.doGenerate(options),
    doStream: (options) => openWithin(inner, options, ms),
  };
}

async function openWithin(inner: LanguageModelV3, options: LanguageModelV3CallOptions, ms: number): Promise<LanguageModelV3StreamResult> {
  const outer = options.abortSignal;
  const ctl = new AbortController();
  // The outer signal (cancel, per-request timeout) keeps reaching the request for the stream's whole life.
  if (outer?.aborted) ctl.abort(outer.reason);
  else outer?.addEventListener('abort', () => ctl.abort(outer.reason), { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = timeoutError(ms, inner);
      ctl.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([inner.doStream({ ...options, abortSignal: ctl.signal }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
