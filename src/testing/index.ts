/** Test helpers for Corvid users: a scripted in-process model that records what it was sent. */
// Installs the model resolver and durable runner the core's agents use (see src/core/core-services.ts).
import '../models/install-model-resolver.js';
import '../durable/install-durable-runner.js';
export { type Script, ScriptedModel, type ScriptedTurn } from './scripted-model.js';
