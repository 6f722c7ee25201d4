import type { Context, Hono } from 'hono';
import type { z } from 'zod';

import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { McpHub } from '../../mcp/mcp-hub.js';
import type { McpServerStatus } from '../../mcp/types.js';
import { parseJsonBody, parseOr400 } from '../api/request-schemas.js';
import type { ServedRuntime } from '../app/served-runtime.js';
import type { ServerEnv } from '../app/server-env.js';
import { checkToolScopes } from '../auth/tool-scopes.js';
import { mcpCallSchema, type mcpServerListSchema } from '../studio/studio-schemas.js';

type ServerView = z.output<typeof mcpServerListSchema>['servers'][number];

/** What the MCP server routes need. */
export interface McpServerRoutesOptions {
  runtime: () => ServedRuntime;
  /** Whether the server authenticates callers. */
  authEnabled: boolean;
  maxBodyBytes: number;
}

function hubOf(runtime: ServedRuntime): McpHub {
  if (!runtime.mcp) throw new HttpError(404, 'no_mcp_servers', 'This server has no MCP servers: add an mcp_servers: section to the config');
  return runtime.mcp;
}

function statusOf(s: McpServerStatus): ServerView['status'] {
  if (s.state === 'connected') return 'connected';
  return s.state === 'failed' ? 'error' : 'idle';
}

/** Checks that the caller may call MCP tools by hand: authenticated when auth is on, and allowed by the tool scope rule (`checkToolScopes`). */
function checkCallPermission(c: Context<ServerEnv>, authEnabled: boolean): void {
  if (!authEnabled) return;
  const p = c.get('principal');
  if (p.kind === 'anonymous')
    throw new HttpError(401, 'unauthorized', 'Calling an MCP tool needs a credential', { headers: { 'www-authenticate': 'Bearer' } });
  checkToolScopes(p, 'call');
}

/**
 * Registers `GET /api/v1/mcp/servers` (the config's MCP servers with their status and tools;
 * `?connect=true` connects idle servers first) and
 * `POST /api/v1/mcp/servers/{name}/tools/{tool}/call` `{ arguments }` → `{ content, isError }`.
 * Calling needs, with auth on, a credential, and when the credential has scopes, `admin`,
 * `tools:call` or `mcp:call`. A config without `mcp_servers:` answers 404 `no_mcp_servers`.
 */
export function registerMcpServerRoutes(app: Hono<ServerEnv>, options: McpServerRoutesOptions): void {
  app.get('/api/v1/mcp/servers', async (c) => {
    checkToolScopes(c.get('principal'), 'list');
    const runtime = options.runtime();
    if (!runtime.mcp) return c.json({ servers: [] });
    const hub = runtime.mcp;
    const connect = c.req.query('connect') === 'true';
    const servers = await Promise.all(
      hub.status().map(async (s): Promise<ServerView> => {
        let error = s.error;
        let tools: ServerView['tools'] = [];
        if (s.state === 'connected' || (connect && s.state !== 'failed')) {
          try {
            tools = (await hub.listTools(s.id)).map((t) => ({
              name: t.name,
              ...(t.description !== undefined ? { description: t.description } : {}),
              inputSchema: { ...(t.inputSchema as Record<string, unknown>) },
            }));
          } catch (err) {
            error = (err as Error).message;
          }
        }
        const now = hub.status().find((x) => x.id === s.id) ?? s;
        const view: ServerView = {
          name: s.id,
          transport: now.transport,
          status: error !== undefined && now.state !== 'connected' ? 'error' : statusOf(now),
          tools,
        };
        if (error !== undefined && view.status === 'error') view.error = error;
        return view;
      }),
    );
    return c.json({ servers });
  });

  app.post('/api/v1/mcp/servers/:name/tools/:tool/call', async (c) => {
    const text = await readBodyText(c, options.maxBodyBytes);
    checkCallPermission(c, options.authEnabled);
    const hub = hubOf(options.runtime());
    const name = c.req.param('name');
    if (!hub.ids.includes(name))
      throw new HttpError(404, 'mcp_server_not_found', `Unknown MCP server "${name.slice(0, 100)}". Servers: ${hub.ids.join(', ')}`);
    const body = parseOr400(mcpCallSchema, text.trim() === '' ? {} : parseJsonBody(text), 'tool call');
    const tool = c.req.param('tool');
    const tools = await hub.listTools(name);
    if (!tools.some((t) => t.name === tool))
      throw new HttpError(
        404,
        'tool_not_found',
        `MCP server "${name}" has no tool "${tool.slice(0, 100)}". Tools: ${tools.map((t) => t.name).join(', ')}`,
      );
    const result = await hub.callTool(name, tool, body.arguments ?? {}, { signal: c.req.raw.signal });
    c.get('log').info({ server: name, tool, isError: result.isError === true }, 'MCP tool called by hand');
    const content = result.content
      ? result.content.map((b) => ({ ...b }))
      : [{ type: 'text', text: JSON.stringify(result.toolResult ?? null) }];
    return c.json({
      content,
      isError: result.isError === true,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    });
  });
}
