import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler, validateVersion } from '@a2a-js/sdk/server';
import { type Context, Hono } from 'hono';

import { bodyTypeProblem, readRequestBody } from '../../http/read-body.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../http/read-incoming.js';
import { requestHeader } from '../../http/request-header.js';
import type { TextSealer } from '../../secrets/index.js';
import type { Store } from '../../types/storage/store.js';
import { legacyRestAvailable, mountLegacyRest } from '../compat/legacy-rest-bridge.js';
import { A2AAgentRegistry } from './a2a-agent-registry.js';
import type { A2ARuntime } from './a2a-runtime.js';
import { agentCardJson, buildAgentCard, legacyAgentCardJson } from './agent-card.js';
import { callContext, wantsLegacy, watchDisconnect } from './call-context.js';
import { CardCache } from './card-cache.js';
import { checkEnvelope, checkLegacyParams, checkV1SendParams, defaultLegacyParams, historyLengthProblem } from './check-params.js';
import { type A2ARunObserver, type A2ATaskHook, STREAMING_STATE_KEY } from './execution/corvid-agent-executor.js';
import type { A2ALogger } from './push/guarded-push-sender.js';
import { mountRestRoutes } from './rest-routes.js';
import { sseError, sseResponse } from './sse-response.js';

/** Who may see an agent over HTTP: `private` agents answer 404. */
export type A2AVisibility = 'public' | 'internal' | 'private';

/** Options for `createA2ARoutes`. */
export interface A2ARoutesOptions {
  /** The current runtime (an accessor: a config reload swaps it). */
  runtime: () => A2ARuntime;
  /**
   * Absolute URL the server is reachable at (cards advertise URLs under it), e.g.
   * `http://127.0.0.1:8080`; or a function giving it when asked (a server listening on port 0).
   */
  baseUrl: string | (() => string);
  /** Durable tasks, push configs and conversations (context id = session id). Default: in memory. */
  store?: () => Promise<Store>;
  visibility: (agent: string) => A2AVisibility;
  /**
   * Whether `GET /agents` lists an agent for this request (e.g. internal agents only to callers
   * with a valid token). Default: public agents only. Private agents are never listed.
   */
  listAgent?: (agent: string, request: Request) => boolean;
  /**
   * Whether this request may use an agent that is not private — e.g. internal agents only for
   * authenticated callers (`corvid serve` reads the principal its middleware set). An agent the
   * request may not reach answers exactly like an unknown one (404), card included. Default: every
   * agent that is not private.
   */
  reachable?: (agent: string, c: Context) => boolean;
  /** Security schemes advertised on the cards: OpenAPI form (`{ bearer: { type: 'http', scheme: 'bearer' } }`) or v1.0 JSON form (`{ bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } }`). */
  securitySchemes?: Record<string, unknown>;
  /** Security requirements advertised on the cards (scheme name → scopes). */
  security?: Record<string, string[]>[];
  /**
   * Serve the authenticated extended agent card (`GetExtendedAgentCard`,
   * `agent/getAuthenticatedExtendedCard`, REST `GET extendedAgentCard`), and say so on the cards
   * (`capabilities.extendedAgentCard`, v0.3 `supportsAuthenticatedExtendedCard`). The extended
   * card is the agent's card as a v1.0 request gets it. `corvid serve` turns it on with auth.
   * Default false: those calls answer "unsupported operation".
   */
  extendedCard?: boolean;
  /**
   * Hosts push notifications may be delivered to (`*`: any). Default: loopback only. Push configs
   * for other hosts, other schemes than http(s) or with credentials in the URL are refused.
   */
  pushAllowedHosts?: string[];
  /**
   * Encrypts the tokens and credentials of push configs kept in `store`. Default: Corvid's secret
   * store (`$CORVID_HOME` or `~/.corvid`; key from `CORVID_SECRET_KEY` or the key file there),
   * opened when a first token is saved or read.
   */
  secrets?: () => Promise<TextSealer>;
  /** Largest request body in bytes, on every route. Default `DEFAULT_MAX_BODY_BYTES` (1 MiB), as `corvid serve`'s `server.max_body_bytes`. */
  maxBodyBytes?: number;
  /**
   * The caller of a request as the server's auth knows it (e.g. `key:ci`, a JWT's user). Tasks,
   * contexts, push configs and the session runs behind them belong to the caller that created
   * them: get, list, cancel, resubscribe, continue and push-config calls of anyone else answer
   * "not found". Unset or `undefined`: the caller is anonymous (everything anonymous is shared).
   */
  owner?: (c: Context) => string | undefined;
  /** Warnings (undelivered push notifications). Default `console.warn`. */
  logger?: A2ALogger;
  /** Run for every task once it is `working`, before its agent runs (see `A2ATaskHook`). */
  beforeTask?: A2ATaskHook;
  /** Watches every task's run: metrics, traces, token accounting (see `A2ARunObserver`). */
  observe?: A2ARunObserver;
}

