import type { Tool } from '../types/tool.js';
import { alwaysLive } from '../types/tool-call-replay.js';
import type { Runnable } from './runnable.js';

/** The `transfer_to_<name>` tool name of a handoff to `agent`. */
export function transferToolName(agent: string): string {
  return `transfer_to_${agent.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

/**
 * The tool that hands the conversation over to `target`. Calling it only records the transfer;
 * the run loop passes control once the step's tool results are in the conversation.
 */
export function transferTool(target: Runnable): Tool<Record<string, never>, string> {
  const about = target.description ? ` ${target.name}: ${target.description}` : '';
  return alwaysLive({
    kind: 'tool',
    name: transferToolName(target.name),
    description: `Hand the conversation over to the "${target.name}" agent, which then answers the user and handles what follows.${about}`,
    jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => `Transferred to ${target.name}.`,
  });
}
