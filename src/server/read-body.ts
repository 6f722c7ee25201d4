import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { HttpError } from './http-error.js';

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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

/** 413 for a declared `content-length` over `limit` (bodies without one are limited where they are read). */
export function checkContentLength(c: Context, limit: number): void {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
}
