import { CorvidError, type CorvidErrorCode } from './corvid-error.js';

/** What went wrong in a storage backend. */
export type StorageErrorKind =
  'schema_too_new' | 'corrupt' | 'locked' | 'unavailable' | 'auth_failed' | 'driver_missing' | 'not_found' | 'conflict' | 'failed';

const CODES: Record<StorageErrorKind, CorvidErrorCode> = {
  schema_too_new: 'storage_schema_too_new',
  corrupt: 'storage_corrupt',
  locked: 'storage_locked',
  unavailable: 'storage_unavailable',
  auth_failed: 'storage_auth_failed',
  driver_missing: 'storage_driver_missing',
  not_found: 'not_found',
  conflict: 'storage_conflict',
  failed: 'storage_error',
};

const MARKER = Symbol.for('corvid.error.StorageError');

/**
 * A storage backend failed or refused an operation: a newer schema, a corrupted or locked SQLite
 * file, an unreachable server, refused credentials, a missing driver package, an unknown session
 * or run id, a conflicting write. `location` names the file or URL (passwords masked).
 */
export class StorageError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `StorageError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is StorageError {
    return StorageError.hasMarker(error, MARKER);
  }

  readonly kind: StorageErrorKind;
  /** The database file or URL (password masked), when known. */
  readonly location?: string;

  constructor(message: string, options: { kind: StorageErrorKind; location?: string; cause?: unknown }) {
    super(message, { code: CODES[options.kind], cause: options.cause });
    this.name = 'StorageError';
    this.kind = options.kind;
    this.location = options.location;
  }
}
