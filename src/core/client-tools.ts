import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';

import { ValidationError } from '../errors/validation-error.js';
import type { ClientTool } from '../types/client-tool.js';
import type { Tool } from '../types/tool.js';
import type { PreparedCall } from './tool-executor.js';

/**
 * The model-facing specs of a run's client tools (`RunOptions.clientTools`).
 * @throws ValidationError when one is named like a tool of the agent, or two share a name.
 */
export function clientToolSpecs(
  agent: string,
  tools: ReadonlyMap<string, Tool>,
  client: readonly ClientTool[],
): LanguageModelV3FunctionTool[] {
  const seen = new Set<string>();
  return client.map((t) => {
    if (tools.has(t.name)) throw new ValidationError(`Client tool "${t.name}" has the name of a tool of agent "${agent}"; rename it`);
    if (seen.has(t.name)) throw new ValidationError(`Two client tools are named "${t.name}"`);
    seen.add(t.name);
    const spec: LanguageModelV3FunctionTool = { type: 'function', name: t.name, inputSchema: t.parameters };
    if (t.description !== undefined) spec.description = t.description;
    return spec;
  });
}

/** A step's calls split into those the agent runs and those of client tools (which end the turn). */
export function splitClientCalls(
  calls: PreparedCall[],
  client: readonly ClientTool[] | undefined,
): { own: PreparedCall[]; client: PreparedCall[] } {
  if (client === undefined || client.length === 0) return { own: calls, client: [] };
  const names = new Set(client.map((t) => t.name));
  const own: PreparedCall[] = [];
  const theirs: PreparedCall[] = [];
  for (const c of calls) (names.has(c.toolName) ? theirs : own).push(c);
  return { own, client: theirs };
}
