/** The storage contracts live in the contracts layer (`src/types/storage/state.ts`); re-exported here for the adapters. */
export type { StateScope, StateEntry, StateStore, ArtifactInfo, Artifact, ArtifactStore } from '../../types/storage/state.js';
