/** The storage contracts live in the contracts layer (`src/types/storage/runs.ts`); re-exported here for the adapters. */
export type { RunStatus, CheckpointInput, CheckpointAppend, Checkpoint, RunRecord, RunListOptions, CheckpointStore, ApprovalStatus, ApprovalInput, Approval, ApprovalStore } from '../../types/storage/runs.js';
