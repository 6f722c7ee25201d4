import type { StepResult } from '../types/result.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';

/** Adds every entry of `from` into `into` (copying records it does not have yet). */
export function mergeUsage(into: Record<string, Usage>, from: Record<string, Usage>): Record<string, Usage> {
  for (const name in from) {
    const mine = into[name];
    if (mine) addUsage(mine, from[name]);
    else into[name] = addUsage(emptyUsage(), from[name]);
  }
  return into;
}

/** A run's usage per agent: its own model calls under its name, plus what nested runs reported. */
export function usageByAgent(
  name: string,
  usage: Usage,
  steps: StepResult[],
  nested: Record<string, Usage> | undefined,
): Record<string, Usage> {
  if (nested === undefined) return { [name]: usage };
  const own = emptyUsage();
  for (const s of steps) addUsage(own, s.usage);
  return mergeUsage({ [name]: own }, nested);
}
