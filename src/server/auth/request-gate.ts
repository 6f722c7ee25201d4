import type { Context, MiddlewareHandler } from 'hono';

import { HttpError } from '../../http/http-error.js';
import { checkContentLength } from '../../http/read-body.js';
import { requestHeader } from '../../http/request-header.js';
import type { ServerAppParts } from '../app/server-app-parts.js';
import type { ServerEnv } from '../app/server-env.js';
import { principalUser } from './principal.js';
import { RequestGuards } from './request-guards.js';

/** A2A paths naming an agent: `/a2a/{name}…` and `/agents/{name}/…`. */
const A2A_AGENT_PATH = /^\/(?:a2a|agents)\/([^/]+)/;

/** What `requestGate` needs. */
export interface RequestGateOptions {
  parts: Pick<ServerAppParts, 'server' | 'auth' | 'limiter' | 'maxBodyBytes'>;
  /** Paths whose routes check a body's Content-Type (and size) themselves, in their protocol's format. */
  ownBodyCheck?: (path: string) => boolean;
  /** Host names accepted in `Host` (see `ServerAppOptions.allowedHosts`). */
  allowedHosts?: string[];
  /** Remote address of a request. */
  clientAddress: (c: Context) => string | undefined;
  /** Paths open without credentials besides `server.auth.public_paths` (the Studio's static files). */
  openPath?: (path: string) => boolean;
}

/** Answers whether a `Host` header names an allowed host; the last answer is kept (clients send the same one every time). */
function hostCheck(allowed: Set<string>): (header: string) => boolean {
  let lastHost: string | undefined;
  let lastAllowed = false;
  return (header) => {
    if (header !== lastHost) {
      lastHost = header;
      lastAllowed = allowed.has((header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0]!).toLowerCase());
    }
    return lastAllowed;
  };
}

/**
 * One middleware for every guard, in order: body size, Host, Origin and body type (CSRF),
 * authentication, rate limits. Sets the request's `principal` and rate-limit `client`.
 */
export function requestGate({
  parts,
  ownBodyCheck,
  allowedHosts,
  clientAddress,
  openPath,
}: RequestGateOptions): MiddlewareHandler<ServerEnv> {
  const { server, auth, limiter, maxBodyBytes } = parts;
  const guards = new RequestGuards({ server, ownBodyCheck });
  const hosts = allowedHosts ?? (auth.enabled ? undefined : ['localhost', '127.0.0.1', '[::1]']);
  const hostAllowed = hosts && !hosts.includes('*') ? hostCheck(new Set(hosts.map((h) => h.toLowerCase()))) : undefined;
  const by = server.rateLimit?.by ?? 'user';
  return async (c, next) => {
    // A declared content-length over the limit is refused here (routes with their own body check,
    // the A2A routes, answer it in their protocol's format). Every body is read where it is used,
    // from the socket and with the same limit (read-incoming.ts), so bodies sent without a
    // content-length are limited too, and one a route does not read is limited after its answer
    // (limitUnreadBody, in requestContext). (hono's bodyLimit would build a web Request and
    // stream for every request, the largest cost of a small one.)
    const method = c.req.method;
    const path = c.req.path;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && !ownBodyCheck?.(path)) checkContentLength(c, maxBodyBytes);
    if (hostAllowed) {
      const header = requestHeader(c, 'host') ?? '';
      if (!hostAllowed(header)) {
        throw new HttpError(
          403,
          'host_not_allowed',
          `Host "${header.slice(0, 100)}" is not allowed: without server.auth the server only answers requests for localhost, 127.0.0.1 and [::1] (DNS rebinding protection)`,
        );
      }
    }
    guards.check(c);
    const open = !auth.enabled || auth.isPublic(path) || method === 'OPTIONS' || (openPath?.(path) ?? false);
    // Without auth every caller is anonymous (set by requestContext): no credential to look at.
    if (auth.enabled) {
      let principal;
      try {
        principal = await auth.identify((n) => requestHeader(c, n.toLowerCase()));
      } catch (err) {
        if (!open || !(err instanceof HttpError)) throw err;
        principal = undefined;
      }
      if (principal) c.set('principal', principal);
    }
    if (!open) auth.require(c.get('principal'), path);
    const p = c.get('principal');
    const ip = clientAddress(c) ?? 'unknown';
    const client =
      by === 'ip'
        ? `ip:${ip}`
        : by === 'key' && p.kind === 'api_key'
          ? `key:${p.name}`
          : (principalUser(p) && `user:${principalUser(p)}`) || `ip:${ip}`;
    c.set('client', client);
    if (limiter && !(auth.isPublic(path) && (path === '/health' || path === '/ready'))) {
      await limiter.hit(client);
      // A2A calls may run the agent (their tokens are charged when the run ends): refused once the client used its tokens.
      if (A2A_AGENT_PATH.test(path) && method === 'POST') await limiter.checkTokens(client);
    }
    await next();
  };
}
