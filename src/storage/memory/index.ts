import type { Store, StoreOptions } from '../../types/storage/store.js';
import { InMemoryStore } from './store.js';

/** Opens an in-memory store (nothing to connect to; data is lost when the process exits). */
export async function openMemoryStore(options: StoreOptions = {}): Promise<Store> {
  return new InMemoryStore(options);
}

export { InMemoryStore };
