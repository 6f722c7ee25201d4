/**
 * Names of the built-in tools agents can list in `tools:` of `corvid.yaml` without registering
 * them. Kept apart from the tools themselves so config validation loads none of their code.
 */
export const MEMORY_TOOL_NAMES = ['save_memory', 'get_memories', 'search_memories', 'search_conversations'] as const;

/** A built-in memory / conversation-search tool name. */
export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];

/** Whether `name` is a built-in memory / conversation-search tool. */
export function isMemoryToolName(name: string): name is MemoryToolName {
  return (MEMORY_TOOL_NAMES as readonly string[]).includes(name);
}
