import { CorvidError, type CorvidErrorCode } from './corvid-error.js';

/** What went wrong in the secret store. */
export type SecretStoreErrorKind = 'key_missing' | 'key_invalid' | 'decrypt_failed' | 'io';

const CODES: Record<SecretStoreErrorKind, CorvidErrorCode> = {
  key_missing: 'secret_key_missing',
  key_invalid: 'secret_key_invalid',
  decrypt_failed: 'secret_decrypt_failed',
  io: 'secret_store_error',
};

const MARKER = Symbol.for('corvid.error.SecretStoreError');

/**
 * The secret store could not read or write a secret: no key for existing encrypted data, a key
 * that is not 32 bytes, data encrypted with another key or tampered with, or a file system error.
 * Messages name the file; they never contain a key or a secret value.
 */
export class SecretStoreError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `SecretStoreError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is SecretStoreError {
    return SecretStoreError.hasMarker(error, MARKER);
  }

  readonly kind: SecretStoreErrorKind;
  /** The file concerned, when there is one. */
  readonly file?: string;

  constructor(message: string, options: { kind: SecretStoreErrorKind; file?: string; cause?: unknown }) {
    super(message, { code: CODES[options.kind], cause: options.cause });
    this.name = 'SecretStoreError';
    this.kind = options.kind;
    this.file = options.file;
  }
}
