import type { ToolContext } from '../../types/tool.js';

/** Marks a value built by `mcpResult`. */
const MCP_RESULT = Symbol.for('corvid.mcpResult');

/** One MCP content block a served tool may return. */
export type McpResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** A tool result in MCP's own form (what `mcpResult` returns). */
export interface McpResult {
  content: McpResultContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A tool result given to MCP clients as is: images, audio, embedded resources, links. Served
 * tools that return a string or JSON need nothing of this; use it for other content.
 * @example
 * execute: () => mcpResult({ content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] })
 */
export function mcpResult(result: McpResult): McpResult {
  return Object.defineProperty({ ...result }, MCP_RESULT, { value: true });
}

/** Whether a tool output was built by `mcpResult`. */
export function isMcpResult(value: unknown): value is McpResult {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_RESULT] === true;
}

/** Log levels of MCP. */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** What a served call adds to the tool context (absent when the tool runs inside an agent). */
export interface ServedHooks {
  progress?: (p: { progress: number; total?: number; message?: string }) => void;
  log?: (level: McpLogLevel, data: unknown, logger?: string) => void;
}

/**
 * Reports progress of a tool served over MCP to the client (when it asked for progress).
 * Does nothing when the tool runs elsewhere, e.g. inside an agent.
 */
export function reportProgress(ctx: ToolContext, progress: { progress: number; total?: number; message?: string }): void {
  (ctx as ToolContext & ServedHooks).progress?.(progress);
}

/**
 * Sends a log message (`notifications/message`) to the MCP client of a served tool, subject to
 * the level the client set. Does nothing when the tool runs elsewhere.
 */
export function sendLog(ctx: ToolContext, level: McpLogLevel, data: unknown, logger?: string): void {
  (ctx as ToolContext & ServedHooks).log?.(level, data, logger);
}
