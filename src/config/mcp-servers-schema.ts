import { z } from 'zod';

import type { McpAuthConfig, McpServerConfig } from '../mcp/mcp-server-config.js';

/** MCP server ids: they prefix tool names (`<server>_<tool>`). */
export const MCP_SERVER_ID = /^[a-zA-Z0-9_-]{1,64}$/;

const positiveInt = () => z.int().positive();
const absoluteUrl = () =>
  z.string().refine((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), { error: 'must be an absolute http(s) URL' });

/** `auth:` of a remote MCP server. */
export const mcpAuthSchema = z
  .discriminatedUnion(
    'type',
    [
      z
        .strictObject({
          type: z.literal('bearer'),
          token: z.string().min(1).describe('The token, sent as `Authorization: Bearer <token>`; use `${ENV_VAR}`. Never printed.'),
        })
        .describe('A static bearer token (API keys).'),
      z
        .strictObject({
          type: z.literal('oauth'),
          client_id: z.string().min(1).optional().describe('A pre-registered client id. Default: dynamic client registration (RFC 7591).'),
          client_secret: z.string().min(1).optional().describe('Secret of a pre-registered confidential client; use `${ENV_VAR}`.'),
          scopes: z.array(z.string().min(1)).optional().describe('Scopes to ask for. Default: those the server advertises.'),
          callback_port: z
            .int()
            .min(1)
            .max(65535)
            .optional()
            .describe('Port of the localhost callback receiving the authorization code. Default 8889.'),
          client_name: z.string().min(1).optional().describe('Client name shown on the consent page. Default Corvid.'),
          client_metadata_url: z
            .string()
            .refine((s) => URL.canParse(s) && new URL(s).protocol === 'https:' && new URL(s).pathname !== '/', {
              error: 'must be an https URL with a path, e.g. https://example.com/corvid/client.json',
            })
            .optional()
            .describe(
              'A Client ID Metadata Document (https URL) used as the client id when the authorization server supports it; else dynamic registration.',
            ),
        })
        .describe('OAuth 2.1 (authorization code with PKCE); `corvid mcp login <server>` signs in.'),
    ],
    { error: 'auth is { type: bearer, token } or { type: oauth, ... }' },
  )
  .describe('How Corvid authenticates to a remote server.');

