/** The durable-run options are contracts (`src/types/durable-options.ts`); re-exported here for the adapters. */
export type { SessionRef, StoreSource, CheckpointOptions, ApprovalRequest, ApprovalDecision, ApprovalHandler, DurableDefaults } from '../types/durable-options.js';
