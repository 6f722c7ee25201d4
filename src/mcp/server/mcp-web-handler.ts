import { randomUUID } from 'node:crypto';

import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

import { importSdk } from '../sdk.js';
import { type CorvidMcpServer, servedAuthInfo } from './create-mcp-server.js';
import { MemoryEventStore } from './memory-event-store.js';
import { EXECUTE_STATUS, type ServedCaller } from './tool-runner.js';

/** Options of `McpWebHandler`. */
export interface McpWebHandlerOptions {
  /** The server to serve, built on the first request (so a server that is never asked costs nothing). */
  server: () => Promise<CorvidMcpServer>;
  /** Resumable SSE streams (see `McpHttpOptions.resumability`). Default on. */
  resumability?: false | { retryMs?: number; maxEventsPerStream?: number };
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A Corvid MCP server over Streamable HTTP for web-standard `Request`s (hono, `fetch` handlers),
 * with stateful sessions, plus the REST gateway's two operations (`tools`, `execute`). How
 * `corvid serve` serves MCP at `/mcp` beside its other protocols; authentication, limits and logs
 * are the host server's.
 */
export class McpWebHandler {
  /** Live sessions, each with the user that opened it (undefined: an anonymous caller). */
  private readonly sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; owner: string | undefined }>();
  private built: Promise<CorvidMcpServer> | undefined;

  constructor(private readonly options: McpWebHandlerOptions) {}

  /** The served MCP server (built on first use). */
  server(): Promise<CorvidMcpServer> {
    return (this.built ??= this.options.server().catch((err: unknown) => {
      this.built = undefined;
      throw err;
    }));
  }

  /**
   * Answers one MCP request; `body` is the parsed JSON body of a POST. Its tool calls run as
   * `caller`. A session belongs to the user that opened it: a request of anyone else naming it
   * gets 404, as an unknown session does.
   */
  async handle(request: Request, body: unknown, caller: ServedCaller = {}): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    const existing = sessionId ? this.sessions.get(sessionId) : undefined;
    const authInfo = servedAuthInfo(caller);
    if (existing && existing.owner === caller.userId) return existing.transport.handleRequest(request, { parsedBody: body, authInfo });
    const [{ WebStandardStreamableHTTPServerTransport }, { isInitializeRequest }] = await importSdk(() =>
      Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('@modelcontextprotocol/sdk/types.js')]),
    );
    if (request.method === 'POST' && !sessionId && isInitializeRequest(body)) {
      const resumability = this.options.resumability === false ? undefined : (this.options.resumability ?? {});
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void this.sessions.set(id, { transport, owner: caller.userId }),
        ...(resumability
          ? { eventStore: new MemoryEventStore(resumability.maxEventsPerStream), retryInterval: resumability.retryMs ?? 1000 }
          : {}),
      });
      transport.onclose = () => {
        if (transport.sessionId) this.sessions.delete(transport.sessionId);
      };
      await (await this.server()).connect(transport);
      return transport.handleRequest(request, { parsedBody: body, authInfo });
    }
    const message = sessionId
      ? `Unknown or expired session "${sessionId.slice(0, 100)}"`
      : 'Bad request: start with an initialize request (no session id given)';
    return json(sessionId ? 404 : 400, { jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  }

  /** `GET /tools` of the REST gateway. */
  async tools(): Promise<Response> {
    return json(200, { tools: (await this.server()).listTools() });
  }

  /** `POST /execute` of the REST gateway, run as `caller`: `{ tool, arguments }` → `{ result }` or `{ error: { type, message } }`. */
  async execute(body: unknown, signal: AbortSignal, caller: ServedCaller = {}): Promise<Response> {
    const b = body as { tool?: unknown; arguments?: unknown } | undefined;
    if (!b || typeof b !== 'object' || typeof b.tool !== 'string') {
      return json(400, { error: { type: 'validation', message: 'the body must be JSON: { "tool": "<name>", "arguments": { ... } }' } });
    }
    const outcome = await (await this.server()).callTool(b.tool, b.arguments ?? {}, { signal, caller });
    if (outcome.ok) return json(200, { result: outcome.output ?? null });
    return json(EXECUTE_STATUS[outcome.kind], {
      error: { type: outcome.kind, message: outcome.message },
    });
  }

  /** Ends every MCP session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.sessions.clear();
  }
}
