import { dirname } from 'node:path';

import type { Context, Hono } from 'hono';

import { ConfigError } from '../../errors/config-error.js';
import { HttpError } from '../../http/http-error.js';
import { readBodyText } from '../../http/read-body.js';
import type { McpWebHandler } from '../../mcp/server/mcp-web-handler.js';
import type { ServedCaller } from '../../mcp/server/tool-runner.js';
import type { Runtime } from '../../runtime/load-runtime.js';
import type { Store } from '../../types/storage/store.js';
import type { ServerAppParts } from '../app/create-server-app.js';
import type { ServedRuntime } from '../app/served-runtime.js';
import type { ServerEnv } from '../app/server-env.js';
import { principalUser } from '../auth/principal.js';
import { checkToolScopes, toolScopeRefusal } from '../auth/tool-scopes.js';

/** Options of `registerMcpRoutes`. */
export interface McpRoutesOptions {
  /** Largest request body (the server's `max_body_bytes`). */
  maxBodyBytes: number;
  /** Where relative paths of a runtime without a config file point from. Default `process.cwd()`. */
  cwd?: string;
  /** The store chat turns run in: agents served as tools run there as sessions of their caller. */
  store?: () => Promise<Store>;
}

/**
 * Serves the config over MCP beside the server's other protocols, under the same auth, limits,
 * metrics and logs: Streamable HTTP at `/mcp` (every tool of the config, its agents as tools —
 * public ones, and internal ones when auth is on — and the resources and prompts of `mcp:`),
 * and the REST tool gateway at `GET /tools` and `POST /execute`. Every call runs as its caller
 * (tools see the user the principal speaks for, as in a chat turn), under the tool scope rule
 * (`toolScopeRefusal`); an MCP session belongs to the user that opened it. The MCP SDK is loaded
 * on the first request; a config reload serves the new config to new MCP sessions.
 */
export function registerMcpRoutes(app: Hono<ServerEnv>, parts: ServerAppParts, options: McpRoutesOptions): void {
  let current: { runtime: ServedRuntime; handler: Promise<McpWebHandler> } | undefined;
  const handlerFor = (): Promise<McpWebHandler> => {
    const runtime = parts.runtime();
    if (current?.runtime === runtime) return current.handler;
    const previous = current?.handler;
    const handler = (async () => {
      const [{ McpWebHandler }, { mcpServedParts }, { createMcpServer }] = await Promise.all([
        import('../../mcp/server/mcp-web-handler.js'),
        import('../../runtime/mcp-served-parts.js'),
        import('../../mcp/server/create-mcp-server.js'),
      ]);
      const agents = [...runtime.agents.values()].filter((a) => {
        const v = parts.access.visibility(a.name);
        return v === 'public' || (v === 'internal' && parts.access.authEnabled);
      });
      const baseDir = runtime.configPath ? dirname(runtime.configPath) : (options.cwd ?? process.cwd());
      return new McpWebHandler({ server: async () => createMcpServer(await mcpServedParts(runtime as Runtime, { agents, baseDir })) });
    })();
    current = { runtime, handler };
    // Sessions of the previous config end; their clients start new ones.
    if (previous) void previous.then((h) => h.close()).catch(() => undefined);
    return handler;
  };
  const jsonBody = async (c: Context): Promise<unknown> => {
    const text = await readBodyText(c, options.maxBodyBytes);
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new HttpError(400, 'invalid_request', 'The request body is not valid JSON');
    }
  };
  const available = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof ConfigError && /@modelcontextprotocol\/sdk/.test(err.message))
        throw new HttpError(503, 'unavailable', err.message);
      throw err;
    }
  };

  // Every call runs as its caller: the user the principal speaks for, under the tool scope rule.
  const callerOf = (c: Context<ServerEnv>): ServedCaller => {
    const principal = c.get('principal');
    checkToolScopes(principal, 'list');
    const userId = principalUser(principal);
    const refusal = toolScopeRefusal(principal, 'call');
    // Agents served as tools run as sessions of their caller: in the chat's store, else the runtime's (that of its memory tools).
    const runtime = parts.runtime();
    const store = options.store ?? (runtime.store ? () => runtime.store!() : undefined);
    return {
      ...(userId !== undefined ? { userId } : {}),
      authEnabled: parts.auth.enabled,
      ...(refusal !== undefined ? { refusal } : {}),
      ...(store ? { store } : {}),
    };
  };

  app.all('/mcp', async (c) => {
    const caller = callerOf(c);
    const body = c.req.method === 'POST' ? await jsonBody(c) : undefined;
    return available(async () => (await handlerFor()).handle(c.req.raw, body, caller));
  });
  app.get('/tools', (c) => {
    callerOf(c);
    return available(async () => (await handlerFor()).tools());
  });
  app.post('/execute', async (c) => {
    const caller = callerOf(c);
    const body = await jsonBody(c);
    const controller = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
    return available(async () => (await handlerFor()).execute(body, controller.signal, caller));
  });
}
