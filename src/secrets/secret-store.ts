import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import { ValidationError } from '../errors/validation-error.js';
import { sealText, type TextSealer, unsealText } from './sealed-text.js';
import { Secret } from './secret.js';
import { readIfExists, seal, type SecretEntries, unseal, withFileLock, writeAtomic } from './secret-file.js';
import { loadKey, type SecretKey } from './secret-key.js';

/** Options for `SecretStore.open()`. */
export interface SecretStoreOptions {
  /** Where the key file and the `secrets/` folder live. Default `~/.corvid`. */
  dir?: string;
  /** The key file. Default `<dir>/secret.key`; created (mode 0600) when missing and no secrets exist yet. */
  keyFile?: string;
  /** The key itself (32 bytes, or 64 hex characters / base64); takes precedence over the environment. */
  key?: string | Uint8Array;
  /** Environment holding `CORVID_SECRET_KEY`. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * Encrypted storage for tokens and credentials (MCP OAuth, integrations), one file per namespace
 * (e.g. per MCP server URL). Values are JSON, encrypted with AES-256-GCM under a key from
 * `CORVID_SECRET_KEY` (64 hex characters or base64 of 32 bytes) or a generated key file (mode
 * 0600). Files are written atomically with mode 0600; a file changed by anyone else, or encrypted
 * with another key, is refused with a `SecretStoreError` — never decrypted into garbage.
 * @example
 * const secrets = await SecretStore.open();
 * await secrets.set('https://mcp.example.com', 'oauth', { accessToken }, { expiresAt: new Date(Date.now() + 3600_000) });
 * const token = await secrets.get('https://mcp.example.com', 'oauth');
 * if (!token || token.isExpired(new Date(), 60_000)) { ...refresh... }
 */
export class SecretStore implements TextSealer {
  /** The folder holding the namespace files. */
  readonly secretsDir: string;
  private readonly queues = new Map<string, Promise<unknown>>();

  private constructor(
    private readonly key: SecretKey,
    secretsDir: string,
  ) {
    this.secretsDir = secretsDir;
  }

  /** Opens the store, loading (or, the first time, generating) the key. */
  static async open(options: SecretStoreOptions = {}): Promise<SecretStore> {
    const dir = resolve(options.dir ?? join(homedir(), '.corvid'));
    const secretsDir = join(dir, 'secrets');
    const env = options.env ?? process.env;
    const key = await loadKey({
      explicit: options.key,
      envValue: env.CORVID_SECRET_KEY,
      keyFile: resolve(options.keyFile ?? join(dir, 'secret.key')),
      secretsDir,
    });
    return new SecretStore(key, secretsDir);
  }

  /**
   * Opens the store Corvid's commands use: in `$CORVID_HOME`, else `~/.corvid`, key from
   * `CORVID_SECRET_KEY` or the key file there.
   */
  static openDefault(env: Record<string, string | undefined> = process.env): Promise<SecretStore> {
    return SecretStore.open({ dir: env.CORVID_HOME || join(homedir(), '.corvid'), env });
  }

  /**
   * `text` encrypted with this store's key (AES-256-GCM), for keeping elsewhere (e.g. a database
   * row); `context` names what it belongs to and must be given again to open it.
   */
  sealText(text: string, context: string): string {
    return sealText(this.key, text, context);
  }

  /** The text `sealText` encrypted. @throws SecretStoreError (`secret_decrypt_failed`) for another key or context, or a changed value. */
  unsealText(sealed: string, context: string): string {
    return unsealText(this.key, sealed, context);
  }

  /** Where the key came from. */
  get keySource(): 'option' | 'env' | 'file' {
    return this.key.source;
  }

  /** The file of a namespace (a hash of it: namespaces may be URLs). */
  fileFor(namespace: string): string {
    if (typeof namespace !== 'string' || namespace.length === 0) throw new ValidationError('A secret namespace must be a non-empty string');
    return join(this.secretsDir, `${createHash('sha256').update(namespace).digest('hex').slice(0, 40)}.json`);
  }

  private async read(namespace: string): Promise<SecretEntries> {
    const file = this.fileFor(namespace);
    const text = await readIfExists(file);
    return text === undefined ? {} : unseal(this.key, namespace, text, file);
  }

  /** Serialises read-modify-write cycles on one namespace: in process with a queue, across processes with a lock file. */
  private update<T>(namespace: string, change: (entries: SecretEntries) => T): Promise<T> {
    const file = this.fileFor(namespace);
    const previous = this.queues.get(file) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() =>
        withFileLock(file, async () => {
          const entries = await this.read(namespace);
          const result = change(entries);
          if (Object.keys(entries).length === 0) await rm(file, { force: true });
          else await writeAtomic(file, seal(this.key, namespace, entries));
          return result;
        }),
      );
    this.queues.set(file, next);
    void next
      .finally(() => {
        if (this.queues.get(file) === next) this.queues.delete(file);
      })
      .catch(() => undefined);
    return next;
  }

  /** The secret, or undefined. Expired secrets are returned too: check `isExpired()`. */
  async get<T = unknown>(namespace: string, name: string): Promise<Secret<T> | undefined> {
    const e = (await this.read(namespace))[name];
    return e ? new Secret(e.value as T, new Date(e.updatedAt), e.expiresAt === undefined ? undefined : new Date(e.expiresAt)) : undefined;
  }

  /** Stores a JSON value (replacing any), with an optional expiry. */
  async set<T>(namespace: string, name: string, value: T, options: { expiresAt?: Date } = {}): Promise<Secret<T>> {
    if (typeof name !== 'string' || name.length === 0) throw new ValidationError('A secret name must be a non-empty string');
    if (value === undefined) throw new ValidationError('A secret value cannot be undefined (use delete)');
    const json = JSON.parse(JSON.stringify(value)) as T;
    const updatedAt = Date.now();
    const expiresAt = options.expiresAt?.getTime();
    await this.update(namespace, (entries) => {
      entries[name] = { value: json, updatedAt, ...(expiresAt === undefined ? {} : { expiresAt }) };
    });
    return new Secret(json, new Date(updatedAt), options.expiresAt);
  }

  /** Deletes one secret, or the whole namespace when `name` is absent; resolves with whether anything was there. */
  async delete(namespace: string, name?: string): Promise<boolean> {
    return this.update(namespace, (entries) => {
      const keys = name === undefined ? Object.keys(entries) : name in entries ? [name] : [];
      for (const k of keys) delete entries[k];
      return keys.length > 0;
    });
  }

  /** Names of the secrets in a namespace, sorted. */
  async list(namespace: string): Promise<string[]> {
    return Object.keys(await this.read(namespace)).sort();
  }

  /** Number of namespace files present (namespaces are stored hashed, so their names are not listed). */
  async count(): Promise<number> {
    try {
      return (await readdir(this.secretsDir)).filter((f) => f.endsWith('.json')).length;
    } catch {
      return 0;
    }
  }
}
