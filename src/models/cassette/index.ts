/** Cassettes: recorded model calls replayed at the model boundary (see docs/cassettes.md). */
export { Cassette, type CassetteMode, cassetteModeFromEnv, type CassetteOptions, openCassette } from './cassette.js';
export type { CassetteEntry, CassetteFileV1, RecordedResponse } from './cassette-file.js';
export { withCassette } from './with-cassette.js';
