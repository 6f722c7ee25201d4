import type { Runnable } from '../../core/runnable.js';

/**
 * What the A2A server needs of the agents it serves. `corvid serve` passes its `Runtime`; any
 * object of this shape works. After a config reload the accessor returns a new object, and the
 * agents' handlers and cards are rebuilt from it.
 */
export interface A2ARuntime {
  /** The agents by name. */
  readonly agents: ReadonlyMap<string, Runnable>;
  /** The agent served at `/.well-known/agent-card.json`. */
  readonly defaultAgent: string;
  /** The config the agents were built from: cards read `agents.<name>.a2a` (`skills`, `version`) from it. */
  readonly config: unknown;
}
