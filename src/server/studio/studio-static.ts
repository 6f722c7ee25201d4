import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Hono } from 'hono';

import { HttpError } from '../../http/http-error.js';
import type { ServerEnv } from '../app/server-env.js';

/** Where the Studio is served. */
export const STUDIO_PATH = '/studio';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Types served compressed when the build left a `.br` / `.gz` copy beside the file. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.webmanifest']);

/** Same-origin only: the Studio loads nothing from elsewhere and talks only to this server. */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** File names with a content hash (`app-3f9a1c2b.js`, `index.3F9A1C2B.css`): never change, cached for good. */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.[a-z0-9]+$/;

/** `<package root>/dist/studio`: the package root is three folders above this module (`src/server/studio` or `dist/server/studio`). */
export function defaultStudioDir(): string {
  return fileURLToPath(new URL('../../../dist/studio', import.meta.url));
}

/** Options of `registerStudio`. */
export interface StudioOptions {
  /** The built Studio (`index.html` and its assets). Default `<package root>/dist/studio`. */
  dir?: string;
}

/** Whether `path` is one of the Studio's (served without credentials: the sign-in screen must load). */
export function isStudioPath(path: string): boolean {
  return path === STUDIO_PATH || path.startsWith(`${STUDIO_PATH}/`) || path === FAVICON_PATH;
}

/** Browsers ask for it on their own; it leads to the Studio's icon (without credentials). */
const FAVICON_PATH = '/favicon.ico';

/** The encodings a request accepts that the build wrote copies for, best first (`br`, then `gzip`). */
export function acceptedEncodings(acceptEncoding: string | undefined): Array<'br' | 'gzip'> {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return (['br', 'gzip'] as const).filter(ok);
}

/** The file, or its `.br` / `.gz` copy when the client accepts it (with the `content-encoding` to send). */
async function encodedFileAt(path: string, acceptEncoding: string | undefined): Promise<{ body: Buffer; encoding?: string } | undefined> {
  if (COMPRESSIBLE.has(extname(path).toLowerCase())) {
    for (const encoding of acceptedEncodings(acceptEncoding)) {
      const body = await fileAt(`${path}.${encoding === 'br' ? 'br' : 'gz'}`);
      if (body !== undefined) return { body, encoding };
    }
  }
  const body = await fileAt(path);
  return body === undefined ? undefined : { body };
}

async function fileAt(path: string): Promise<Buffer | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return await readFile(path);
  } catch {
    return undefined;
  }
}

function notBuilt(dir: string): HttpError {
  return new HttpError(404, 'studio_not_built', `The Studio is not built: run npm run build (no ${join(dir, 'index.html')})`);
}

/**
 * Serves the built Studio at `/studio/`: its files with their content types, hashed assets
 * cached as immutable, `index.html` (never cached) for client routes, and a Content-Security-Policy
 * that allows only this origin. `/studio` redirects to `/studio/`. Without a build, the Studio's
 * paths answer 404 `studio_not_built`.
 */
export function registerStudio(app: Hono<ServerEnv>, options: StudioOptions = {}): void {
  const dir = resolve(options.dir ?? defaultStudioDir());
  const headers = (file: string, cache: string, encoding: string | undefined): Record<string, string> => ({
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': cache,
    'content-security-policy': STUDIO_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // Caches keep one copy per encoding of what may be sent compressed.
    ...(COMPRESSIBLE.has(extname(file).toLowerCase()) ? { vary: 'accept-encoding' } : {}),
    ...(encoding ? { 'content-encoding': encoding } : {}),
  });
  const index = async (acceptEncoding?: string) => {
    const html = await encodedFileAt(join(dir, 'index.html'), acceptEncoding);
    if (html === undefined) throw notBuilt(dir);
    return html;
  };

  app.get(FAVICON_PATH, (c) => c.redirect(`${STUDIO_PATH}/favicon.svg`, 308));

  app.get(STUDIO_PATH, async (c) => {
    await index();
    const query = c.req.url.includes('?') ? c.req.url.slice(c.req.url.indexOf('?')) : '';
    return c.redirect(`${STUDIO_PATH}/${query}`, 308);
  });

  app.get(`${STUDIO_PATH}/*`, async (c) => {
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path.slice(STUDIO_PATH.length + 1));
    } catch {
      throw new HttpError(404, 'not_found', 'No such Studio file');
    }
    const file = resolve(dir, rel);
    if (rel !== '' && !rel.includes('\0') && file.startsWith(dir + sep)) {
      const found = await encodedFileAt(file, c.req.header('accept-encoding'));
      if (found !== undefined) {
        const cache = HASHED.test(file) && !file.endsWith('.html') ? 'public, max-age=31536000, immutable' : 'no-cache';
        return c.body(new Uint8Array(found.body), 200, headers(file, cache, found.encoding));
      }
      // A missing file with an extension is a missing asset, not a client route.
      if (extname(rel) !== '') {
        await index();
        throw new HttpError(404, 'not_found', `No Studio file "${rel.slice(0, 200)}"`);
      }
    }
    const html = await index(c.req.header('accept-encoding'));
    return c.body(new Uint8Array(html.body), 200, headers('index.html', 'no-cache', html.encoding));
  });
}