/** JSON-RPC methods answered with a stream (v1.0 and v0.3). */
const STREAMING_METHODS = new Set(['SendStreamingMessage', 'SubscribeToTask', 'message/stream', 'tasks/resubscribe']);

function rpcError(c: Context, code: number, message: string, status: 200 | 404 | 413 = 200, id: unknown = null): Response {
  return c.json({ jsonrpc: '2.0', id, error: { code, message } }, status);
}

/**
 * Hono routes serving every visible agent of the runtime over A2A: protocol v1.0 (JSON-RPC and
 * HTTP+JSON) and v0.3 (JSON-RPC). Layout:
 * - `GET /.well-known/agent-card.json` — the default agent's card; `GET /agents` — every public agent's card;
 *   `GET /agents/:name/.well-known/agent-card.json` — one agent's card. Cards are v1.0 when the request
 *   sends `A2A-Version: 1.0`, else v0.3 (with the v1.0 interfaces under `supportedInterfaces`), with
 *   caching headers (`ETag`, `Last-Modified`, `Cache-Control`; 304 for a matching `If-None-Match`).
 * - `POST /a2a/:name` (or `/a2a/:name/`) — JSON-RPC; `A2A-Version: 1.0` selects v1.0 methods (`SendMessage`, …), no header
 *   or 0.3 the v0.3 ones (`message/send`, …).
 * - `/a2a/:name/rest/...` — HTTP+JSON v1.0 (`POST message:send`, `GET tasks/:id`, …), and v0.3
 *   (`/a2a/:name/rest/v1/...`) when the optional package express is installed.
 * Private agents answer 404 everywhere. Authentication is the caller's job (mount behind it).
 */
