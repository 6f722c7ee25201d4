import { ToolExecutionError } from '../../errors/tool-execution-error.js';
import type { MemoryScope } from '../../types/storage/memories.js';
import type { Store } from '../../types/storage/store.js';
import type { ToolContext } from '../../types/tool.js';

/** The user id memories are kept under when the run names no user. */
export const DEFAULT_MEMORY_USER = 'default';

/** Where memory tools get a store when the run has none: a store, or a function opening one (called on first use). */
export type MemoryStoreSource = Store | (() => Promise<Store>);

/** Options of `createMemoryTools()` and the single-tool factories. */
export interface MemoryToolOptions {
  /**
   * The store to use when the run has none in its context (runs without a session). The run's
   * store (`ToolContext.store`) wins when there is one.
   */
  store?: MemoryStoreSource;
}

/**
 * The run's store, else the tools' own, else an error result for the model (and the developer
 * reading the transcript) saying how to give the agent one.
 */
export async function toolStore(context: ToolContext, toolName: string, options: MemoryToolOptions = {}): Promise<Store> {
  if (context.store) return context.store;
  const own = options.store;
  if (own !== undefined) return typeof own === 'function' ? own() : own;
  throw new ToolExecutionError(
    `memory tools need storage: ${toolName} has no store in this run. Run the agent with a session ` +
      '(agent.run(input, { session }) or `corvid chat --session <id>`) or pass a store (run option store, or createMemoryTools({ store })); ' +
      'config agents use the `storage:` section (default SQLite at ./.corvid/corvid.db).',
    { toolName, toolCallId: context.toolCallId },
  );
}

/** Whose memories a call reads and writes: the run's user (else `default`) with the calling agent. */
export function memoryScope(context: ToolContext): MemoryScope {
  return { userId: context.userId ?? DEFAULT_MEMORY_USER, agent: context.agent };
}

/** A date as the model sees it: ISO 8601 to the second. */
export function isoSecond(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
