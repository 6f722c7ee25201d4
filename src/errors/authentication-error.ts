import { CorvidError } from './corvid-error.js';

const MARKER = Symbol.for('corvid.error.AuthenticationError');

/** Credentials are missing or were refused (a provider's 401/403, a missing API key). */
export class AuthenticationError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `AuthenticationError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is AuthenticationError {
    return AuthenticationError.hasMarker(error, MARKER);
  }

  readonly provider?: string;
  readonly status?: number;

  constructor(message: string, options: { provider?: string; status?: number; cause?: unknown } = {}) {
    super(message, { code: 'authentication_failed', cause: options.cause });
    this.name = 'AuthenticationError';
    this.provider = options.provider;
    this.status = options.status;
  }
}
