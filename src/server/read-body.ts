import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { HttpError } from './http-error.js';
import { readIncoming } from './read-incoming.js';
import { requestHeader } from './request-header.js';

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes (server.max_body_bytes)`);
}

/**
 * The request body as text, at most `limit` bytes (413 beyond). On Node it reads the socket
 * stream directly, which skips building a web `ReadableStream` for every request.
 */
export async function readBodyText(c: Context, limit: number): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded || incoming.readableDidRead) {
    const text = await c.req.text();
    if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
    return text;
  }
  const body = await readIncoming(incoming, limit);
  if (body.ok) return body.text;
  if (body.reason === 'too_large') throw tooLarge(limit);
  throw new HttpError(400, 'invalid_request', 'The request body could not be read');
}

/** 413 for a declared `content-length` over `limit` (bodies without one are limited where they are read). */
export function checkContentLength(c: Context, limit: number): void {
  const declared = requestHeader(c, 'content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
}
