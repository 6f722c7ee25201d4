/** The storage contracts live in the contracts layer (`src/types/storage/coordination.ts`); re-exported here for the adapters. */
export type { CounterWindow, CounterStore, LeaseStore, LeaseAcquireOptions, LeaseInfo } from '../../types/storage/coordination.js';
