/** The storage contracts live in the contracts layer (`src/types/storage/sessions.ts`); re-exported here for the adapters. */
export type { Session, SessionInput, SessionListOptions, SessionPage, SessionEntryInput, SessionEntry, AppendOptions, EntryQuery, SessionStore } from '../../types/storage/sessions.js';
