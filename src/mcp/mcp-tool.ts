import { tool } from '../core/tool.js';
import { McpError } from '../errors/mcp-error.js';
import type { Tool, ToolContext } from '../types/tool.js';
import type { McpConnection } from './mcp-connection.js';
import { mcpToolName } from './tool-names.js';
import { mapToolResult, resultText } from './tool-result.js';
import type { McpToolInfo } from './types.js';

/** Marks the Corvid tools made from MCP tools, with where they come from. */
export const MCP_TOOL = Symbol.for('corvid.mcpTool');

/** Where a Corvid tool made from an MCP tool comes from. */
export interface McpToolOrigin {
  server: string;
  /** The server's name for the tool. */
  tool: string;
}

/** The origin of a tool made by `mcpTool`, if it is one. */
export function mcpToolOrigin(t: Tool): McpToolOrigin | undefined {
  return (t as Tool & { [MCP_TOOL]?: McpToolOrigin })[MCP_TOOL];
}

/**
 * A Corvid tool that calls `info` on the connection's server. Its name is `<server>_<tool>`
 * (sanitised); description and JSON Schema are the server's, unchanged. Progress and log
 * notifications during the call become `mcp_notification` events of the run; an `isError`
 * result becomes a tool error the model sees.
 */
export function mcpTool(connection: McpConnection, info: McpToolInfo): Tool<Record<string, unknown>, unknown> {
  const server = connection.id;
  const name = mcpToolName(server, info.name);
  const t = tool<Record<string, unknown>, unknown>({
    name,
    description: info.description ?? info.title ?? '',
    parameters: info.inputSchema,
    execute: async (input, ctx: ToolContext) => {
      const emit = ctx.emit;
      const base = { runId: ctx.runId, agent: ctx.agent, path: ctx.path, server, toolCallId: ctx.toolCallId, toolName: name };
      const result = await connection.callTool(info.name, input ?? {}, {
        signal: ctx.signal,
        onProgress: emit ? (p) => emit({ type: 'mcp_notification', ...base, kind: 'progress', ...p }) : undefined,
        onLog: emit ? (l) => emit({ type: 'mcp_notification', ...base, kind: 'log', ...l }) : undefined,
      });
      if (result.isError) {
        throw new McpError(resultText(result) || `MCP server "${server}" reported an error without a message`, { kind: 'call', server });
      }
      return mapToolResult(result);
    },
  });
  Object.defineProperty(t, MCP_TOOL, { value: { server, tool: info.name } satisfies McpToolOrigin });
  return t;
}
