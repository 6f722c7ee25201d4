/** The storage contracts live in the contracts layer (`src/types/storage/store.ts`); re-exported here for the adapters. */
export type { StorageDriver, StoreOptions, StoreInfo, Store } from '../../types/storage/store.js';
