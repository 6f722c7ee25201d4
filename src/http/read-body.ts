import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Context } from 'hono';

import { HttpError } from './http-error.js';
import { jsonBodyProblem } from './json-content-type.js';
import { type IncomingBody, readIncoming, readStreamText } from './read-incoming.js';
import { refuseBody } from './refuse-body.js';
import { requestHeader } from './request-header.js';

/** The Node request and response @hono/node-server passes as `c.env` (absent on other runtimes). */
interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

function nodeOf(env: unknown): NodeBindings {
  return (env as NodeBindings | undefined) ?? {};
}

/**
 * The Node request when nothing has read or is reading its body yet, so it can be read directly
 * without building a web `Request` and stream. Only public stream state is looked at: a web
 * `Request` made from it wraps it with `Readable.toWeb`, which starts and pauses it
 * (`readableFlowing` is then no longer null), and any read sets `readableDidRead`.
 */
function untouchedIncoming(env: unknown): IncomingMessage | undefined {
  const incoming = nodeOf(env).incoming;
  if (!incoming || typeof incoming.on !== 'function') return undefined;
  return incoming.readableEnded || incoming.readableDidRead || incoming.readableFlowing !== null ? undefined : incoming;
}

/**
 * Reads a request body as UTF-8 text, giving up past `limit` bytes (checked on the header
 * first). An untouched Node request (`env` is @hono/node-server's `c.env`) is read directly and,
 * past the limit, refused while it streams in (its connection closes shortly after the answer);
 * otherwise the web `Request` is read, once.
 */
export async function readRequestBody(request: Request, limit: number, env?: unknown): Promise<IncomingBody> {
  const incoming = untouchedIncoming(env);
  if (incoming) return readIncoming(incoming, limit, nodeOf(env).outgoing);
  if (Number(request.headers.get('content-length')) > limit) return { ok: false, reason: 'too_large' };
  if (request.bodyUsed) return { ok: false, reason: 'unreadable' };
  return readStreamText(request.body, limit);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes (server.max_body_bytes)`);
}

/**
 * The request body as text, at most `limit` bytes (413 beyond, refused while it streams in; 400
 * when it cannot be read). A body hono has already read (and kept) is taken from there.
 */
export async function readBodyText(c: Context, limit: number): Promise<string> {
  if (!untouchedIncoming(c.env) && c.req.raw.bodyUsed) {
    // Read before (hono keeps what it read): the limit still holds.
    const text = await c.req.text();
    if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
    return text;
  }
  const body = await readRequestBody(c.req.raw, limit, c.env);
  if (body.ok) return body.text;
  if (body.reason === 'too_large') throw tooLarge(limit);
  throw new HttpError(400, 'invalid_request', 'The request body could not be read');
}

/**
 * 413 for a declared `content-length` over `limit`, before any of the body is read (which is
 * then refused: `refuseBody`). Bodies without one are limited where they are read.
 */
export function checkContentLength(c: Context, limit: number): void {
  const declared = requestHeader(c, 'content-length');
  if (declared === undefined || !(Number(declared) > limit)) return;
  const { incoming, outgoing } = nodeOf(c.env);
  if (incoming) refuseBody(incoming, outgoing);
  throw tooLarge(limit);
}

/**
 * Why a request's body may not be read as JSON, or undefined when it may (`jsonBodyProblem`: a
 * body needs `application/json` or `application/*+json`). Routes answer it with 415.
 */
export function bodyTypeProblem(request: Request, env?: unknown): string | undefined {
  const headers = nodeOf(env).incoming?.headers;
  if (headers)
    return jsonBodyProblem({
      'content-type': headers['content-type'],
      'content-length': headers['content-length'],
      'transfer-encoding': headers['transfer-encoding'],
    });
  const get = (name: string) => request.headers.get(name) ?? undefined;
  return jsonBodyProblem({
    'content-type': get('content-type'),
    'content-length': get('content-length'),
    'transfer-encoding': get('transfer-encoding'),
  });
}
