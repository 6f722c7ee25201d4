import type { IncomingHttpHeaders } from 'node:http';

import type { Context } from 'hono';

/**
 * A request header by lower-case name. On Node it is read from the socket's request, which
 * avoids building a web `Headers` object for every request; elsewhere from `c.req`.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const headers = (c.env as { incoming?: { headers?: IncomingHttpHeaders } } | undefined)?.incoming?.headers;
  if (!headers) return c.req.header(name);
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
