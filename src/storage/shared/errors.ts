import { StorageError } from '../../errors/storage-error.js';

/** `not_found`: an operation needed a session that does not exist. */
export function unknownSession(id: string, location: string): StorageError {
  return new StorageError(`Unknown session "${id}" in ${location}`, { kind: 'not_found', location });
}

/** `not_found`: an operation needed a run that does not exist. */
export function unknownRun(id: string, location: string): StorageError {
  return new StorageError(`Unknown run "${id}" in ${location} (save a checkpoint for it first)`, { kind: 'not_found', location });
}

/** `conflict`: an append's expectedLastSeq no longer holds. */
export function seqConflict(sessionId: string, expected: number, actual: number, location: string): StorageError {
  return new StorageError(
    `Session "${sessionId}" has moved on: expected last seq ${expected}, found ${actual} (another writer appended) in ${location}`,
    { kind: 'conflict', location },
  );
}

/** `conflict`: a session id that is taken. */
export function sessionExists(id: string, location: string): StorageError {
  return new StorageError(`A session with id "${id}" already exists in ${location}`, { kind: 'conflict', location });
}

/** `conflict` / `not_found` for answering an approval. */
export function approvalNotPending(id: string, status: string | undefined, location: string): StorageError {
  return status === undefined
    ? new StorageError(`Unknown approval "${id}" in ${location}`, { kind: 'not_found', location })
    : new StorageError(`Approval "${id}" was already answered (${status}); an approval is answered once`, { kind: 'conflict', location });
}

/** `failed`: the store was used after close(). */
export function storeClosed(location: string): StorageError {
  return new StorageError(`The store at ${location} is closed`, { kind: 'failed', location });
}

/** The schema of the database is newer than this code: refuse, never rewrite. */
export function schemaTooNew(location: string, found: number, supported: number): StorageError {
  return new StorageError(
    `The database at ${location} has schema version ${found}, newer than this version of Corvid supports (${supported}). ` +
      'Upgrade Corvid to use it; the database was left untouched.',
    { kind: 'schema_too_new', location },
  );
}

/** `conflict`: an approval id used by another approval. */
export function approvalIdTaken(id: string, location: string): StorageError {
  return new StorageError(`An approval with id "${id}" already exists for another tool call in ${location}`, {
    kind: 'conflict',
    location,
  });
}
