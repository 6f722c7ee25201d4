/** Test helpers for Corvid users: a scripted in-process model that records what it was sent, and cassettes of recorded model calls. */
// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import '../models/index.js';
import '../durable/index.js';
export { Cassette, type CassetteMode, type CassetteOptions, openCassette, withCassette } from '../models/index.js';
export { type Script, ScriptedModel, type ScriptedTurn } from './scripted-model.js';
