import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import { SecretStoreError } from '../errors/secret-store-error.js';
import { describeSource } from './secret-file.js';
import type { SecretKey } from './secret-key.js';

/**
 * Encrypts short strings (tokens, credentials) for storage elsewhere, e.g. in a database row.
 * `context` names what the value belongs to (it is authenticated, not stored): a sealed value
 * copied to another context does not open.
 */
export interface TextSealer {
  sealText(text: string, context: string): string;
  /** @throws SecretStoreError (`secret_decrypt_failed`) when the value was sealed with another key, for another context, or changed. */
  unsealText(sealed: string, context: string): string;
}

const PREFIX = 'corvid-sealed:v1:';
const aad = (context: string) => Buffer.from(`corvid-sealed:v1:${context}`, 'utf8');

/** True when `value` looks like the output of `sealText`. */
export function isSealedText(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

/**
 * `text` encrypted with AES-256-GCM under `key` (fresh 96-bit IV), as
 * `corvid-sealed:v1:<key id>.<iv>.<tag>.<data>` (base64url parts).
 */
export function sealText(key: SecretKey, text: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(aad(context));
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${PREFIX}${key.id}.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
}

/** The text `sealText` sealed; anything else (another key or context, a changed value) is an error, never garbage. */
export function unsealText(key: SecretKey, sealed: string, context: string): string {
  const parts = isSealedText(sealed) ? sealed.slice(PREFIX.length).split('.') : [];
  if (parts.length !== 4)
    throw new SecretStoreError(`The encrypted value of ${context} is not in Corvid's format (damaged?)`, { kind: 'decrypt_failed' });
  const [keyId, iv, tag, data] = parts;
  if (keyId !== key.id) {
    throw new SecretStoreError(
      `The value of ${context} was encrypted with a different key (key id ${keyId}; the current key, from ${describeSource(key)}, has id ${key.id}). ` +
        'Set CORVID_SECRET_KEY to the key that wrote it, or restore the key file.',
      { kind: 'decrypt_failed' },
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch (err) {
    throw new SecretStoreError(
      `The encrypted value of ${context} failed its integrity check: it was changed, or belongs to something else`,
      { kind: 'decrypt_failed', cause: err },
    );
  }
}
