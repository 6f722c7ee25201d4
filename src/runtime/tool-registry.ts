import type { CorvidConfig } from '../config/corvid-config.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { isMemoryToolName, type MemoryToolName } from '../tools/memory/builtin-tool-names.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';

/**
 * Turns the tools given to `loadRuntime` into a name → tool map. With an array, config refers
 * to each tool by its `name`; with a record, by its key (the model still sees `tool.name`).
 * @throws ConfigError for values that are not tools and for duplicate names.
 */
export function toolRegistry(tools: Tool[] | Record<string, Tool> | undefined): Map<string, Tool> {
  const registry = new Map<string, Tool>();
  const issues: ConfigIssue[] = [];
  const entries: Array<[string, unknown]> = Array.isArray(tools)
    ? tools.map((t, i) => [typeof (t as Tool)?.name === 'string' ? (t as Tool).name : `#${i}`, t])
    : Object.entries(tools ?? {});
  for (const [name, t] of entries) {
    if (typeof t !== 'object' || t === null || (t as Tool).kind !== 'tool' || typeof (t as Tool).execute !== 'function') {
      issues.push({ path: `tools.${name}`, message: 'not a tool: create tools with tool({ name, description, input, execute })' });
    } else if (registry.has(name)) {
      issues.push({ path: `tools.${name}`, message: `two tools are registered as "${name}"` });
    } else registry.set(name, t as Tool);
  }
  if (issues.length > 0) throw new ConfigError('Invalid tools passed to loadRuntime', { issues });
  return registry;
}

/**
 * The registry plus the built-in memory tools (`save_memory`, `get_memories`, `search_memories`,
 * `search_conversations`) that config agents list in `tools:` and nobody registered under that
 * name (code tools, tool modules and MCP servers win); without a store in the run they use
 * `store` (the runtime's, opened on first use). Their code loads only when one is used;
 * an agent-less config (the default assistant with every registered tool) gets none.
 */
export async function withBuiltinTools(
  registry: ReadonlyMap<string, Tool>,
  config: CorvidConfig,
  store: () => Promise<Store>,
): Promise<ReadonlyMap<string, Tool>> {
  const taken = (name: string) =>
    registry.has(name) || name in config.toolModules || (config.mcpServers !== undefined && name in config.mcpServers);
  const wanted = new Set<MemoryToolName>();
  for (const agent of Object.values(config.agents)) {
    for (const ref of agent.tools) if (isMemoryToolName(ref) && !taken(ref)) wanted.add(ref);
  }
  if (wanted.size === 0) return registry;
  // Runs without a session have no store in their context: the tools then open the runtime's.
  const builtins = (await import('../tools/index.js')).createMemoryTools({ store });
  const out = new Map(registry);
  for (const name of wanted) out.set(name, builtins[name]);
  return out;
}
