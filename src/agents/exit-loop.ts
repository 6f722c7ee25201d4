import type { ToolContextInternal } from '../core/tool-executor.js';
import type { Tool, ToolContext } from '../types/tool.js';
import { alwaysLive } from '../types/tool-call-replay.js';

/** Name of the built-in tool that ends a loop agent. */
export const EXIT_LOOP_TOOL = 'exit_loop';

/**
 * The `exit_loop` tool: give it to an agent inside a `LoopAgent` (in YAML: `tools: [exit_loop]`)
 * and the loop ends once that agent's run finishes. Outside a loop it returns an error to the model.
 */
export const exitLoop: Tool<{ reason?: string }, string> = alwaysLive({
  kind: 'tool',
  name: EXIT_LOOP_TOOL,
  description: 'End the loop you are running in: call this when the work is done and no further iteration is needed.',
  jsonSchema: {
    type: 'object',
    properties: { reason: { type: 'string', description: 'Why the loop can end (optional).' } },
    additionalProperties: false,
  },
  execute(input: { reason?: string }, context: ToolContext): string {
    const loop = (context as ToolContextInternal).loop;
    if (!loop) throw new Error('exit_loop only works for an agent running inside a loop agent');
    loop.exit(context.agent, input?.reason);
    return 'The loop will end when you finish this answer.';
  },
});
