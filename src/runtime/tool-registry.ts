import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
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
