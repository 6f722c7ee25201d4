/** The storage contracts live in the contracts layer (`src/types/storage/state.ts`); re-exported here for the adapters. */
export type { Artifact, ArtifactInfo, ArtifactStore, StateEntry, StateScope, StateStore } from '../../types/storage/state.js';
