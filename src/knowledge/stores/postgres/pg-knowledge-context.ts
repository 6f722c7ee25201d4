import { KnowledgeError } from '../../../errors/knowledge-error.js';
import type { PgClient } from '../../../storage/postgres/index.js';
import type { PgVector } from './schema.js';

/** Whether pgvector could be created, and where it lives. */
export type PgVectorStatus = ({ ok: true } & PgVector) | { ok: false; reason: string };

/** What a store's indexes share: the pool client, the masked location and pgvector's status. */
export interface PgKnowledgeContext {
  client: PgClient;
  location: string;
  vector: PgVectorStatus;
  /** The server's major version (for the install hint). */
  serverMajor: number;
}

/** Runs `fn` in one transaction on one connection of the pool. */
export function pgTransaction<T>(client: PgClient, fn: (tx: PgClient) => Promise<T>): Promise<T> {
  // PgClient.transaction hands a PgClient bound to the checked-out connection to `fn`.
  return client.transaction((tx) => fn(tx as PgClient));
}

/** The error for vector search on a server without pgvector. */
export function pgvectorMissing(ctx: PgKnowledgeContext, reason: string, index: string): KnowledgeError {
  const pkg = ctx.serverMajor > 0 ? `postgresql-${ctx.serverMajor}-pgvector` : 'postgresql-<version>-pgvector';
  return new KnowledgeError(
    `Vector search in knowledge index "${index}" needs the PostgreSQL extension pgvector, which could not be created at ${ctx.location} (${reason}): ` +
      `install it on the database server (e.g. "apt install ${pkg}", or see https://github.com/pgvector/pgvector#installation), ` +
      'then run "CREATE EXTENSION vector" as a superuser or reopen the store. The vectors are already stored, so nothing needs re-embedding; ' +
      'keyword search works without it (search: { mode: keyword }).',
    { kind: 'unsupported', index },
  );
}
