import type { IncomingHttpHeaders } from 'node:http';

import { pinnedRequest } from './pinned-request.js';
import type { SsrfGuard } from './ssrf-guard.js';
import { WebRefusal } from './web-refusal.js';

/** A request through the SSRF guard. */
export interface GuardedRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** Limits and policy of `guardedFetch`. */
export interface GuardedFetchOptions {
  guard: SsrfGuard;
  maxRedirects: number;
  maxBytes: number;
  timeoutMs: number;
  /** The tool call's signal (the run was cancelled). */
  signal?: AbortSignal;
}

/** The final response, after redirects. */
export interface GuardedResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** URLs redirected through, in order. */
  redirects: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Headers that carry credentials: dropped when a redirect leaves the origin (as `fetch` does).
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Fetches a URL with every hop checked by the guard: the first URL and each redirect target are
 * vetted before any connection, redirects are capped at `maxRedirects`, the body at `maxBytes`,
 * and the whole exchange at `timeoutMs`.
 */
export async function guardedFetch(request: GuardedRequest, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let url = parseUrl(request.url);
  let method = (request.method ?? 'GET').toUpperCase();
  let headers = { ...(request.headers ?? {}) };
  let body = request.body;
  const redirects: string[] = [];
  try {
    for (;;) {
      const target = await vetHop(options.guard, url, redirects.length > 0);
      const res = await pinnedRequest({
        target,
        method,
        headers,
        body,
        signal,
        maxBytes: options.maxBytes,
        readBody: (s, h) => !(REDIRECTS.has(s) && h.location),
      });
      const location = res.headers.location;
      if (!REDIRECTS.has(res.status) || !location)
        return { url: url.href, status: res.status, statusText: res.statusText, headers: res.headers, body: res.body, redirects };
      if (redirects.length >= options.maxRedirects)
        throw new WebRefusal(`Too many redirects (more than ${options.maxRedirects}); the last one pointed to ${location}`);
      const next = parseUrl(location, url);
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-/i.test(k)));
      }
      redirects.push(next.href);
      url = next;
    }
  } catch (err) {
    if (signal.aborted) {
      if (timeout.aborted) throw new WebRefusal(`The request to ${url.href} timed out after ${options.timeoutMs} ms`, { cause: err });
      throw err;
    }
    if (err instanceof WebRefusal) throw err;
    const e = err as { code?: string; message?: string };
    throw new WebRefusal(`The request to ${url.href} failed: ${e.code ?? e.message ?? String(err)}`, { cause: err });
  }
}

async function vetHop(guard: SsrfGuard, url: URL, redirected: boolean) {
  try {
    return await guard.vet(url);
  } catch (err) {
    if (redirected && err instanceof WebRefusal) throw new WebRefusal(`Redirect to ${url.href} refused. ${err.message}`, { cause: err });
    throw err;
  }
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new WebRefusal(`Not a valid URL: ${JSON.stringify(text)}`);
  }
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase())));
}
