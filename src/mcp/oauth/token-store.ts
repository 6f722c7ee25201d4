import type { SecretStore } from '../../secrets/index.js';

/** What Corvid keeps per OAuth-protected server URL. */
export interface StoredOAuthState {
  /** Tokens as the SDK saved them (`access_token`, `refresh_token`, `expires_in`, `issuer`…). */
  tokens?: Record<string, unknown>;
  /** When the access token expires (ms since the epoch), computed from `expires_in` at save time. */
  expiresAt?: number;
  /** The registered (or pre-registered) client. */
  client?: Record<string, unknown>;
  /** Discovery results (authorization server, metadata), so later runs skip discovery. */
  discovery?: Record<string, unknown>;
}

/**
 * Where OAuth state is kept, per server URL. Small on purpose, so stores can be swapped: the
 * default encrypts with Corvid's secret store; tests use `MemoryTokenStore`.
 */
export interface TokenStore {
  get(serverUrl: string): Promise<StoredOAuthState | undefined>;
  set(serverUrl: string, state: StoredOAuthState): Promise<void>;
  delete(serverUrl: string): Promise<void>;
}

/** Name of the secret holding a server's OAuth state, in the namespace of its URL. */
const SECRET_NAME = 'mcp-oauth';

/**
 * OAuth state in Corvid's secret store (AES-256-GCM, files 0600), one namespace per server URL.
 * The store opens on first use: `$CORVID_HOME`, else `~/.corvid`, key from `CORVID_SECRET_KEY`
 * or the generated key file.
 */
export class SecretTokenStore implements TokenStore {
  private store: Promise<SecretStore> | undefined;

  constructor(private readonly open: () => Promise<SecretStore> = defaultSecretStore) {}

  private secrets(): Promise<SecretStore> {
    this.store ??= this.open();
    return this.store;
  }

  async get(serverUrl: string): Promise<StoredOAuthState | undefined> {
    const s = await (await this.secrets()).get<StoredOAuthState>(serverUrl, SECRET_NAME);
    return s?.value;
  }

  async set(serverUrl: string, state: StoredOAuthState): Promise<void> {
    await (await this.secrets()).set(serverUrl, SECRET_NAME, state);
  }

  async delete(serverUrl: string): Promise<void> {
    await (await this.secrets()).delete(serverUrl, SECRET_NAME);
  }
}

async function defaultSecretStore(): Promise<SecretStore> {
  const { SecretStore } = await import('../../secrets/index.js');
  return SecretStore.openDefault();
}

/** A store in memory (tests, programs that keep no tokens). */
export class MemoryTokenStore implements TokenStore {
  private readonly data = new Map<string, StoredOAuthState>();

  async get(serverUrl: string): Promise<StoredOAuthState | undefined> {
    const s = this.data.get(serverUrl);
    return s && structuredClone(s);
  }

  async set(serverUrl: string, state: StoredOAuthState): Promise<void> {
    this.data.set(serverUrl, structuredClone(state));
  }

  async delete(serverUrl: string): Promise<void> {
    this.data.delete(serverUrl);
  }
}
