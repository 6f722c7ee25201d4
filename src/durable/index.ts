/**
 * The durable layer's public entry for the other layers: importing it installs the durable runner
 * the core starts and resumes session / durable runs with (the machinery loads on first use).
 */
import './install-durable-runner.js';

export { RunEventWriter } from './run-event-writer.js';
export { agentForRun, interruptedRuns, type RunsRuntime } from './runtime-runs.js';
