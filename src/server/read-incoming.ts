import type { IncomingMessage } from 'node:http';

/** A body read from a Node request: its text, or why not. */
export type IncomingBody = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'unreadable' };

/**
 * Reads a Node request body as UTF-8 text, at most `limit` bytes. Past the limit it stops
 * reading without destroying the request, so the 413 answer still reaches the client (the
 * server drains or closes the connection after answering).
 */
export function readIncoming(incoming: IncomingMessage, limit: number): Promise<IncomingBody> {
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
        incoming.pause();
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
