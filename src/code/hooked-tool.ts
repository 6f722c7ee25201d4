import type { Tool } from '../types/tool.js';
import type { CodeHooks } from './code-hooks.js';

/**
 * A tool whose calls run the `pre_tool_use` hooks first (a hook exiting 2 refuses the call: the model reads the
 * hook's reason as the call's error) and the `post_tool_use` hooks after (a hook exiting 2 adds its feedback to the
 * result the model reads). Tools without matching hooks are returned as they are.
 */
export function withHooks(tool: Tool, hooks: CodeHooks): Tool {
  if (!hooks.has('pre_tool_use', tool.name) && !hooks.has('post_tool_use', tool.name)) return tool;
  return {
    ...tool,
    execute: async (input, context) => {
      const pre = await hooks.run('pre_tool_use', { tool_name: tool.name, tool_input: input }, context.signal);
      if (pre.blocked !== undefined) throw new Error(`Blocked by a pre_tool_use hook: ${pre.blocked}`);
      const output: unknown = await tool.execute(input, context);
      const post = await hooks.run('post_tool_use', { tool_name: tool.name, tool_input: input, tool_response: output }, context.signal);
      if (post.blocked === undefined) return output;
      const feedback = `A post_tool_use hook says: ${post.blocked}`;
      if (typeof output === 'string') return `${output}\n\n${feedback}`;
      if (output !== null && typeof output === 'object' && !Array.isArray(output)) return { ...output, hookFeedback: feedback };
      return { result: output, hookFeedback: feedback };
    },
  };
}
