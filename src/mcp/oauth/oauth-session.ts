import { randomBytes } from 'node:crypto';

import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

import { McpError } from '../../errors/mcp-error.js';
import type { McpAuthSession } from '../mcp-connection-options.js';
import type { McpHttpServerConfig } from '../mcp-server-config.js';
import { loadClientSdk } from '../sdk.js';
import type { McpOpenUrl } from '../types.js';
import { type CallbackResult, DEFAULT_CALLBACK_PORT, OAuthCallbackServer } from './callback-server.js';
import { corvidClientMetadata } from './client-metadata-document.js';
import { openInBrowser } from './open-browser.js';
import { SecretTokenStore, type StoredOAuthState, type TokenStore } from './token-store.js';

/** Refresh access tokens this long before they expire. */
export const REFRESH_BUFFER_MS = 60_000;
/** How long to wait for the user to finish in the browser. */
export const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 300_000;

/** Options of an OAuth session. */
export interface OAuthSessionOptions {
  /** Where tokens are kept. Default: the encrypted secret store (`SecretTokenStore`). */
  store?: TokenStore;
  /** Shows the authorization URL. Default: opens the browser and prints the URL on stderr. */
  openUrl?: McpOpenUrl;
  /** Whether the browser flow may start. When false, a server that needs authorization fails with a hint to `corvid mcp login`. Default true. */
  interactive?: boolean;
  /** How long to wait for the browser step. Default 5 minutes. */
  authorizationTimeoutMs?: number;
}

/**
 * The SDK's `OAuthClientProvider` for one server: client registration, tokens and discovery
 * results in a `TokenStore` under the server URL; the PKCE verifier and `state` in memory; the
 * authorization URL opened in the browser while a localhost callback waits for the code.
 */
class CorvidOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private pendingState: string | undefined;

  constructor(
    private readonly server: string,
    private readonly config: McpHttpServerConfig & { auth: { type: 'oauth' } },
    private readonly store: TokenStore,
    private readonly callback: OAuthCallbackServer,
    private readonly onRedirect: (url: URL) => Promise<void>,
  ) {}

  get redirectUrl(): string {
    return this.callback.redirectUrl;
  }

  /** The URL client id (CIMD); the SDK uses it when the authorization server supports it. */
  get clientMetadataUrl(): string | undefined {
    return this.config.auth.clientId ? undefined : this.config.auth.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const a = this.config.auth;
    return corvidClientMetadata({
      clientName: a.clientName,
      redirectUrl: this.redirectUrl,
      scopes: a.scopes,
      confidential: Boolean(a.clientSecret),
    });
  }

  state(): string {
    this.pendingState = randomBytes(16).toString('base64url');
    this.callback.expectedState = this.pendingState;
    return this.pendingState;
  }

  private async load(): Promise<StoredOAuthState> {
    return (await this.store.get(this.config.url)) ?? {};
  }

  private async save(change: (s: StoredOAuthState) => void): Promise<void> {
    const s = await this.load();
    change(s);
    await this.store.set(this.config.url, s);
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const a = this.config.auth;
    if (a.clientId) {
      const stored = (await this.load()).client as OAuthClientInformationMixed | undefined;
      // Keep the issuer the SDK stamped on the pre-registered client after its first use.
      if (stored && stored.client_id === a.clientId) return { ...stored, client_secret: a.clientSecret };
      return a.clientSecret ? { client_id: a.clientId, client_secret: a.clientSecret } : { client_id: a.clientId };
    }
    return (await this.load()).client as OAuthClientInformationMixed | undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    const { client_secret: _secret, ...rest } = info as OAuthClientInformationMixed & { client_secret?: string };
    // A configured secret stays in the config; a registered one must be kept.
    const keep = this.config.auth.clientId ? rest : info;
    await this.save((s) => {
      s.client = keep as Record<string, unknown>;
    });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.save((s) => {
      s.tokens = tokens as unknown as Record<string, unknown>;
      s.expiresAt = typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    await this.onRedirect(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier)
      throw new McpError(`MCP server "${this.server}": no authorization is in progress (missing PKCE verifier)`, {
        kind: 'auth',
        server: this.server,
      });
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'verifier') return;
    await this.save((s) => {
      if (scope === 'all' || scope === 'tokens') {
        delete s.tokens;
        delete s.expiresAt;
      }
      if (scope === 'all' || scope === 'client') delete s.client;
      if (scope === 'all' || scope === 'discovery') delete s.discovery;
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.save((s) => {
      s.discovery = JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discovery as OAuthDiscoveryState | undefined;
  }
}

/**
 * The OAuth 2.1 side of one remote server, built on the SDK's `auth()`: discovery (RFC 9728,
 * RFC 8414 / OpenID Connect), dynamic registration (RFC 7591) or a pre-registered client,
 * PKCE S256, the `resource` parameter (RFC 8707) — all done by the SDK — plus what the SDK leaves
 * to clients: opening the browser, the localhost callback, token storage, and refreshing tokens
 * 60 s before they expire.
 */
export async function createOAuthSession(
  server: string,
  config: McpHttpServerConfig,
  options: OAuthSessionOptions = {},
): Promise<McpAuthSession & { login(): Promise<void>; logout(): Promise<void> }> {
  if (config.auth?.type !== 'oauth') throw new McpError(`MCP server "${server}" is not configured for OAuth`, { kind: 'auth', server });
  const oauthConfig = config as McpHttpServerConfig & { auth: { type: 'oauth' } };
  const store = options.store ?? new SecretTokenStore();
  const callback = new OAuthCallbackServer(config.auth.callbackPort ?? DEFAULT_CALLBACK_PORT);
  const open = options.openUrl ?? ((url: string, id: string) => openInBrowser(url, id));
  const timeoutMs = options.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS;
  let pending: Promise<string> | undefined;

  const authError = (message: string, cause?: unknown): McpError =>
    new McpError(`MCP server "${server}": ${message}`, { kind: 'auth', server, cause });

  const onRedirect = async (url: URL): Promise<void> => {
    if (options.interactive === false) {
      throw authError(`needs authorization; run "corvid mcp login ${server}" first`);
    }
    let result: Promise<CallbackResult>;
    try {
      result = (await callback.listen()).next;
    } catch (err) {
      throw authError(
        `cannot listen for the OAuth callback on 127.0.0.1:${callback.port} (${(err as Error).message}); set auth.callback_port to a free port`,
        err,
      );
    }
    pending = (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(authError(`authorization was not completed within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      });
      try {
        const r = await Promise.race([result, timeout]);
        if ('code' in r) return r.code;
        if (r.error === 'access_denied') throw authError(`authorization was denied${r.description ? ` (${r.description})` : ''}`);
        throw authError(`authorization failed: ${r.error}${r.description ? ` (${r.description})` : ''}`);
      } catch (err) {
        if (McpError.isInstance(err)) throw err;
        throw authError(`authorization failed: ${(err as Error).message}`, err);
      } finally {
        clearTimeout(timer);
        await callback.close().catch(() => undefined);
      }
    })();
    pending.catch(() => undefined);
    await open(url.href, server);
  };

  const provider = new CorvidOAuthProvider(server, oauthConfig, store, callback, onRedirect);

  const waitForCode = async (): Promise<string> => {
    const p = pending;
    pending = undefined;
    if (!p) throw authError('the server refused the credentials and no authorization was started');
    return p;
  };

  /** Runs the SDK's `auth()`, completing a browser step when it starts one. */
  const authorize = async (): Promise<void> => {
    const sdk = await loadClientSdk();
    try {
      const first = await sdk.auth.auth(provider, { serverUrl: config.url });
      if (first === 'AUTHORIZED') return;
      const code = await waitForCode();
      await sdk.auth.auth(provider, { serverUrl: config.url, authorizationCode: code });
    } catch (err) {
      if (McpError.isInstance(err)) throw err;
      throw authError(describeOAuthError(err), err);
    }
  };

  return {
    provider,
    waitForCode,
    async ensureFresh() {
      const s = await store.get(config.url);
      if (!s?.tokens || s.expiresAt === undefined || Date.now() + REFRESH_BUFFER_MS < s.expiresAt) return;
      // Expiring: refresh (the SDK uses the refresh token); without one, or when refreshing is
      // refused, auth() starts a new authorization.
      if (!s.tokens.refresh_token) await provider.invalidateCredentials('tokens');
      await authorize();
    },
    login: authorize,
    async logout() {
      await store.delete(config.url);
    },
    async dispose() {
      await callback.close().catch(() => undefined);
    },
  };
}

/** A readable reason for errors of the SDK's OAuth functions. */
export function describeOAuthError(err: unknown): string {
  const e = err as { errorCode?: string; message?: string; cause?: { code?: string } };
  if (e?.errorCode === 'invalid_grant') return `the authorization server refused the grant (invalid_grant: ${e.message})`;
  if (e?.errorCode) return `OAuth error ${e.errorCode}: ${e.message}`;
  const text = `${e?.message ?? ''} ${e?.cause?.code ?? ''}`;
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH/i.test(text))
    return `cannot reach the authorization server (${e?.cause?.code ?? e?.message})`;
  return `authorization failed: ${e?.message ?? String(err)}`;
}
