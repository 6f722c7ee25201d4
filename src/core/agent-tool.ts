import type { Message } from '../types/message.js';
import type { Tool, ToolContext } from '../types/tool.js';
import { alwaysLive } from '../types/tool-call-replay.js';
import type { Runnable } from './runnable.js';
import type { ToolContextInternal } from './tool-executor.js';

/** Options for `agent.asTool()`. */
export interface AgentToolOptions {
  /** Tool name; default `ask_<agent name>`. */
  name?: string;
  /** What the calling model is told; default the agent's description. */
  description?: string;
  /**
   * Keep one sub-conversation per calling conversation (and calling agent), so the agent
   * remembers earlier calls; default false: every call starts a fresh conversation.
   */
  persistent?: boolean;
}

/** The `ask_<name>` tool name of an agent tool. */
export function agentToolName(agent: string): string {
  return `ask_${agent.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

/**
 * Wraps an agent (any `Runnable`) as a tool. The caller keeps control: each call runs the agent on
 * a fresh conversation (or its persistent sub-conversation); its events flow into the caller's
 * stream with the longer agent path, and its usage is added to the caller's run.
 */
export function agentAsTool(agent: Runnable, options: AgentToolOptions = {}): Tool<{ message: string }, string> {
  const name = options.name ?? agentToolName(agent.name);
  const persistent = options.persistent === true;
  const call = async (history: Message[], message: string, context: ToolContext): Promise<string> => {
    const internal = context as ToolContextInternal;
    const result = await agent.execute({
      history,
      input: message,
      options: { signal: context.signal },
      stream: context.emit !== undefined,
      parent: {
        path: [...context.path, agent.name],
        sink: context.emit,
        reportUsage: internal.reportUsage,
        state: context.state,
        tree: internal.tree,
      },
    });
    return result.text;
  };
  // The agent runs (under a cassette too): its own model calls are replayed on its lane.
  return alwaysLive({
    kind: 'tool',
    name,
    description:
      options.description ?? agent.description ?? `Ask the "${agent.name}" agent. Send it a complete request; it answers in text.`,
    jsonSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: `The request for ${agent.name}` } },
      required: ['message'],
      additionalProperties: false,
    },
    execute(input: { message: string }, context: ToolContext): Promise<string> {
      if (!persistent) return call([], input.message, context);
      return context.state.withSubConversation(`${context.agent}>${name}`, (messages) => call(messages, input.message, context));
    },
  });
}
