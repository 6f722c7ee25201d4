import type { IncomingMessage, ServerResponse } from 'node:http';

import { refuseBody } from './refuse-body.js';

/**
 * Default of `server.max_body_bytes`: the largest request body (and WebSocket message) any
 * route of `corvid serve` accepts, 1 MiB. The A2A routes default to it too.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A body read from a Node request: its text, or why not. */
export type IncomingBody = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'unreadable' };

/**
 * Reads a Node request body as UTF-8 text, at most `limit` bytes, whatever its transfer encoding.
 * A declared `content-length` over the limit is refused before reading (`refuseBody`); otherwise
 * reading stops at the first chunk past the limit and the rest is refused: nothing beyond that
 * chunk is read or kept, and with `outgoing` (the Node response) the connection closes shortly
 * after the answer, so the client still gets the 413.
 */
export function readIncoming(incoming: IncomingMessage, limit: number, outgoing?: ServerResponse): Promise<IncomingBody> {
  if (Number(incoming.headers['content-length']) > limit) {
    refuseBody(incoming, outgoing);
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: IncomingBody) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        refuseBody(incoming, outgoing);
        done({ ok: false, reason: 'too_large' });
      } else chunks.push(chunk);
    };
    const onEnd = () => done({ ok: true, text: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8') });
    const onError = () => done({ ok: false, reason: 'unreadable' });
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
  });
}

/**
 * Reads a web body stream as UTF-8 text, at most `limit` bytes (for requests that are not, or no
 * longer, a plain Node request). Past the limit the stream is cancelled.
 */
export async function readStreamText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<IncomingBody> {
  if (!body) return { ok: true, text: '' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'too_large' };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
