import type { Context } from 'hono';

import type { ServerConfig } from '../../config/corvid-config.js';
import { HttpError } from '../../http/http-error.js';
import { jsonBodyProblem } from '../../http/json-content-type.js';
import { requestHeader } from '../../http/request-header.js';

/** Options of `RequestGuards`. */
export interface RequestGuardsOptions {
  /** `server.base_url` (its origin is the server's own), `server.cors.origins` and `server.tls`. */
  server: Pick<ServerConfig, 'baseUrl' | 'cors' | 'tls'>;
  /**
   * Paths whose routes check the body's `Content-Type` themselves, answering in their own
   * protocol's error format (the A2A routes): the content-type check skips them. Default none.
   */
  ownBodyCheck?: (path: string) => boolean;
}

/** The origin (`scheme://host[:port]`, default ports dropped, lower case) of a URL, or undefined. */
function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Cross-site request forgery guards, for every route of the server (one middleware calls
 * `check`):
 * - a request that changes state (any method but GET, HEAD and OPTIONS) and has a body must send
 *   it as JSON (`application/json` or `application/*+json`): 415 `unsupported_media_type`
 *   otherwise. Forms and `text/plain` are what a page of another site can send without a CORS
 *   preflight;
 * - a request that changes state, or a WebSocket upgrade, with an `Origin` header must come from
 *   the server's own origin (the request's scheme and `Host`, or `server.base_url`) or one of
 *   `server.cors.origins` (`*`: any): 403 `origin_not_allowed` otherwise. Requests without an
 *   `Origin` (curl, SDKs, other servers) pass; so do GETs, whose answers a page of another site
 *   cannot read without CORS.
 */
export class RequestGuards {
  private readonly anyOrigin: boolean;
  private readonly allowed: Set<string>;
  private readonly scheme: 'http' | 'https';
  private readonly ownBodyCheck: (path: string) => boolean;

  constructor(options: RequestGuardsOptions) {
    const origins = options.server.cors?.origins ?? [];
    this.anyOrigin = origins.includes('*');
    this.allowed = new Set<string>();
    for (const o of origins) {
      // `null` (sandboxed frames, file: pages) is allowed only when listed as such.
      if (o === 'null') this.allowed.add('null');
      else this.allowed.add(originOf(o) ?? o.toLowerCase());
    }
    const base = options.server.baseUrl !== undefined ? originOf(options.server.baseUrl) : undefined;
    if (base !== undefined) this.allowed.add(base);
    this.scheme = options.server.tls ? 'https' : 'http';
    this.ownBodyCheck = options.ownBodyCheck ?? (() => false);
  }

  /** Throws the 403 or 415 `HttpError` a request gets, if any (see the class). */
  check(c: Context): void {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
      if (method === 'GET' && requestHeader(c, 'upgrade') !== undefined) this.checkOrigin(c);
      return;
    }
    this.checkOrigin(c);
    if (this.ownBodyCheck(c.req.path)) return;
    const problem = jsonBodyProblem({
      'content-type': requestHeader(c, 'content-type'),
      'content-length': requestHeader(c, 'content-length'),
      'transfer-encoding': requestHeader(c, 'transfer-encoding'),
    });
    if (problem !== undefined) throw new HttpError(415, 'unsupported_media_type', problem);
  }

  /** 403 for an `Origin` that is neither the server's own nor allowed by `server.cors.origins`. */
  checkOrigin(c: Context): void {
    const origin = requestHeader(c, 'origin');
    if (origin === undefined || this.anyOrigin) return;
    if (this.originAllowed(origin, requestHeader(c, 'host'), requestHeader(c, 'x-forwarded-proto'))) return;
    throw new HttpError(
      403,
      'origin_not_allowed',
      `Origin "${origin.slice(0, 200)}" is not allowed: the server accepts browser requests only from its own origin and the origins of server.cors.origins`,
    );
  }

  /**
   * True for the server's own origin — the scheme the request came in with (`https` with TLS;
   * behind a proxy, an `X-Forwarded-Proto` of http or https) and its `Host` — `server.base_url`'s
   * origin, and `server.cors.origins`. (A page of another site cannot set `X-Forwarded-Proto`
   * without a CORS preflight, so trusting it does not help one.)
   */
  originAllowed(origin: string, host: string | undefined, forwardedProto?: string): boolean {
    const trimmed = origin.trim();
    if (trimmed === 'null') return this.allowed.has('null');
    const normal = originOf(trimmed);
    if (normal === undefined) return false;
    if (this.allowed.has(normal)) return true;
    if (host === undefined || host === '') return false;
    const proto = forwardedProto?.split(',', 1)[0].trim().toLowerCase();
    const scheme = proto === 'http' || proto === 'https' ? proto : this.scheme;
    return originOf(`${scheme}://${host.trim()}`) === normal;
  }
}
