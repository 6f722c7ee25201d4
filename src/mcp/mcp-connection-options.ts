import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';

import type { McpServerConfig } from './mcp-server-config.js';
import type { McpElicitationHandler, McpNotice, McpToolInfo } from './types.js';

/** Default time to start or reach a server and complete the handshake. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Default time for one tool call. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** The OAuth side of a connection (see `oauth/oauth-session.ts`). */
export interface McpAuthSession {
  readonly provider: OAuthClientProvider;
  /** Called after the SDK started an authorization (redirect): resolves with the code from the callback. */
  waitForCode(): Promise<string>;
  /** Refreshes the access token when it expires within 60 s; re-authorises when refreshing fails. */
  ensureFresh(): Promise<void>;
  dispose(): Promise<void>;
}

/** Options of one connection. */
export interface McpConnectionOptions {
  /** Directory that a relative `cwd` (and the default `cwd`) is resolved against. */
  baseDir?: string;
  /** Answers elicitation requests; without it they are declined, saying no user is present. */
  onElicitation?: McpElicitationHandler;
  /** Log messages (and progress) of the server, besides those routed to running calls. */
  onNotice?: (notice: McpNotice) => void;
  /** The tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged?: (server: string, tools: McpToolInfo[]) => void;
  /** Creates the OAuth session of servers with `auth: { type: oauth }`. */
  createAuthSession?: (
    server: string,
    config: McpServerConfig & { transport: 'http' | 'streamable_http' | 'sse' },
  ) => Promise<McpAuthSession>;
}

/** Options of one call. */
export interface McpCallOptions {
  signal?: AbortSignal;
  /** Overrides the server's `call_timeout_ms`. */
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Log messages that arrive while the call runs. */
  onLog?: (log: { level: string; logger?: string; message: string }) => void;
}
