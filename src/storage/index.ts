/**
 * `corvid/storage`: durable sessions, state, artifacts, memories, conversation search, run
 * checkpoints, approvals, counters and leases on SQLite (default), Postgres, MySQL/MariaDB or in
 * memory.
 * Only contracts and `openStore` load here; each driver loads when it is opened.
 */
export { StorageError, type StorageErrorKind } from '../errors/storage-error.js';
export type {
  BackgroundRun,
  BackgroundRunInput,
  BackgroundRunOutcome,
  BackgroundRunStatus,
  BackgroundRunStore,
} from '../types/storage/background-runs.js';
export type { CounterStore, CounterWindow, LeaseAcquireOptions, LeaseInfo, LeaseStore } from '../types/storage/coordination.js';
export type {
  ConversationSearch,
  ConversationSearchMode,
  Memory,
  MemoryFilter,
  MemoryInput,
  MemoryRecord,
  MemoryScope,
  MemorySearchHit,
  MemoryStore,
  MessageSearchHit,
  MessageSearchOptions,
} from '../types/storage/memories.js';
export type { RunEventInput, RunEventLog, RunEventRecord } from '../types/storage/run-events.js';
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
} from '../types/storage/runs.js';
export type {
  AppendOptions,
  EntryQuery,
  Session,
  SessionEntry,
  SessionEntryInput,
  SessionInput,
  SessionListOptions,
  SessionPage,
  SessionStore,
} from '../types/storage/sessions.js';
export type { Artifact, ArtifactInfo, ArtifactStore, StateEntry, StateScope, StateStore } from '../types/storage/state.js';
export type { StorageDriver, Store, StoreInfo, StoreOptions } from '../types/storage/store.js';
export { openStore } from './open-store.js';
export { maskUrl } from './shared/location.js';
export { SCHEMA_VERSION } from './shared/schema.js';
