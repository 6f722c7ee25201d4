import type { McpCompleter } from './served-resource.js';

/** Most values one `completion/complete` answer carries (the spec's limit). */
export const MAX_COMPLETIONS = 100;

/** Runs a completer: a fixed list is filtered by the typed prefix, a function decides itself. */
export async function completeValues(completer: McpCompleter | undefined, value: string, args: Record<string, string>): Promise<string[]> {
  if (!completer) return [];
  if (typeof completer === 'function') return [...(await completer(value, { arguments: args }))];
  const typed = value.toLowerCase();
  return completer.filter((v) => v.toLowerCase().startsWith(typed));
}
