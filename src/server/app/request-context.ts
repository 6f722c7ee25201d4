import type { IncomingMessage, ServerResponse } from 'node:http';

import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';

import { newId } from '../../http/new-id.js';
import { limitUnreadBody } from '../../http/refuse-body.js';
import { requestHeader } from '../../http/request-header.js';
import type { ServerMetrics } from '../observability/server-metrics.js';
import type { ServerEnv } from './server-env.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What `requestContext` needs. */
export interface RequestContextOptions {
  logger: Logger;
  metrics: ServerMetrics;
  /** Largest request body: one a route left unread is limited after its answer. */
  maxBodyBytes: number;
}

/**
 * The first middleware of every request: its id (`x-request-id`, the client's when well-formed),
 * a child logger, an anonymous principal until auth says otherwise; after the route, the id on
 * the answer, the unread body limited, the request counted in the metrics and logged.
 */
export function requestContext({ logger, metrics, maxBodyBytes }: RequestContextOptions): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const started = performance.now();
    const given = requestHeader(c, 'x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : newId();
    const log = logger.level === 'silent' ? logger : logger.child({ reqId: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('principal', { kind: 'anonymous' });
    c.set('client', 'anonymous');
    // On Node the header goes on the socket's response directly: no web `Headers` object for
    // each response (`c.header()` after the handler would even rebuild the Response).
    const { incoming, outgoing } = (c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined) ?? {};
    const direct = outgoing !== undefined && typeof outgoing.setHeader === 'function' ? outgoing : undefined;
    direct?.setHeader('x-request-id', requestId);
    await next();
    // A body the route did not read (all of) is still limited: dropped as it comes, refused past the limit.
    if (incoming && direct && !incoming.complete) limitUnreadBody(incoming, direct, maxBodyBytes);
    if (!direct) {
      try {
        c.res.headers.set('x-request-id', requestId);
      } catch {
        c.header('x-request-id', requestId); // immutable headers (a proxied Response)
      }
    }
    // A route that answered on the Node response itself (the A2A v0.3 REST bridge) leaves hono a
    // placeholder 200: the status sent is the socket's.
    const status = direct?.headersSent ? direct.statusCode : c.res.status;
    const route = matchedRoute(c, status);
    const seconds = (performance.now() - started) / 1000;
    metrics.request(route, c.req.method, status, seconds);
    if (log.isLevelEnabled('info'))
      log.info({ method: c.req.method, path: c.req.path, route, status, ms: Math.round(seconds * 1000 * 10) / 10 }, 'request');
  };
}

/** The route template that answered (metrics label), `unmatched` for a 404 without one. */
function matchedRoute(c: Parameters<typeof routePath>[0], status: number): string {
  try {
    const r = routePath(c, -1);
    return r && r !== '/*' && r !== '*' ? r : status === 404 ? 'unmatched' : c.req.path;
  } catch {
    return 'unmatched'; // No route matched.
  }
}
