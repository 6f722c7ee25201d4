/** The storage contracts live in the contracts layer (`src/types/storage/sessions.ts`); re-exported here for the adapters. */
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
} from '../../types/storage/sessions.js';
