/** The storage contracts live in the contracts layer (`src/types/storage/store.ts`); re-exported here for the adapters. */
export type { StorageDriver, Store, StoreInfo, StoreOptions } from '../../types/storage/store.js';
