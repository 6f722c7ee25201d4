import type { EventSink } from './events.js';
import type { Message } from './message.js';
import type { RunState } from './run-state.js';

/** What a context provider receives: the turn about to start. */
export interface ContextRequest {
  /** The turn's user text (the `run_start` input). */
  input: string;
  agent: string;
  runId: string;
  /** Agent path from the top-level run. */
  path: readonly string[];
  /** The conversation, the turn's input included (read-only view). */
  messages: readonly Message[];
  /** The run's shared state, when it has one. */
  state: RunState | undefined;
  signal?: AbortSignal;
  /** Reports events into the run's stream (e.g. a `retrieval`); set when the run has an event sink. */
  emit?: EventSink;
}

/**
 * Adds text to an agent's instructions for each turn, computed from the turn's input before the
 * turn's first model call: passages retrieved from a knowledge base (`kb.asContext()`), a user's
 * profile, today's figures. Give them to an agent with `contextProviders`.
 */
export interface ContextProvider {
  /** Names the provider in errors. */
  readonly name: string;
  /** A section appended to the instructions for this turn, or `undefined` (or `''`) for none. */
  provide(request: ContextRequest): string | undefined | Promise<string | undefined>;
}
