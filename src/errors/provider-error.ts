import { CorvidError, type CorvidErrorCode } from './corvid-error.js';

/** What went wrong talking to a model provider. */
export type ProviderErrorKind = 'rate_limit' | 'timeout' | 'network' | 'server' | 'bad_request' | 'bad_response' | 'stream_interrupted';

const CODES: Record<ProviderErrorKind, CorvidErrorCode> = {
  rate_limit: 'provider_rate_limited',
  timeout: 'provider_timeout',
  network: 'provider_unavailable',
  server: 'provider_error',
  bad_request: 'provider_error',
  bad_response: 'provider_error',
  stream_interrupted: 'provider_error',
};

const MARKER = Symbol.for('corvid.error.ProviderError');

/** A model provider failed; names the provider, model, HTTP status and the provider's own message. */
export class ProviderError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `ProviderError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is ProviderError {
    return ProviderError.hasMarker(error, MARKER);
  }

  readonly kind: ProviderErrorKind;
  readonly provider: string;
  readonly model: string;
  readonly status?: number;
  readonly providerMessage?: string;
  /** Attempts made before giving up (1 = no retry). */
  readonly attempts: number;

  constructor(options: {
    kind: ProviderErrorKind;
    provider: string;
    model: string;
    status?: number;
    providerMessage?: string;
    attempts?: number;
    cause?: unknown;
  }) {
    const status = options.status ? ` HTTP ${options.status}` : '';
    const tries = options.attempts && options.attempts > 1 ? ` after ${options.attempts} attempts` : '';
    const detail = options.providerMessage ? `: ${options.providerMessage}` : '';
    super(`${options.provider} model "${options.model}" failed (${options.kind.replace('_', ' ')}${status})${tries}${detail}`, {
      code: CODES[options.kind],
      cause: options.cause,
    });
    this.name = 'ProviderError';
    this.kind = options.kind;
    this.provider = options.provider;
    this.model = options.model;
    this.status = options.status;
    this.providerMessage = options.providerMessage;
    this.attempts = options.attempts ?? 1;
  }
}
