import type { IncomingHttpHeaders } from 'node:http';

import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { defaultServerCallContextBuilder, type ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';
import type { Context } from 'hono';

import { requestHeader } from '../../http/request-header.js';
import { OwnerUser } from './call-owner.js';
import { CLIENT_STATE_KEY } from './execution/corvid-agent-executor.js';

const VERSION_HEADER = A2A_VERSION_HEADER.toLowerCase();

/** `ServerCallContext.state` key of a streaming call's `AbortController`, aborted when its client disconnects. */
export const STREAM_CLOSED_STATE_KEY = 'corvid.streamClosed';

/** Marks `context` as a streaming call's: the returned controller is aborted when its client disconnects (`sseResponse`). */
export function watchDisconnect(context: ServerCallContext): AbortController {
  const closed = new AbortController();
  context.state.set(STREAM_CLOSED_STATE_KEY, closed);
  return closed;
}

/** Aborted once the client of streaming call `context` disconnected; undefined for a call not watched. */
export function disconnectSignal(context: ServerCallContext): AbortSignal | undefined {
  return (context.state.get(STREAM_CLOSED_STATE_KEY) as AbortController | undefined)?.signal;
}

/** True when the request asks for protocol v0.3 (no `A2A-Version`, or a 0.x one). */
export function wantsLegacy(c: Context): boolean {
  const v = requestHeader(c, VERSION_HEADER)?.trim();
  return !v || v.startsWith('0.');
}

/**
 * The SDK call context of a request. `owner` is the caller as the server's auth knows it (see
 * `A2ARoutesOptions.owner`): what the request creates is theirs alone; unset, the caller is
 * anonymous.
 */
export function callContext(c: Context, legacy: boolean, owner?: string): ServerCallContext {
  const headers: Record<string, string> = {};
  const incoming = (c.env as { incoming?: { headers?: IncomingHttpHeaders } } | undefined)?.incoming?.headers;
  if (incoming) {
    // On Node, from the socket's request: no web Headers object per request.
    for (const key in incoming) {
      const value = incoming[key];
      if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
    }
  } else c.req.raw.headers.forEach((value, key) => (headers[key] = value));
  const context = defaultServerCallContextBuilder({
    extensions: undefined,
    user: owner ? new OwnerUser(owner) : new UnauthenticatedUser(),
    headers,
    requestedVersion: legacy ? '0.3' : (requestHeader(c, VERSION_HEADER)?.trim() ?? '1.0'),
  });
  // The caller as the server's rate limits know it (set by `corvid serve`'s middleware).
  const client = c.get('client' as never) as unknown;
  if (typeof client === 'string') context.state.set(CLIENT_STATE_KEY, client);
  return context;
}