/** One entry of `mcp_servers:`. */
export const mcpServerSchema = z
  .strictObject({
    command: z.string().min(1).optional().describe('stdio servers: the program to start, e.g. `npx` or `node`.'),
    args: z.array(z.string()).optional().describe('stdio servers: its arguments.'),
    env: z
      .record(z.string(), z.string())
      .optional()
      .describe('stdio servers: extra environment variables (the child inherits only PATH, HOME and a few others).'),
    cwd: z.string().min(1).optional().describe("stdio servers: working directory, relative to this file. Default: this file's directory."),
    url: absoluteUrl().optional().describe('Remote servers: the MCP endpoint, e.g. https://example.com/mcp.'),
    headers: z.record(z.string(), z.string()).optional().describe('Remote servers: extra HTTP headers.'),
    transport: z
      .enum(['stdio', 'http', 'streamable_http', 'sse'])
      .optional()
      .describe(
        'Default: `stdio` with `command`, `http` with `url` (Streamable HTTP, falling back to the legacy HTTP+SSE transport). `streamable_http` or `sse` force one.',
      ),
    auth: mcpAuthSchema.optional(),
    connect_timeout_ms: positiveInt()
      .optional()
      .describe('Time to start or reach the server and complete the handshake, in ms. Default 30000.'),
    call_timeout_ms: positiveInt().optional().describe('Time for one tool call, in ms. Default 60000.'),
    include: z.array(z.string().min(1)).optional().describe("Only these tools (the server's names)."),
    exclude: z.array(z.string().min(1)).optional().describe("Never these tools (the server's names)."),
    reload: z
      .enum(['watch', 'off'])
      .optional()
      .describe('`watch`: re-list the tools and restart the server when its files change. Default off.'),
    watch: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'With reload: watch — files or directories to watch (relative to this file). Default: the script files in command and args.',
      ),
  })
  .superRefine((s, ctx) => {
    const remote = s.url !== undefined;
    if (s.command === undefined && !remote)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'an MCP server needs "command" (a local stdio server) or "url" (a remote server)',
      });
    if (s.command !== undefined && remote)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either "command" (stdio) or "url" (remote), not both' });
    for (const key of ['args', 'env', 'cwd'] as const) {
      if (remote && s[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" applies only to stdio servers (with "command")` });
    }
    for (const key of ['headers', 'auth'] as const) {
      if (s.command !== undefined && s[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" applies only to remote servers (with "url")` });
    }
    if (s.transport !== undefined && s.command !== undefined && s.transport !== 'stdio') {
      ctx.addIssue({ code: 'custom', path: ['transport'], message: `a server with "command" uses transport stdio, not ${s.transport}` });
    }
    if (s.transport === 'stdio' && remote)
      ctx.addIssue({ code: 'custom', path: ['transport'], message: 'a server with "url" uses http, streamable_http or sse, not stdio' });
    if (s.watch !== undefined && s.reload !== 'watch')
      ctx.addIssue({ code: 'custom', path: ['watch'], message: '"watch" needs reload: watch' });
  })
  .describe('An MCP server: a local command (stdio) or a remote URL (Streamable HTTP / SSE).');

/** `mcp_servers:` — by id. */
export const mcpServersSchema = z
  .record(z.string().regex(MCP_SERVER_ID, { error: 'MCP server ids use 1-64 letters, digits, "_" or "-"' }), mcpServerSchema)
  .describe(
    'MCP servers by id; agents list an id (every tool of the server) or `id.tool` in their `tools`. Tools are named `<id>_<tool>`.',
  );

type FileMcpServer = z.output<typeof mcpServerSchema>;

function auth(a: FileMcpServer['auth']): McpAuthConfig | undefined {
  if (!a) return undefined;
  if (a.type === 'bearer') return { type: 'bearer', token: a.token };
  const out: McpAuthConfig = { type: 'oauth' };
  if (a.client_id !== undefined) out.clientId = a.client_id;
  if (a.client_secret !== undefined) out.clientSecret = a.client_secret;
  if (a.scopes !== undefined) out.scopes = a.scopes;
  if (a.callback_port !== undefined) out.callbackPort = a.callback_port;
  if (a.client_name !== undefined) out.clientName = a.client_name;
  if (a.client_metadata_url !== undefined) out.clientMetadataUrl = a.client_metadata_url;
  return out;
}

/** One schema-valid `mcp_servers` entry, normalised. */
export function normalizeMcpServer(s: FileMcpServer): McpServerConfig {
  const common = {
    connectTimeoutMs: s.connect_timeout_ms,
    callTimeoutMs: s.call_timeout_ms,
    include: s.include,
    exclude: s.exclude,
    reload: s.reload,
    watch: s.watch,
  };
  const out: McpServerConfig =
    s.command !== undefined
      ? { transport: 'stdio', command: s.command, args: s.args ?? [], env: s.env, cwd: s.cwd, ...common }
      : {
          transport: (s.transport as 'http' | 'streamable_http' | 'sse' | undefined) ?? 'http',
          url: s.url!,
          headers: s.headers,
          auth: auth(s.auth),
          ...common,
        };
  for (const k of Object.keys(out) as Array<keyof McpServerConfig>) if (out[k] === undefined) delete out[k];
  return out;
}

/** Every `mcp_servers` entry, normalised. */
export function normalizeMcpServers(servers: Record<string, FileMcpServer> | undefined): Record<string, McpServerConfig> {
  return Object.fromEntries(Object.entries(servers ?? {}).map(([id, s]) => [id, normalizeMcpServer(s)]));
}
