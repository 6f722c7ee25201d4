/** The durable-run options are contracts (`src/types/durable-options.ts`); re-exported here for the adapters. */
export type {
  ApprovalDecision,
  ApprovalHandler,
  ApprovalRequest,
  CheckpointOptions,
  DurableDefaults,
  SessionRef,
  StoreSource,
} from '../types/durable-options.js';
