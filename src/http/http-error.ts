import { CorvidError, type CorvidErrorCode } from '../errors/corvid-error.js';

/** HTTP statuses the server answers errors with. */
export type HttpErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 499 | 500 | 502 | 503 | 504;

const MARKER = Symbol.for('corvid.error.HttpError');

/**
 * An error answered over HTTP as `{ error: { code, message } }` with `status`. `wireCode` is the
 * `code` clients see (e.g. `invalid_request`, `unauthorized`, `rate_limited`).
 */
export class HttpError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `HttpError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is HttpError {
    return HttpError.hasMarker(error, MARKER);
  }

  readonly status: HttpErrorStatus;
  readonly wireCode: string;
  /** Extra response headers (e.g. `Retry-After`, `WWW-Authenticate`). */
  readonly headers: Record<string, string>;

  constructor(
    status: HttpErrorStatus,
    wireCode: string,
    message: string,
    options: { headers?: Record<string, string>; cause?: unknown; code?: CorvidErrorCode } = {},
  ) {
    super(message, { code: options.code ?? codeFor(status), cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.wireCode = wireCode;
    this.headers = options.headers ?? {};
  }
}

function codeFor(status: number): CorvidErrorCode {
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 404) return 'not_found';
  if (status === 429 || status === 413) return 'limit_exceeded';
  if (status < 500) return 'validation_failed';
  return 'internal';
}
