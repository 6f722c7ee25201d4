import type { JSONSchema7 } from '@ai-sdk/provider';

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  /** The server's name for it. */
  name: string;
  title?: string;
  description?: string;
  /** JSON Schema of the arguments, unchanged. */
  inputSchema: JSONSchema7;
  outputSchema?: JSONSchema7;
  annotations?: Record<string, unknown>;
}

/** Where a server stands. `failed`: the last attempt to start or reach it failed (see `error`). */
export type McpServerState = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';

/** Status of one configured server, as `corvid mcp list` shows it. */
export interface McpServerStatus {
  id: string;
  state: McpServerState;
  /** `stdio`, `http`, `streamable_http` or `sse` as configured; for `http`, the transport in use once connected. */
  transport: string;
  /** The command line or URL. */
  target: string;
  /** Tools after `include` / `exclude`, by the server's names. */
  tools?: string[];
  /** Message of the last failure. */
  error?: string;
  /** Server name and version from the handshake. */
  serverInfo?: { name: string; version: string };
}

/** A notification from a server: progress of a tool call, or a log message. */
export type McpNotice =
  | { kind: 'progress'; server: string; toolName: string; progress: number; total?: number; message?: string }
  | { kind: 'log'; server: string; level: string; logger?: string; message: string };

/** A server asks the user for input (MCP elicitation, form mode). */
export interface McpElicitationRequest {
  /** Id of the server asking. */
  server: string;
  message: string;
  /** A flat JSON Schema object: string, number, integer, boolean and enum properties. */
  requestedSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  signal: AbortSignal;
}

/** The user's answer to an elicitation. */
export type McpElicitationResult =
  { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

/** Answers elicitation requests, e.g. by asking the user in `corvid chat`. */
export type McpElicitationHandler = (request: McpElicitationRequest) => Promise<McpElicitationResult>;

/** Opens (or prints) the authorization URL of an OAuth flow. */
export type McpOpenUrl = (url: string, server: string) => void | Promise<void>;
