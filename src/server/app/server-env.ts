import type { Logger } from 'pino';

import type { Principal } from '../auth/principal.js';

/** Hono environment of the server: per-request values set by the middleware. */
export interface ServerEnv {
  Variables: {
    /** From `x-request-id` (when well-formed) or generated; echoed in the response. */
    requestId: string;
    /** The request's logger (every line carries `reqId`). */
    log: Logger;
    principal: Principal;
    /** Rate-limit key of the client (`user:…`, `key:…` or `ip:…`). */
    client: string;
  };
}
