import type { IncomingMessage } from 'node:http';
import { jsonBodyProblem } from '../core/json-content-type.js';
import { readIncoming } from '../server/read-incoming.js';

/** A request body read with a size cap. */
export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'unreadable' };

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

/** Reads a request body as UTF-8 text, giving up past `maxBytes` (checked on the header first). */
export async function readBody(request: Request, maxBytes: number, env?: unknown): Promise<BodyResult> {
  const incoming = untouchedIncoming(request, env);
  const length = incoming ? incoming.headers['content-length'] : request.headers.get('content-length');
  const declared = Number(length ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: 'too_large' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (incoming) return readIncoming(incoming, maxBytes);
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
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
