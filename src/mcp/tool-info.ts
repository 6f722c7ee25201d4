import type { JSONSchema7 } from '@ai-sdk/provider';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';

import type { McpServerConfig } from './mcp-server-config.js';
import { toolAllowed } from './tool-names.js';
import type { McpToolInfo } from './types.js';

/** A server's tool listing as Corvid keeps it, after the server's `include` / `exclude`. */
export function toMcpToolInfo(tools: readonly SdkTool[], config: McpServerConfig): McpToolInfo[] {
  return tools
    .filter((t) => toolAllowed(t.name, config))
    .map((t) => {
      const info: McpToolInfo = { name: t.name, inputSchema: t.inputSchema as JSONSchema7 };
      if (t.title !== undefined) info.title = t.title;
      if (t.description !== undefined) info.description = t.description;
      if (t.outputSchema !== undefined) info.outputSchema = t.outputSchema as JSONSchema7;
      if (t.annotations !== undefined) info.annotations = t.annotations as Record<string, unknown>;
      return info;
    });
}
