import type { ServerConfig } from '../../config/corvid-config.js';
import { HttpError } from '../../http/http-error.js';
import { ApiKeyVerifier } from './api-keys.js';
import { JwtVerifier } from './jwt-verifier.js';
import type { Principal } from './principal.js';

/** Paths open without a token unless `server.auth.public_paths` says otherwise. */
export const DEFAULT_PUBLIC_PATHS = ['/health', '/ready', '/.well-known/agent-card.json', '/agents/*/.well-known/agent-card.json'];

const ANONYMOUS: Principal = { kind: 'anonymous' };
const CHALLENGE = { 'www-authenticate': 'Bearer' };

/** Compiles path patterns: `*` is one segment, a trailing `/**` anything below. */
export function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const regexes = patterns.map((p) => {
    const deep = p.endsWith('/**');
    const base = deep ? p.slice(0, -3) : p;
    const body = base
      .split('/')
      .map((seg) => (seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${body}${deep ? '(?:/.*)?' : '/?'}$`);
  });
  return (path) => regexes.some((r) => r.test(path));
}

/** The credential a request carries: `Authorization: Bearer <t>` or `x-api-key: <t>`. */
export function presentedToken(header: (name: string) => string | undefined): string | undefined {
  const auth = header('authorization');
  if (auth !== undefined) {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
    if (!m) throw new HttpError(401, 'unauthorized', 'the Authorization header must be "Bearer <token>"', { headers: CHALLENGE });
    return m[1];
  }
  const key = header('x-api-key');
  return key === undefined ? undefined : key.trim();
}

/**
 * Decides who a request is from (`server.auth`): API keys by hash, JWTs against the JWKS. With
 * no auth configured every request is anonymous and allowed.
 */
export class Authenticator {
  readonly enabled: boolean;
  private readonly keys: ApiKeyVerifier;
  private readonly jwt: JwtVerifier | undefined;
  readonly isPublic: (path: string) => boolean;

  constructor(auth: ServerConfig['auth']) {
    this.keys = new ApiKeyVerifier(auth?.apiKeys ?? []);
    this.jwt = auth?.jwt ? new JwtVerifier(auth.jwt) : undefined;
    this.enabled = this.keys.size > 0 || this.jwt !== undefined;
    this.isPublic = pathMatcher(auth?.publicPaths ?? DEFAULT_PUBLIC_PATHS);
  }

  /**
   * The principal of a request. Requests without a credential are anonymous (the caller decides
   * whether that is enough); a credential that is present but wrong is a 401.
   */
  async identify(header: (name: string) => string | undefined): Promise<Principal> {
    const token = presentedToken(header);
    if (token === undefined) return ANONYMOUS;
    if (!this.enabled) return ANONYMOUS;
    if (token.length === 0 || token.length > 8192)
      throw new HttpError(401, 'unauthorized', 'the credential is empty or too long', { headers: CHALLENGE });
    const key = this.keys.size > 0 ? this.keys.verify(token) : undefined;
    if (key) return { kind: 'api_key', name: key.name, scopes: key.scopes ?? [] };
    if (this.jwt && token.split('.').length === 3) {
      const check = await this.jwt.verify(token);
      if (check.ok) return { kind: 'jwt', user: check.user, claims: check.payload };
      throw new HttpError(401, 'unauthorized', `Invalid bearer token: ${check.reason}`, {
        headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      });
    }
    throw new HttpError(401, 'unauthorized', this.jwt ? 'Invalid bearer token' : 'Invalid API key', { headers: CHALLENGE });
  }

  /** Throws 401 unless the principal is authenticated. */
  require(principal: Principal, what = 'this endpoint'): void {
    if (principal.kind !== 'anonymous') return;
    const how = this.enabled
      ? 'send "Authorization: Bearer <token>" or "x-api-key: <key>"'
      : 'the server has no auth configured (server.auth), so it cannot be reached over HTTP';
    throw new HttpError(401, 'unauthorized', `Authentication required for ${what}: ${how}`, { headers: CHALLENGE });
  }
}
