import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Hono } from 'hono';

import { HttpError } from '../http/http-error.js';
import type { ServerEnv } from './server-env.js';

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

/** `<package root>/dist/studio`: the package root is two folders above this module (`src/server` or `dist/server`). */
export function defaultStudioDir(): string {
  return fileURLToPath(new URL('../../dist/studio', import.meta.url));
}

/** Options of `registerStudio`. */
export interface StudioOptions {
  /** The built Studio (`index.html` and its assets). Default `<package root>/dist/studio`. */
  dir?: string;
}

/** Whether `path` is one of the Studio's (served without credentials: the sign-in screen must load). */
export function isStudioPath(path: string): boolean {
  return path === STUDIO_PATH || path.startsWith(`${STUDIO_PATH}/`);
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
  const headers = (type: string, cache: string) => ({
    'content-type': type,
    'cache-control': cache,
    'content-security-policy': STUDIO_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  const index = async () => {
    const html = await fileAt(join(dir, 'index.html'));
    if (html === undefined) throw notBuilt(dir);
    return html;
  };

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
      const body = await fileAt(file);
      if (body !== undefined) {
        const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
        const cache = HASHED.test(file) && !file.endsWith('.html') ? 'public, max-age=31536000, immutable' : 'no-cache';
        return c.body(new Uint8Array(body), 200, headers(type, cache));
      }
      // A missing file with an extension is a missing asset, not a client route.
      if (extname(rel) !== '') {
        await index();
        throw new HttpError(404, 'not_found', `No Studio file "${rel.slice(0, 200)}"`);
      }
    }
    return c.body(new Uint8Array(await index()), 200, headers('text/html; charset=utf-8', 'no-cache'));
  });
}
