import type BetterSqlite3 from 'better-sqlite3';

import { KnowledgeError } from '../../../errors/knowledge-error.js';

/** Why vector search is unavailable: `undefined` when sqlite-vec is loaded. */
export type VecStatus = { ok: true } | { ok: false; reason: string };

/**
 * Loads the sqlite-vec extension into `db` (the package is imported only here, when a store opens).
 * A failure is not thrown: the store keeps keyword search and refuses vector work with {@link vecUnsupported}.
 */
export async function loadSqliteVec(db: BetterSqlite3.Database): Promise<VecStatus> {
  try {
    const mod = (await import('sqlite-vec')) as { load?: (db: unknown) => void; default?: { load: (db: unknown) => void } };
    const load = mod.load ?? mod.default?.load;
    if (!load) return { ok: false, reason: 'the package "sqlite-vec" has no load() function' };
    load(db);
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: ((err as Error)?.message ?? String(err)).split('\n')[0]!.slice(0, 200) };
  }
}

/** The error for vector work on a store without sqlite-vec. */
export function vecUnsupported(status: { reason: string }, index: string, what: string): KnowledgeError {
  return new KnowledgeError(
    `${what} in knowledge index "${index}" needs the SQLite extension sqlite-vec, which could not be loaded (${status.reason}): ` +
      'install it with "npm install sqlite-vec@0.1" where Corvid is installed (keyword search works without it)',
    { kind: 'unsupported', index },
  );
}
