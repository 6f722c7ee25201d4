import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `sha256:<hex>` of an API key, as written in `server.auth.api_keys[].hash`. */
export function hashApiKey(key: string): string {
  return `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}

/** A new random API key (`cvd_` + 43 url-safe characters). */
export function generateApiKey(): string {
  return `cvd_${randomBytes(32).toString('base64url')}`;
}

/** One configured key. */
export interface ApiKeyEntry {
  name: string;
  hash: string;
  scopes?: string[];
}

/** Checks presented keys against the configured hashes in constant time. */
export class ApiKeyVerifier {
  private readonly entries: Array<ApiKeyEntry & { digest: Buffer }>;

  constructor(entries: ApiKeyEntry[]) {
    this.entries = entries.map((e) => ({ ...e, digest: Buffer.from(e.hash.slice('sha256:'.length), 'hex') }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The entry whose hash matches `key`, else `undefined`. Compares against every entry. */
  verify(key: string): ApiKeyEntry | undefined {
    const digest = createHash('sha256').update(key, 'utf8').digest();
    let found: ApiKeyEntry | undefined;
    for (const e of this.entries) if (timingSafeEqual(digest, e.digest) && !found) found = e;
    return found;
  }
}
