import { IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';

import type { Context, Hono } from 'hono';

import { bodyTypeProblem, readRequestBody } from '../../http/read-body.js';
import type { A2AAgentEntry, A2AAgentRegistry } from '../server/a2a-agent-registry.js';
import { wantsLegacy } from '../server/call-context.js';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * True when the optional package the v0.3 HTTP+JSON binding needs (express) is installed. It is
 * only resolved here: loading it costs ~16 MB and ~75 ms, paid on the first v0.3 REST request.
 */
export async function legacyRestAvailable(): Promise<boolean> {
  try {
    createRequire(import.meta.url).resolve('express');
    return true;
  } catch {
    return false;
  }
}

function restError(status: number, message: string): Response {
  // v0.3 errors carry JSON-RPC style codes: -32005 is "content type not supported".
  const code = status === 404 ? -32601 : status === 415 ? -32005 : -32600;
  return new Response(JSON.stringify({ code, message }), { status, headers: { 'content-type': 'application/json' } });
}

/** An error out of the Express app as a v0.3 REST error (JSON, never Express's HTML page with a stack). */
function expressError(err: unknown, res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const e = err as { status?: unknown; type?: unknown; message?: unknown };
  const status = typeof e?.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 500;
  const body =
    e?.type === 'entity.parse.failed'
      ? { code: -32700, message: 'Invalid JSON payload.' }
      : status === 500
        ? { code: -32603, message: 'Internal error' }
        : { code: -32600, message: typeof e.message === 'string' ? e.message : 'Bad request' };
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * The HTTP+JSON binding of protocol v0.3 (`/a2a/:name/rest/v1/...`, requests without
 * `A2A-Version` or with 0.3), served by the SDK's own v0.3 REST router — only published for
 * Express, so it gets a Node request (a copy with the body replayed) and the Node response of
 * @hono/node-server, and the hono response is marked as already sent.
 */
export function mountLegacyRest(
  app: Hono,
  deps: {
    registry: A2AAgentRegistry;
    visible: (name: string, c: Context) => boolean;
    maxBody: number;
    owner?: (c: Context) => string | undefined;
  },
): void {
  const routers = new WeakMap<A2AAgentEntry, Promise<NodeHandler>>();
  // The caller of each replayed request, for the SDK's user builder (express hands it the request).
  const owners = new WeakMap<IncomingMessage, string>();
  const routerFor = (entry: A2AAgentEntry): Promise<NodeHandler> => {
    let router = routers.get(entry);
    if (!router) {
      router = (async () => {
        const [{ default: express }, { legacyRestRouter }, { UnauthenticatedUser }, { OwnerUser }] = await Promise.all([
          import('express'),
          import('@a2a-js/sdk/compat/v0_3/server/express'),
          import('@a2a-js/sdk/server'),
          import('../server/call-owner.js'),
        ]);
        const expressApp = express();
        expressApp.disable('x-powered-by');
        // The body is parsed here with the server's limit, as the SDK's router would (its own
        // parser, which then skips the parsed body, has Express's 100 KB default).
        expressApp.use(express.json({ type: 'application/json', strict: false, limit: deps.maxBody }));
        expressApp.use(
          legacyRestRouter({
            requestHandler: entry.handler,
            userBuilder: async (req: IncomingMessage) => {
              const owner = owners.get(req);
              return owner ? new OwnerUser(owner) : new UnauthenticatedUser();
            },
          }),
        );
        return expressApp as unknown as NodeHandler;
      })();
      routers.set(entry, router);
    }
    return router;
  };

  app.all('/a2a/:name/rest/v1/*', async (c: Context, next) => {
    if (!wantsLegacy(c)) return next();
    const name = c.req.param('name') ?? '';
    if (!deps.visible(name, c)) return restError(404, `Unknown agent "${name}"`);
    const badType = c.req.method === 'GET' ? undefined : bodyTypeProblem(c.req.raw, c.env);
    if (badType) return restError(415, badType);
    const entry = await deps.registry.get(name);
    if (!entry) return restError(404, `Unknown agent "${name}"`);
    const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    const incoming = env?.incoming;
    const outgoing = env?.outgoing;
    if (!incoming || !outgoing || outgoing.headersSent)
      return restError(
        501,
        'The v0.3 HTTP+JSON binding is served only by a Node HTTP server (@hono/node-server); use JSON-RPC or v1.0 HTTP+JSON',
      );
    const body = await readRequestBody(c.req.raw, deps.maxBody, c.env);
    if (!body.ok)
      return restError(
        body.reason === 'too_large' ? 413 : 400,
        body.reason === 'too_large' ? `Request body larger than ${deps.maxBody} bytes` : 'Could not read the request body',
      );
    let handler: NodeHandler;
    try {
      handler = await routerFor(entry);
    } catch {
      return restError(501, 'The v0.3 HTTP+JSON binding needs the optional package express: run "npm install express"');
    }
    // Express gets a copy of the request (the body, already read, replayed) at its own path.
    const url = incoming.url ?? '';
    const request = replay(incoming, url.slice(url.indexOf('/rest/v1/') + '/rest'.length), Buffer.from(body.text, 'utf8'));
    const owner = deps.owner?.(c);
    if (owner) owners.set(request, owner);
    await new Promise<void>((resolve) => {
      outgoing.once('close', resolve);
      outgoing.once('finish', resolve);
      handler(request, outgoing, (err) => {
        if (err !== undefined) expressError(err, outgoing);
        else if (!outgoing.headersSent)
          outgoing
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ code: -32601, message: `No A2A v0.3 REST operation at ${request.url?.slice(0, 200)}` }));
        resolve();
      });
    });
    const { RESPONSE_ALREADY_SENT } = await import('@hono/node-server/utils/response');
    return RESPONSE_ALREADY_SENT;
  });
}

/** A copy of `incoming` at `url` whose body is `body` (the original's was read already). */
function replay(incoming: IncomingMessage, url: string, body: Buffer): IncomingMessage {
  const request = new IncomingMessage(incoming.socket);
  request.method = incoming.method;
  request.url = url;
  request.httpVersion = incoming.httpVersion;
  request.httpVersionMajor = incoming.httpVersionMajor;
  request.httpVersionMinor = incoming.httpVersionMinor;
  const headers = { ...incoming.headers, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  request.headers = headers;
  // Complete, so ending it does not count as an aborted request (which would close the socket).
  request.complete = true;
  if (body.length > 0) request.push(body);
  request.push(null);
  return request;
}
