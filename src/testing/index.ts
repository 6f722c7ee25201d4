/** Test helpers for Corvid users: a scripted in-process model that records what it was sent. */
export { ScriptedModel, type ScriptedTurn, type Script } from './scripted-model.js';