export async function createA2ARoutes(options: A2ARoutesOptions): Promise<Hono> {
  const legacyRest = await legacyRestAvailable();
  const registry = new A2AAgentRegistry({ ...options, legacyRest });
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const app = new Hono();
  const reachable = options.reachable;
  const visible = (name: string, c: Context) =>
    options.runtime().agents.has(name) && options.visibility(name) !== 'private' && (reachable === undefined || reachable(name, c));
  const unknownAgent = (c: Context, name: string) => c.json({ error: { code: 'not_found', message: `Unknown agent "${name}"` } }, 404);

  const cards = new CardCache();
  const cardResponse = (c: Context, name: string): Response => {
    const input = registry.cardInput(name);
    if (!input || !visible(name, c)) return unknownAgent(c, name);
    const legacy = wantsLegacy(c);
    return cards.respond({
      key: `${legacy ? '0.3' : '1.0'} ${name}`,
      card: legacy ? legacyAgentCardJson(input) : agentCardJson(buildAgentCard(input)),
      shared: options.visibility(name) === 'public',
      ifNoneMatch: requestHeader(c, 'if-none-match'),
      ifModifiedSince: requestHeader(c, 'if-modified-since'),
    });
  };

  app.get('/.well-known/agent-card.json', (c) => cardResponse(c, options.runtime().defaultAgent));
  app.get('/agents/:name/.well-known/agent-card.json', (c) => cardResponse(c, c.req.param('name')));
  app.get('/agents', (c) => {
    // The list is v1.0 unless v0.3 is asked for explicitly.
    const legacy = requestHeader(c, A2A_VERSION_HEADER.toLowerCase()) !== undefined && wantsLegacy(c);
    const listed = options.listAgent ?? ((n: string) => options.visibility(n) === 'public');
    const names = [...options.runtime().agents.keys()].filter((n) => options.visibility(n) !== 'private' && listed(n, c.req.raw));
    c.header('Vary', A2A_VERSION_HEADER);
    return c.json({
      agents: names.map((n) =>
        legacy ? legacyAgentCardJson(registry.cardInput(n)!) : agentCardJson(buildAgentCard(registry.cardInput(n)!)),
      ),
    });
  });

  // The agent's URL with or without a trailing slash (clients join "/" to it).
  app.on('POST', ['/a2a/:name', '/a2a/:name/'], async (c) => {
    const name = c.req.param('name');
    if (!visible(name, c)) return rpcError(c, -32601, `Unknown agent "${name}"`, 404);
    const legacy = wantsLegacy(c);
    const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    // A body that is not JSON (a form, text/plain: what a page of another site can send) is refused with 415.
    const badType = bodyTypeProblem(c.req.raw, c.env);
    if (badType) return c.json({ jsonrpc: '2.0', id: null, error: mapError(new ContentTypeNotSupportedError(badType)) }, 415);
    const body = await readRequestBody(c.req.raw, maxBody, c.env);
    if (!body.ok)
      return rpcError(
        c,
        -32600,
        body.reason === 'too_large' ? `Request body larger than ${maxBody} bytes` : 'Could not read the request body',
        body.reason === 'too_large' ? 413 : 200,
      );
    let request: unknown;
    try {
      request = JSON.parse(body.text);
    } catch {
      return rpcError(c, -32700, 'Invalid JSON payload.');
    }
    if (!request || typeof request !== 'object' || Array.isArray(request))
      return rpcError(c, -32600, 'A JSON-RPC request must be an object (batches are not supported).');
    const rawId = (request as { id?: unknown }).id;
    const id = typeof rawId === 'string' || (typeof rawId === 'number' && Number.isInteger(rawId)) ? rawId : null;
    const invalid = checkEnvelope(request as Record<string, unknown>);
    if (invalid)
      return rpcError(c, -32600, `Invalid Request: ${invalid}`, 200, typeof rawId === 'string' || typeof rawId === 'number' ? id : null);
    const method = (request as { method?: unknown }).method;
    const entry = registry.ready(name) ?? (await registry.get(name));
    if (!entry) return rpcError(c, -32601, `Unknown agent "${name}"`, 404);
    const context = callContext(c, legacy, options.owner?.(c));
    const closed = typeof method === 'string' && STREAMING_METHODS.has(method) ? watchDisconnect(context) : undefined;
    if (closed) context.state.set(STREAMING_STATE_KEY, true);
    if (typeof method === 'string' && (legacy ? isV1JsonRpcMethod(method) : isLegacyJsonRpcMethod(method))) {
      const hint = legacy
        ? 'a v1.0 method: send the header "A2A-Version: 1.0"'
        : 'a v0.3 method: send "A2A-Version: 0.3" or no A2A-Version header';
      return rpcError(c, -32601, `Method not found: ${method} (${hint})`, 200, id);
    }
    // Unknown methods are refused before their params are looked at (the SDK's handlers check the
    // params first, which made a call without params a -32602).
    if (typeof method !== 'string' || !(legacy ? isLegacyJsonRpcMethod(method) : isV1JsonRpcMethod(method))) {
      return rpcError(c, -32601, `Method not found: ${String(method).slice(0, 100)}`, 200, id);
    }
    const params = (request as { params?: unknown }).params;
    const problem = legacy
      ? checkLegacyParams(method, params)
      : method === 'SendMessage' || method === 'SendStreamingMessage'
        ? checkV1SendParams(params)
        : method === 'GetTask'
          ? historyLengthProblem(params, 'params')
          : undefined;
    if (problem) return rpcError(c, -32602, `Invalid params: ${problem}`, 200, id);
    if (legacy) defaultLegacyParams(method, params);
    try {
      validateVersion(context.requestedVersion, entry.card, 'JSONRPC');
      const handler = legacy ? entry.legacyJsonRpc : entry.jsonRpc;
      const result = await handler.handle(request as Record<string, unknown>, context);
      if (!isAsyncIterable(result)) return c.json(result, 200);
      const iterator = result[Symbol.asyncIterator]();
      let first: IteratorResult<unknown>;
      try {
        first = await iterator.next();
      } catch (err) {
        // Refused before the first event (unknown or finished task): v1.0 answers with the
        // JSON-RPC error as a JSON body; v0.3 as a stream of one error event, as the v0.3 TCK expects.
        if (!legacy) return c.json({ jsonrpc: '2.0', id, error: mapError(err) }, 200);
        return sseError({ jsonrpc: '2.0', id, error: mapError(err) });
      }
      return sseResponse(first, iterator, {
        encode: (v) => v,
        onError: (err) => ({ jsonrpc: '2.0', id, error: mapError(err) }),
        onCancel: () => closed?.abort(),
      });
    } catch (err) {
      return c.json({ jsonrpc: '2.0', id, error: mapError(err) }, 200);
    }
  });

  if (legacyRest) mountLegacyRest(app, { registry, visible, maxBody, owner: options.owner });
  mountRestRoutes(app, { registry, visible, maxBody, owner: options.owner });
  return app;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function';
}
