import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonBodyProblem } from '../../core/json-content-type.js';
import { DEFAULT_MAX_BODY_BYTES, readIncoming, readStreamText, type IncomingBody } from '../../server/read-incoming.js';

export { DEFAULT_MAX_BODY_BYTES };

/** A request body read with a size cap. */
export type BodyResult = IncomingBody;

/** node-server's symbol under which its lightweight request keeps the Node request (found once). */
let incomingKey: symbol | undefined;

/**
 * The Node request behind a @hono/node-server request whose body has not been touched (so it can
 * be read directly, without building a web `Request` and stream: much cheaper per request).
 *
 * Untouched: nothing has read or is reading the Node request (`readableFlowing` is still null; a
 * full web `Request`, once node-server makes one, wraps the Node request with `Readable.toWeb`,
 * which pauses it) and the lightweight request holds exactly this Node request.
 */
export function untouchedIncoming(request: Request, env: unknown): IncomingMessage | undefined {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || typeof incoming.on !== 'function' || incoming.readableEnded || incoming.readableFlowing !== null) return undefined;
  const key = (incomingKey ??= findIncomingKey(request));
  return key !== undefined && (request as unknown as Record<symbol, unknown>)[key] === incoming ? incoming : undefined;
}

function findIncomingKey(request: Request): symbol | undefined {
  for (const key of Object.getOwnPropertySymbols(request)) if (key.description === 'incomingKey') return key;
  return undefined;
}

/**
 * Reads a request body as UTF-8 text, giving up past `maxBytes` (checked on the header first).
 * An untouched Node request is read directly and, past the limit, refused while it streams in
 * (its connection closes shortly after the answer; `env.outgoing` is the Node response).
 */
export async function readBody(request: Request, maxBytes: number, env?: unknown): Promise<BodyResult> {
  const incoming = untouchedIncoming(request, env);
  if (incoming) return readIncoming(incoming, maxBytes, (env as { outgoing?: ServerResponse }).outgoing);
  if (Number(request.headers.get('content-length')) > maxBytes) return { ok: false, reason: 'too_large' };
  return readStreamText(request.body, maxBytes);
}

/**
 * Why a request's body may not be read as JSON, or undefined when it may (`jsonBodyProblem`: a
 * body needs `application/json` or `application/*+json`). The routes answer it with 415.
 */
export function bodyTypeProblem(request: Request, env?: unknown): string | undefined {
  const headers = (env as { incoming?: IncomingMessage } | undefined)?.incoming?.headers;
  if (headers) return jsonBodyProblem({ 'content-type': headers['content-type'], 'content-length': headers['content-length'], 'transfer-encoding': headers['transfer-encoding'] });
  const get = (name: string) => request.headers.get(name) ?? undefined;
  return jsonBodyProblem({ 'content-type': get('content-type'), 'content-length': get('content-length'), 'transfer-encoding': get('transfer-encoding') });
}
