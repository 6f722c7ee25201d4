import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';

import { redactUrl, redactUrls } from '../../core/redact-urls.js';
import { importA2ASdk } from './import-a2a-sdk.js';
import { RemoteAgentError } from './remote-agent-error.js';

/** How to reach an A2A agent. */
export interface ConnectA2AOptions {
  /** An agent-card URL (`…/agent-card.json`), a server's base URL (the card is at `/.well-known/agent-card.json`), or a JSON-RPC endpoint. */
  url: string;
  /** Sent with every request (card included), e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** Transport preference; default the card's order. */
  preferredTransports?: Array<'JSONRPC' | 'HTTP+JSON'>;
  signal?: AbortSignal;
}

/** A connected A2A client and the card it was made from. */
export interface A2AConnection {
  client: Client;
  card: AgentCard;
}

/** The URL for messages: credentials masked, query and fragment dropped (`redactUrl`). */
export function displayUrl(url: string): string {
  return redactUrl(url);
}

/**
 * Connects to an A2A agent with the official SDK client (loaded now): resolves its card (v1.0 or
 * v0.3 — older servers get the v0.3 transports), picks a transport (JSON-RPC or HTTP+JSON).
 * A URL without a card is taken as a JSON-RPC endpoint.
 * @throws RemoteAgentError when the card cannot be fetched or no transport fits.
 */
export async function connectA2A(options: ConnectA2AOptions): Promise<A2AConnection> {
  const { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } = await importA2ASdk(
    () => import('@a2a-js/sdk/client'),
    'Calling an A2A agent',
  );
  const extra = options.headers ?? {};
  const withHeaders =
    (signal?: AbortSignal): typeof fetch =>
    (input, init) => {
      const headers = new Headers(init?.headers);
      for (const [k, v] of Object.entries(extra)) if (!headers.has(k)) headers.set(k, v);
      return fetch(input, { ...init, headers, signal: init?.signal ?? signal });
    };
  const fetchImpl = withHeaders();
  const legacyCompat = { enabled: true };
  // The card fetch honours the connect signal; later calls bring their own.
  const resolver = new DefaultAgentCardResolver({ fetchImpl: withHeaders(options.signal), legacyCompat });
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })],
    preferredTransports: options.preferredTransports,
    cardResolver: resolver,
  });
  let parsed: URL;
  try {
    parsed = new URL(options.url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch (cause) {
    throw new RemoteAgentError(`"${displayUrl(options.url)}" is not an http(s) URL of an A2A agent`, {
      url: displayUrl(options.url),
      unreachable: true,
      cause,
    });
  }
  const cardUrls = parsed.pathname.endsWith('.json')
    ? [options.url]
    : [new URL('.well-known/agent-card.json', withSlash(options.url)).href];
  let card: AgentCard | undefined;
  let problem: unknown;
  for (const url of cardUrls) {
    try {
      card = await resolver.resolve(url, '');
      break;
    } catch (err) {
      problem = err;
    }
  }
  if (!card) {
    if (problem instanceof TypeError || (problem as Error)?.name === 'AbortError' || (problem as Error)?.name === 'TimeoutError') {
      throw new RemoteAgentError(
        `Cannot reach the A2A agent at ${displayUrl(options.url)}: ${message((problem as Error).cause ?? problem)}`,
        { url: displayUrl(options.url), unreachable: true, cause: problem },
      );
    }
    if (parsed.pathname.endsWith('.json')) {
      throw new RemoteAgentError(`Cannot fetch the agent card at ${displayUrl(options.url)}: ${message(problem)}`, {
        url: displayUrl(options.url),
        unreachable: true,
        cause: problem,
      });
    }
    // No card: a bare JSON-RPC endpoint.
    card = endpointCard(options.url);
  }
  try {
    return { client: await factory.createFromAgentCard(card), card };
  } catch (err) {
    throw new RemoteAgentError(`No usable transport for the agent at ${displayUrl(options.url)}: ${message(err)}`, {
      url: displayUrl(options.url),
      unreachable: true,
      cause: err,
    });
  }
}

function withSlash(url: string): string {
  const u = new URL(url);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u.href;
}

/** An error's message, URLs in it redacted. */
function message(err: unknown): string {
  return redactUrls(err instanceof Error ? err.message : String(err));
}

function endpointCard(url: string): AgentCard {
  return {
    name: 'remote',
    description: '',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  } as AgentCard;
}
