import { APICallError } from '@ai-sdk/provider';

import { AuthenticationError } from '../errors/authentication-error.js';
import { CorvidError } from '../errors/corvid-error.js';
import { deepestMessage, NETWORK_CODES, networkCause } from '../errors/error-causes.js';
import { ProviderError, type ProviderErrorKind } from '../errors/provider-error.js';
import type { ClassifiedError } from '../types/resolved-model.js';
import { isFirstByteTimeout } from './first-byte-timeout.js';

export type { ClassifiedError };
export { deepestMessage, networkCause };

/**
 * Classifies an error thrown by a provider call. `timedOut` says the per-request timeout
 * (`timeoutMs`) fired.
 */
export function classifyProviderError(
  err: unknown,
  info: { provider: string; modelId: string; timedOut?: boolean; timeoutMs?: number; attempts?: number },
): ClassifiedError {
  if (CorvidError.isInstance(err)) return { error: err, retryable: false };
  const base = { provider: info.provider, model: info.modelId, attempts: info.attempts, cause: err };
  if (info.timedOut || isFirstByteTimeout(err)) {
    const within = info.timeoutMs ? `${info.timeoutMs} ms` : 'the request timeout';
    const providerMessage = info.timedOut ? `no response within ${within}` : (err as Error).message;
    return { error: new ProviderError({ ...base, kind: 'timeout', providerMessage }), retryable: true };
  }
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status !== undefined && status >= 200 && status < 300) {
      // The provider answered, then its response could not be read to the end (the AI SDK's
      // "Failed to process successful response"): say what is under it.
      const lost = networkCause(err);
      const providerMessage = lost
        ? 'the connection was closed before the response was complete'
        : `the response could not be read: ${deepestMessage(err)}`;
      return { error: new ProviderError({ ...base, kind: lost ? 'network' : 'bad_response', providerMessage }), retryable: true };
    }
    const providerMessage = extractMessage(err.responseBody) ?? err.message;
    if (status === 401 || status === 403) {
      return {
        error: new AuthenticationError(
          `${info.provider} refused the credentials for model "${info.modelId}" (HTTP ${status}): ${providerMessage.replace(/[\s.]+$/, '')}. Check the API key (env var or api_key in config).`,
          { provider: info.provider, status, cause: err },
        ),
        retryable: false,
      };
    }
    let kind: ProviderErrorKind = 'bad_request';
    if (status === 429) kind = 'rate_limit';
    else if (status === 408) kind = 'timeout';
    else if (status !== undefined && status >= 500) kind = 'server';
    else if (status === undefined) kind = networkCause(err) ? 'network' : 'bad_response';
    const retryable = kind === 'rate_limit' || kind === 'server' || kind === 'timeout' || kind === 'network' || err.isRetryable;
    return {
      error: new ProviderError({ ...base, kind, status, providerMessage }),
      retryable,
      retryAfterMs: retryAfter(err.responseHeaders) ?? retryDelayFromBody(err.responseBody),
    };
  }
  if (networkCause(err)) {
    return { error: new ProviderError({ ...base, kind: 'network', providerMessage: describeNetwork(err) }), retryable: true };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { error: new ProviderError({ ...base, kind: 'bad_response', providerMessage: message }), retryable: false };
}

function extractMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const json = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof json.error === 'string') return json.error;
    if (json.error && typeof json.error.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return body.length > 300 ? `${body.slice(0, 300)}…` : body;
}

function describeNetwork(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: string }).code;
    if (code && NETWORK_CODES.has(code)) return `${code}: ${(e as Error).message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Parses `retry-after-ms` / `retry-after` (seconds or HTTP date) into milliseconds. */
export function retryAfter(headers: Record<string, string | undefined> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && !Number.isNaN(Number(ms))) return Math.max(0, Number(ms));
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isNaN(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Gemini sends no Retry-After header on a 429; the delay is in the body as a google.rpc.RetryInfo
 * detail: `{"error": {"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "34.4s"}]}}`.
 */
export function retryDelayFromBody(body: string | undefined): number | undefined {
  if (!body || !body.includes('RetryInfo')) return undefined;
  try {
    const details = (JSON.parse(body) as { error?: { details?: Array<{ '@type'?: string; retryDelay?: string }> } }).error?.details;
    const info = details?.find((d) => typeof d?.['@type'] === 'string' && d['@type'].endsWith('google.rpc.RetryInfo'));
    const m = info?.retryDelay ? /^(\d+(?:\.\d+)?)s$/.exec(info.retryDelay) : null;
    return m ? Math.round(Number(m[1]) * 1000) : undefined;
  } catch {
    return undefined;
  }
}
