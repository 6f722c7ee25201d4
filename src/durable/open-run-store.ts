import { DurableRunError } from '../errors/durable-run-error.js';
import type { DurableDefaults, SessionRef, StoreSource } from '../types/durable-options.js';
import type { Store } from '../types/storage/store.js';

export type { DurableDefaults };

/** The store of a session / durable run, or a clear error naming what to do. */
export async function openRunStore(source: StoreSource | undefined, agent: string, what: string): Promise<Store> {
  if (source === undefined) {
    throw new DurableRunError(
      `Agent "${agent}": ${what} needs a store. Pass one with new Agent({ store }) or the run option { store } (e.g. await openStore() from 'corvid/storage'), or load the agent with loadRuntime(), which uses the config's storage:`,
      { kind: 'invalid' },
    );
  }
  return typeof source === 'function' ? await source() : source;
}

/** `RunOptions.session` as `{ id, userId }`, checked. */
export function sessionRefOf(ref: SessionRef, agent: string): { id: string; userId?: string } {
  const value = typeof ref === 'string' ? { id: ref } : ref;
  if (!value || typeof value.id !== 'string' || value.id.trim() === '' || value.id.length > 191) {
    throw new DurableRunError(
      `Agent "${agent}": session must be a non-empty id of at most 191 characters, or { id, userId? } (got ${JSON.stringify(ref)})`,
      { kind: 'invalid' },
    );
  }
  if (value.userId !== undefined && (typeof value.userId !== 'string' || value.userId === '')) {
    throw new DurableRunError(`Agent "${agent}": session.userId must be a non-empty string (got ${JSON.stringify(value.userId)})`, {
      kind: 'invalid',
    });
  }
  return value.userId !== undefined ? { id: value.id, userId: value.userId } : { id: value.id };
}
