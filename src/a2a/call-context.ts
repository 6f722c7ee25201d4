import type { Context } from 'hono';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { UnauthenticatedUser, defaultServerCallContextBuilder, type ServerCallContext } from '@a2a-js/sdk/server';

/** True when the request asks for protocol v0.3 (no `A2A-Version`, or a 0.x one). */
export function wantsLegacy(c: Context): boolean {
  const v = c.req.header(A2A_VERSION_HEADER)?.trim();
  return !v || v.startsWith('0.');
}

/** The SDK call context of a request. */
export function callContext(c: Context, legacy: boolean): ServerCallContext {
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, key) => (headers[key] = value));
  return defaultServerCallContextBuilder({
    extensions: undefined,
    user: new UnauthenticatedUser(),
    headers,
    requestedVersion: legacy ? '0.3' : (c.req.header(A2A_VERSION_HEADER)?.trim() ?? '1.0'),
  });
}
