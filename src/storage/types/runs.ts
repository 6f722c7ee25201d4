/** The storage contracts live in the contracts layer (`src/types/storage/runs.ts`); re-exported here for the adapters. */
export type {
  Approval,
  ApprovalInput,
  ApprovalStatus,
  ApprovalStore,
  Checkpoint,
  CheckpointAppend,
  CheckpointInput,
  CheckpointStore,
  RunListOptions,
  RunRecord,
  RunStatus,
} from '../../types/storage/runs.js';
