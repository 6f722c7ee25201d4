import { CorvidError } from './corvid-error.js';

/** Credentials are missing or were refused (a provider's 401/403, a missing API key). */
export class AuthenticationError extends CorvidError {
  readonly provider?: string;
  readonly status?: number;

  constructor(message: string, options: { provider?: string; status?: number; cause?: unknown } = {}) {
    super(message, { code: 'authentication_failed', cause: options.cause });
    this.name = 'AuthenticationError';
    this.provider = options.provider;
    this.status = options.status;
  }
}
