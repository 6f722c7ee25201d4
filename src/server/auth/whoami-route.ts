import type { Hono } from 'hono';

import type { ServerEnv } from '../app/server-env.js';
import type { Authenticator } from './authenticator.js';
import { principalUser } from './principal.js';
import { scopesOf } from './tool-scopes.js';

/**
 * Registers `GET /api/v1/whoami`: whether the server needs credentials, and whom the request's
 * credential speaks for (`subject`) with its scopes. With auth on, a missing or wrong credential
 * is the usual 401, so a sign-in screen can check a key with it.
 */
export function registerWhoami(app: Hono<ServerEnv>, auth: Authenticator): void {
  app.get('/api/v1/whoami', (c) => {
    const p = c.get('principal');
    const subject = principalUser(p);
    const scopes = scopesOf(p);
    return c.json({
      authenticated: p.kind !== 'anonymous',
      authRequired: auth.enabled,
      ...(subject !== undefined ? { subject } : {}),
      ...(scopes !== undefined ? { scopes: [...scopes] } : {}),
    });
  });
}
