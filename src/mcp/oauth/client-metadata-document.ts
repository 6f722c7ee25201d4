import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';

import { DEFAULT_CALLBACK_PORT } from './callback-server.js';

/** Options of `clientMetadataDocument`: the same values as the server's `auth: { type: oauth }`. */
export interface ClientMetadataDocumentOptions {
  /** Where the document will be published (an https URL with a path); it is also the client id. */
  url: string;
  /** Default `Corvid`. */
  clientName?: string;
  /** Port of the localhost callback. Default 8889. */
  callbackPort?: number;
  scopes?: string[];
}

/** The metadata Corvid's OAuth client registers with (dynamic registration) or publishes (CIMD). */
export function corvidClientMetadata(options: {
  clientName?: string;
  redirectUrl: string;
  scopes?: string[];
  confidential?: boolean;
}): OAuthClientMetadata {
  const meta: OAuthClientMetadata = {
    client_name: options.clientName ?? 'Corvid',
    redirect_uris: [options.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: options.confidential ? 'client_secret_post' : 'none',
  };
  if (options.scopes?.length) meta.scope = options.scopes.join(' ');
  return meta;
}

/**
 * The Client ID Metadata Document to publish at `client_metadata_url` (serve it as
 * `application/json`): Corvid's client metadata with `client_id` set to that URL and the
 * localhost callback as redirect URI.
 * @example
 * writeFileSync('client.json', JSON.stringify(clientMetadataDocument({ url: 'https://example.com/corvid/client.json' }), null, 2));
 */
export function clientMetadataDocument(options: ClientMetadataDocumentOptions): OAuthClientMetadata & { client_id: string } {
  const redirectUrl = `http://127.0.0.1:${options.callbackPort ?? DEFAULT_CALLBACK_PORT}/callback`;
  return { client_id: options.url, ...corvidClientMetadata({ clientName: options.clientName, redirectUrl, scopes: options.scopes }) };
}
