import { type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import type { VettedTarget } from './ssrf-guard.js';
import { WebRefusal } from './web-refusal.js';

/** One HTTP exchange to a vetted address. */
export interface PinnedRequest {
  target: VettedTarget;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  signal: AbortSignal;
  /** Largest response body (after decompression), in bytes. */
  maxBytes: number;
  /** Read the body (false for redirects, whose bodies are dropped). */
  readBody: (status: number, headers: IncomingHttpHeaders) => boolean;
}

/** A response with its whole body. */
export interface PinnedResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends one request over `node:http`/`https`, connecting to the vetted address whatever the host
 * name resolves to now: the custom `lookup` answers with that address, while the URL's name
 * stays in the `Host` header and the TLS server name (certificates are checked against it).
 */
export function pinnedRequest(req: PinnedRequest): Promise<PinnedResponse> {
  const { target } = req;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PinnedResponse>((resolve, reject) => {
    const outgoing = send(target.url, { method: req.method, headers: req.headers, lookup, agent: false, signal: req.signal }, (res) => {
      const status = res.statusCode ?? 0;
      const done = (body: Buffer) => resolve({ status, statusText: res.statusMessage ?? '', headers: res.headers, body });
      if (!req.readBody(status, res.headers)) {
        res.destroy();
        done(Buffer.alloc(0));
        return;
      }
      readCapped(res, req.maxBytes).then(done, reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge(maxBytes, declared);
  }
  const stream = decoded(res);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (size > maxBytes) {
      stream.destroy();
      res.destroy();
    }
  }
  return Buffer.concat(chunks);
}

const tooLarge = (maxBytes: number, declared?: number): WebRefusal =>
  new WebRefusal(
    `The response body is larger than the limit of ${maxBytes} bytes${declared !== undefined ? ` (Content-Length ${declared})` : ''}; it was not read`,
  );

/** The body stream, decompressed for gzip, deflate and br (the cap applies to what comes out). */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const inflater =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!inflater) return res;
  res.on('error', (err) => inflater.destroy(err));
  return res.pipe(inflater);
}
