import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { HttpError } from './http-error.js';
import { readIncoming, readStreamText, type IncomingBody } from './read-incoming.js';
import { refuseBody } from './refuse-body.js';
import { requestHeader } from './request-header.js';

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes (server.max_body_bytes)`);
}

function nodeOf(c: Context): { incoming?: IncomingMessage; outgoing?: ServerResponse } {
  return (c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined) ?? {};
}

/**
 * The request body as text, at most `limit` bytes (413 beyond, refused while it streams in). On
 * Node it reads the socket stream directly, which skips building a web `ReadableStream` for
 * every request.
 */
export async function readBodyText(c: Context, limit: number): Promise<string> {
  const { incoming, outgoing } = nodeOf(c);
  let body: IncomingBody;
  if (incoming && !incoming.readableEnded && !incoming.readableDidRead) body = await readIncoming(incoming, limit, outgoing);
  else if (c.req.raw.bodyUsed) {
    // Read before (hono keeps what it read): the limit still holds.
    const text = await c.req.text();
    if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
    return text;
  } else body = await readStreamText(c.req.raw.body, limit);
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
  const { incoming, outgoing } = nodeOf(c);
  if (incoming) refuseBody(incoming, outgoing);
  throw tooLarge(limit);
}
