import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { reportRejection } from '../../core/report-rejection.js';
import { HttpError } from '../../http/http-error.js';
import { importSdk } from '../sdk.js';
import type { CorvidMcpServer } from './create-mcp-server.js';
import { MemoryEventStore } from './memory-event-store.js';
import { EXECUTE_STATUS } from './tool-runner.js';

/** Options of `serveMcpHttp`. */
export interface McpHttpOptions {
  /** Port; 0 picks a free one. Default 3000. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Also serve the REST gateway (`GET /tools`, `POST /execute`, `GET /health`). Default true. */
  rest?: boolean;
  /**
   * Checks the bearer token of each request (MCP and REST; `/health` is open). Return false to
   * answer 401. Without it every request is accepted.
   */
  authenticate?: (token: string | undefined, request: IncomingMessage) => boolean | Promise<boolean>;
  /** Largest request body, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Host names (without port) accepted in the `Host` header. Default, when listening on a
   * loopback address: `localhost`, `127.0.0.1` and `[::1]` only — DNS rebinding protection;
   * otherwise any.
   */
  allowedHosts?: string[];
  /**
   * Resumable SSE streams: each session keeps its recent events in memory, so a client that
   * lost the connection reconnects with `Last-Event-ID` and gets what it missed; streams start
   * with a priming event and a `retry` hint. `false` turns it off. Default on, `retryMs` 1000,
   * `maxEventsPerStream` 500.
   */
  resumability?: false | { retryMs?: number; maxEventsPerStream?: number };
}

/** A running HTTP server. */
export interface McpHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly mcpUrl: string;
  readonly port: number;
  /** Stops listening and ends every MCP session. */
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, 'validation', `request body larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'validation', 'the request body is not valid JSON');
  }
}

const bearer = (req: IncomingMessage): string | undefined => {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h) : null;
  return m ? m[1].trim() : undefined;
};

/**
 * Serves a Corvid MCP server over Streamable HTTP (stateful sessions, SSE streams for progress)
 * at `path`, plus a plain REST gateway for clients that do not speak MCP:
 * - `GET /tools` → `{ tools: [{ name, description, inputSchema }] }`
 * - `POST /execute` with `{ tool, arguments }` → `{ result }` (200), or `{ error: { type, message } }`
 *   with `type` `not_found` (404), `validation` (400), `execution` (500) or `authentication` (401)
 * - `GET /health` → `{ status: 'ok', name, version, tools }`
 */
export async function serveMcpHttp(corvid: CorvidMcpServer, options: McpHttpOptions = {}): Promise<McpHttpServer> {
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }] = await importSdk(() =>
    Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), import('@modelcontextprotocol/sdk/types.js')]),
  );
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const rest = options.rest !== false;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const resumability = options.resumability === false ? undefined : (options.resumability ?? {});

  const authorized = async (req: IncomingMessage): Promise<boolean> =>
    options.authenticate ? options.authenticate(bearer(req), req) : true;

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const body = req.method === 'POST' ? await readJson(req, limit) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (req.method === 'POST' && !sessionId && isInitializeRequest(body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
        ...(resumability
          ? { eventStore: new MemoryEventStore(resumability.maxEventsPerStream), retryInterval: resumability.retryMs ?? 1000 }
          : {}),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await corvid.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    const message = sessionId
      ? `Unknown or expired session "${String(sessionId)}"`
      : 'Bad request: start with an initialize request (no session id given)';
    sendJson(res, sessionId ? 404 : 400, { jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  };

  const handleRest = async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> => {
    if (pathname === '/tools' && req.method === 'GET') {
      sendJson(res, 200, { tools: corvid.listTools() });
      return true;
    }
    if (pathname === '/execute' && req.method === 'POST') {
      const body = (await readJson(req, limit)) as { tool?: unknown; arguments?: unknown } | undefined;
      if (!body || typeof body !== 'object' || typeof body.tool !== 'string') {
        throw new HttpError(400, 'validation', 'the body must be JSON: { "tool": "<name>", "arguments": { ... } }');
      }
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const outcome = await corvid.callTool(body.tool, body.arguments ?? {}, { signal: controller.signal });
      if (outcome.ok) sendJson(res, 200, { result: outcome.output ?? null });
      else
        sendJson(res, EXECUTE_STATUS[outcome.kind], {
          error: { type: outcome.kind, message: outcome.message },
        });
      return true;
    }
    return false;
  };

  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/.test(host);
  const allowedHosts = options.allowedHosts ?? (loopback ? ['localhost', '127.0.0.1', '[::1]'] : undefined);
  const hostAllowed = (req: IncomingMessage): boolean => {
    if (!allowedHosts) return true;
    const header = req.headers.host ?? '';
    const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0];
    return allowedHosts.includes(name.toLowerCase());
  };

  const server = createServer((req, res) => {
    void (async () => {
      const { pathname } = new URL(req.url ?? '/', 'http://localhost');
      try {
        if (!hostAllowed(req))
          throw new HttpError(403, 'forbidden', `Host "${req.headers.host ?? ''}" is not allowed (DNS rebinding protection)`);
        if (pathname === '/health' && req.method === 'GET' && rest) {
          sendJson(res, 200, { status: 'ok', name: corvid.name, version: corvid.version, tools: corvid.listTools().length });
          return;
        }
        if (!(await authorized(req))) {
          throw new HttpError(
            401,
            'authentication',
            bearer(req) ? 'the bearer token was refused' : 'a bearer token is required (Authorization: Bearer <token>)',
          );
        }
        if (pathname === path) return await handleMcp(req, res);
        if (rest && (await handleRest(req, res, pathname))) return;
        throw new HttpError(404, 'not_found', `no route for ${req.method} ${pathname}`);
      } catch (err) {
        const e = HttpError.isInstance(err) ? err : new HttpError(500, 'internal', (err as Error)?.message ?? String(err));
        const headers: Record<string, string> = e.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
        sendJson(res, e.status, { error: { type: e.wireCode, message: e.message } }, headers);
      }
    })().catch(reportRejection(`MCP HTTP ${req.method} ${req.url}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    mcpUrl: `${url}${path}`,
    port,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
