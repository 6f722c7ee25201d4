/** The storage contracts live in the contracts layer (`src/types/storage/coordination.ts`); re-exported here for the adapters. */
export type { CounterStore, CounterWindow, LeaseAcquireOptions, LeaseInfo, LeaseStore } from '../../types/storage/coordination.js';
