/**
 * The normalised form of one `mcp_servers:` entry (camelCase). Pure types: nothing here loads the
 * MCP SDK.
 */

/** How a remote server authenticates Corvid. */
export type McpAuthConfig =
  | {
      type: 'bearer';
      /** Sent as `Authorization: Bearer <token>`. */
      token: string;
    }
  | {
      type: 'oauth';
      /** A pre-registered client id; without it Corvid registers itself (RFC 7591). */
      clientId?: string;
      /** Secret of a pre-registered confidential client. */
      clientSecret?: string;
      /** Scopes to ask for (default: what the server advertises). */
      scopes?: string[];
      /** Port of the localhost callback that receives the authorization code. Default 8889. */
      callbackPort?: number;
      /** Client name shown on the consent page. Default `Corvid`. */
      clientName?: string;
      /**
       * A Client ID Metadata Document: an https URL (with a path) where Corvid's client metadata
       * is published (see `clientMetadataDocument`). Used as the client id when the authorization
       * server advertises `client_id_metadata_document_supported`; otherwise Corvid registers
       * itself. Ignored when `clientId` is given.
       */
      clientMetadataUrl?: string;
    };

/** Settings every server has. */
interface McpServerCommon {
  /** Time allowed to start (or reach) the server and complete the MCP handshake. Default 30000. */
  connectTimeoutMs?: number;
  /** Time allowed for one tool call. Default 60000. */
  callTimeoutMs?: number;
  /** Only these tools (names as the server gives them). */
  include?: string[];
  /** Never these tools. */
  exclude?: string[];
  /** `watch`: re-list the tools and restart the server when its files change. */
  reload?: 'watch' | 'off';
  /** Files or directories to watch with `reload: watch` (default: the script files among `command` and `args`). */
  watch?: string[];
}

/** A local server Corvid starts as a child process and talks to over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerCommon {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Extra environment variables (the child inherits only PATH, HOME and a few others). */
  env?: Record<string, string>;
  /** Working directory (relative to the config file). Default: the config file's directory. */
  cwd?: string;
}

/** A remote server reached over HTTP. */
export interface McpHttpServerConfig extends McpServerCommon {
  /** `http`: Streamable HTTP, falling back to the legacy HTTP+SSE transport; or one of them only. */
  transport: 'http' | 'streamable_http' | 'sse';
  url: string;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  auth?: McpAuthConfig;
}

/** One MCP server. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;
