/**
 * The storage schema version this code writes. Every SQL driver's migrations end at this version;
 * a database at a higher version is refused (never rewritten). Bump it with a new migration in
 * every driver at once.
 */
export const SCHEMA_VERSION = 3;
