import { redactUrl, redactUrls } from '../core/redact-urls.js';
import { McpError } from '../errors/mcp-error.js';
import { DEFAULT_CONNECT_TIMEOUT_MS } from './mcp-connection-options.js';
import type { McpServerConfig } from './mcp-server-config.js';

/**
 * What a connection knows about its server when something fails: the end of its stderr and
 * non-JSON-RPC output it printed, so error messages can say why.
 */
export interface ConnectionDiagnostics {
  /** Id of the server. */
  id: string;
  config: McpServerConfig;
  /** The last lines of the server's stderr, ready to append (empty when there are none). */
  stderrHint(): string;
  /** Parse errors of output that is not JSON-RPC (first few). */
  garbage: readonly string[];
  /** Whether the connection dropped while calls were running. */
  dropped: boolean;
}

/** The SDK's request timeout (`ErrorCode.RequestTimeout`). */
export function isTimeout(err: unknown): boolean {
  return (err as { code?: unknown })?.code === -32001;
}

/** The SDK's "connection closed" (`ErrorCode.ConnectionClosed`). */
export function isConnectionClosed(err: unknown): boolean {
  return (err as { code?: unknown })?.code === -32000;
}

function isNetworkError(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${causeText(err)}`;
  return /fetch failed|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET|socket hang up/i.test(text);
}

function causeText(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
}

function garbageHint(d: ConnectionDiagnostics): string {
  return d.garbage.length ? `; it wrote output that is not JSON-RPC on stdout (${d.garbage[0]})` : '';
}

/** The handshake did not complete in time. */
export function handshakeTimeoutError(d: ConnectionDiagnostics, ms: number): McpError {
  return new McpError(`MCP server "${d.id}" did not complete the MCP handshake within ${ms} ms${garbageHint(d)}${d.stderrHint()}`, {
    kind: 'connection',
    server: d.id,
  });
}

/** Starting or reaching the server failed: says why (command not found, exited, unreachable, 401, …). */
export function connectError(d: ConnectionDiagnostics, err: unknown): McpError {
  const e = err as NodeJS.ErrnoException & { code?: unknown };
  const c = d.config;
  let why: string;
  if (c.transport === 'stdio' && e?.code === 'ENOENT') why = `command "${c.command}" not found (check "command" and PATH)`;
  else if (c.transport === 'stdio' && e?.code === 'EACCES') why = `command "${c.command}" is not executable`;
  else if (isConnectionClosed(err)) why = `the server exited during start-up${garbageHint(d)}${d.stderrHint()}`;
  else if (c.transport !== 'stdio' && isNetworkError(err)) why = `cannot reach ${redactUrl(c.url)} (${redactUrls(causeText(err))})`;
  else if ((err as Error)?.name === 'UnauthorizedError' || (err as { code?: unknown })?.code === 401) {
    why = `${c.transport !== 'stdio' ? redactUrl(c.url) : 'it'} refused the credentials (HTTP 401)${c.transport !== 'stdio' && c.auth?.type === 'oauth' ? `; run "corvid mcp login ${d.id}"` : ''}`;
    return new McpError(`MCP server "${d.id}": ${why}`, { kind: 'auth', server: d.id, cause: err });
  } else why = `${redactUrls((err as Error)?.message ?? String(err))}${c.transport === 'stdio' ? d.stderrHint() : ''}`;
  return new McpError(`MCP server "${d.id}" failed to start: ${why}`, { kind: 'connection', server: d.id, cause: err });
}

/** A request (`what`: `tool "x"`, `tools/list`) failed: timed out, the server went away, or the SDK refused the answer. */
export function callError(d: ConnectionDiagnostics, err: unknown, what: string, timeout: number | undefined): McpError {
  if (McpError.isInstance(err)) return err;
  if (isTimeout(err)) {
    return new McpError(
      `MCP server "${d.id}": ${what} timed out after ${timeout ?? d.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS} ms`,
      {
        kind: 'call',
        server: d.id,
        cause: err,
      },
    );
  }
  if (isConnectionClosed(err) || d.dropped) {
    const restart = d.config.transport === 'stdio' ? 'it will be started again on the next call' : 'Corvid reconnects on the next call';
    return new McpError(`MCP server "${d.id}" exited or closed the connection during ${what}; ${restart}${d.stderrHint()}`, {
      kind: 'call',
      server: d.id,
      cause: err,
    });
  }
  const message = redactUrls((err as Error)?.message ?? String(err));
  return new McpError(`MCP server "${d.id}": ${what} failed: ${message}`, { kind: 'call', server: d.id, cause: err });
}
