import type { Tool, ToolContext } from '../types/tool.js';
import type { Agent } from './agent.js';
import type { ToolContextInternal } from './tool-executor.js';

/** Options for `agent.asTool()`. */
export interface AgentToolOptions {
  /** Tool name; default `ask_<agent name>`. */
  name?: string;
  /** What the calling model is told; default the agent's description. */
  description?: string;
}

/**
 * Wraps an agent as a tool. Each call runs the agent on a fresh conversation; its events flow into
 * the caller's stream with the longer agent path, and its usage is added to the caller's run.
 */
export function agentAsTool(agent: Agent, options: AgentToolOptions = {}): Tool<{ message: string }, string> {
  const name = options.name ?? `ask_${agent.name.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
  return {
    kind: 'tool',
    name,
    description: options.description ?? agent.description ?? `Ask the "${agent.name}" agent. Send it a complete request; it answers in text.`,
    jsonSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: `The request for ${agent.name}` } },
      required: ['message'],
      additionalProperties: false,
    },
    async execute(input: { message: string }, context: ToolContext): Promise<string> {
      const result = await agent.execute([], input.message, { signal: context.signal }, context.emit !== undefined, {
        path: [...context.path, agent.name],
        sink: context.emit,
        reportUsage: (context as ToolContextInternal).reportUsage,
      });
      return result.text;
    },
  };
}
