import { CorvidError, type CorvidErrorCode } from './corvid-error.js';

/**
 * What went wrong with an MCP server: it could not be started or reached (`connection`), a call
 * failed or timed out (`call`), or authorization failed (`auth`).
 */
export type McpErrorKind = 'connection' | 'call' | 'auth';

const CODES: Record<McpErrorKind, CorvidErrorCode> = {
  connection: 'mcp_connection_failed',
  call: 'mcp_call_failed',
  auth: 'mcp_auth_failed',
};

const MARKER = Symbol.for('corvid.error.McpError');

/** An MCP server failed. The message always names the server (its id from `mcp_servers`). */
export class McpError extends CorvidError {
  private readonly [MARKER] = true;

  /** True for a `McpError` (or a subclass), also across duplicated copies of the package. */
  static override isInstance(error: unknown): error is McpError {
    return McpError.hasMarker(error, MARKER);
  }

  readonly kind: McpErrorKind;
  /** Id of the server concerned. */
  readonly server: string;

  constructor(message: string, options: { kind: McpErrorKind; server: string; cause?: unknown }) {
    super(message, { code: CODES[options.kind], cause: options.cause });
    this.name = 'McpError';
    this.kind = options.kind;
    this.server = options.server;
  }
}
