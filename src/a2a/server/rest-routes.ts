import {
  A2A_CONTENT_TYPE,
  AgentCard,
  ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  ListTasksResponse,
  type Message,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
  taskStateFromJSON,
} from '@a2a-js/sdk';
import {
  ContentTypeNotSupportedError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  restStatusFor,
  toRestErrorBody,
} from '@a2a-js/sdk/errors';
import { type ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import type { Context, Hono } from 'hono';

import { HttpError } from '../../http/http-error.js';
import { bodyTypeProblem, readRequestBody } from '../../http/read-body.js';
import type { A2AAgentEntry, A2AAgentRegistry } from './a2a-agent-registry.js';
import { callContext, watchDisconnect } from './call-context.js';
import { checkV1SendParams } from './check-params.js';
import { STREAMING_STATE_KEY } from './execution/corvid-agent-executor.js';
import { sseResponse } from './sse-response.js';

interface RestDeps {
  registry: A2AAgentRegistry;
  /** Whether this request may use the agent (unknown, private and unreachable agents answer 404). */
  visible: (name: string, c: Context) => boolean;
  maxBody: number;
  /** The owner of a request's caller (see `A2ARoutesOptions.owner`). */
  owner?: (c: Context) => string | undefined;
}

type Handler = (
  c: Context,
  entry: A2AAgentEntry,
  ctx: ServerCallContext,
  match: RegExpMatchArray,
  body: () => Promise<unknown>,
) => Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': A2A_CONTENT_TYPE } });
}

/** An error as the HTTP+JSON binding answers it; `status` overrides the SDK's (415 for a body that is not JSON). */
function errorResponse(err: unknown, status?: number): Response {
  if (HttpError.isInstance(err)) return json({ error: { code: err.status, status: err.wireCode, message: err.message } }, err.status);
  const code = status ?? restStatusFor(err);
  return json(toRestErrorBody(err, code), code);
}

function nonNegativeInt(value: string | undefined, what: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new RequestMalformedError(`${what} must be a non-negative integer (got "${value.slice(0, 50)}")`);
  return Number(value);
}

function sendResult(result: Message | Task): unknown {
  const payload = 'messageId' in result ? { $case: 'message' as const, value: result } : { $case: 'task' as const, value: result };
  return SendMessageResponse.toJSON({ payload } as SendMessageResponse);
}

/** Checks the raw body's shape, then reads it as a send request. */
function sendRequest(raw: unknown): SendMessageRequest {
  const problem = checkV1SendParams(raw ?? {}, 'the body');
  if (problem) throw new RequestMalformedError(problem);
  return validateSend(SendMessageRequest.fromJSON(raw));
}

function validateSend(params: SendMessageRequest): SendMessageRequest {
  if (!params.message) throw new RequestMalformedError('message is required');
  if (!params.message.messageId) throw new RequestMalformedError('message.messageId is required');
  return params;
}

async function stream(iterable: AsyncGenerator<StreamResponse, void, undefined>, ctx: ServerCallContext): Promise<Response> {
  const closed = watchDisconnect(ctx);
  const iterator = iterable[Symbol.asyncIterator]();
  let first: IteratorResult<StreamResponse>;
  try {
    first = await iterator.next();
  } catch (err) {
    return errorResponse(err);
  }
  return sseResponse(first, iterator, {
    encode: (e) => StreamResponse.toJSON(e),
    onError: (err) => toRestErrorBody(err, restStatusFor(err)),
    onCancel: () => closed.abort(),
  });
}

const TASK = '([^/:]+)';
const routes: Array<[string, RegExp, Handler]> = [
  [
    'GET',
    /^\/extendedAgentCard$/,
    async (_c, e, ctx) => json(AgentCard.toJSON(await e.handler.getAuthenticatedExtendedAgentCard({ tenant: '' }, ctx))),
  ],
  [
    'POST',
    /^\/message:send$/,
    async (_c, e, ctx, _m, body) => json(sendResult(await e.handler.sendMessage(sendRequest(await body()), ctx))),
  ],
  ['POST', /^\/message:stream$/, async (_c, e, ctx, _m, body) => stream(e.handler.sendMessageStream(sendRequest(await body()), ctx), ctx)],
  [
    'GET',
    new RegExp(`^/tasks/${TASK}:subscribe$`),
    async (_c, e, ctx, m) => stream(e.handler.resubscribe({ id: m[1], tenant: '' }, ctx), ctx),
  ],
  [
    'POST',
    new RegExp(`^/tasks/${TASK}:subscribe$`),
    async (_c, e, ctx, m) => stream(e.handler.resubscribe({ id: m[1], tenant: '' }, ctx), ctx),
  ],
  [
    'POST',
    new RegExp(`^/tasks/${TASK}:cancel$`),
    async (_c, e, ctx, m) => json(Task.toJSON(await e.handler.cancelTask({ id: m[1], tenant: '', metadata: {} }, ctx))),
  ],
  [
    'GET',
    new RegExp(`^/tasks/${TASK}$`),
    async (c, e, ctx, m) =>
      json(
        Task.toJSON(
          await e.handler.getTask(
            { id: m[1], tenant: '', historyLength: nonNegativeInt(c.req.query('historyLength'), 'historyLength') },
            ctx,
          ),
        ),
      ),
  ],
  [
    'GET',
    /^\/tasks$/,
    async (c, e, ctx) => {
      const q = (k: string) => c.req.query(k);
      const pageSize = nonNegativeInt(q('pageSize'), 'pageSize');
      if (pageSize !== undefined && (pageSize < 1 || pageSize > 100)) throw new RequestMalformedError('pageSize must be between 1 and 100');
      const params: ListTasksRequest = {
        tenant: '',
        contextId: q('contextId') ?? '',
        status: q('status') ? taskStateFromJSON(/^\d+$/.test(q('status')!) ? Number(q('status')) : q('status')) : 0,
        pageSize,
        pageToken: q('pageToken') ?? '',
        historyLength: nonNegativeInt(q('historyLength'), 'historyLength'),
        statusTimestampAfter: q('statusTimestampAfter') || undefined,
        includeArtifacts: q('includeArtifacts') === 'true',
      };
      return json(ListTasksResponse.toJSON(await e.handler.listTasks(params, ctx)));
    },
  ],
  [
    'POST',
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs$`),
    async (_c, e, ctx, m, body) => {
      if (!e.card.capabilities?.pushNotifications) throw new PushNotificationNotSupportedError();
      const raw = (await body()) ?? {};
      if (typeof raw !== 'object' || Array.isArray(raw))
        throw new RequestMalformedError('The body must be a push notification config object');
      const config = TaskPushNotificationConfig.fromJSON({ ...(raw as object), taskId: m[1] });
      if (!config.url) throw new RequestMalformedError('url is required');
      return json(TaskPushNotificationConfig.toJSON(await e.handler.createTaskPushNotificationConfig(config, ctx)), 201);
    },
  ],
  [
    'GET',
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs$`),
    async (_c, e, ctx, m) =>
      json(
        ListTaskPushNotificationConfigsResponse.toJSON(
          await e.handler.listTaskPushNotificationConfigs({ taskId: m[1], pageSize: 0, pageToken: '', tenant: '' }, ctx),
        ),
      ),
  ],
  [
    'GET',
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs/([^/]+)$`),
    async (_c, e, ctx, m) =>
      json(TaskPushNotificationConfig.toJSON(await e.handler.getTaskPushNotificationConfig({ taskId: m[1], id: m[2], tenant: '' }, ctx))),
  ],
  [
    'DELETE',
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs/([^/]+)$`),
    async (_c, e, ctx, m) => {
      await e.handler.deleteTaskPushNotificationConfig({ taskId: m[1], id: m[2], tenant: '' }, ctx);
      return new Response(null, { status: 204 });
    },
  ],
];

/**
 * The content type of JSON answers: `application/a2a+json` (what the v1.0 spec recommends) for
 * clients that name it in `Accept` — the SDKs' clients do — else `application/json`, which every
 * JSON client (and the A2A TCK) expects.
 */
function negotiateContentType(c: Context): void {
  if (c.res.headers.get('content-type') !== A2A_CONTENT_TYPE) return;
  const accept = c.req.header('accept')?.toLowerCase() ?? '';
  if (!accept.includes(A2A_CONTENT_TYPE)) c.res.headers.set('content-type', 'application/json');
}

/** Mounts the HTTP+JSON (REST) binding of protocol v1.0 under `/a2a/:name/rest`. */
export function mountRestRoutes(app: Hono, deps: RestDeps): void {
  app.use('/a2a/:name/rest/*', async (c, next) => {
    await next();
    negotiateContentType(c);
  });
  app.all('/a2a/:name/rest/*', async (c) => {
    const name = c.req.param('name');
    if (!deps.visible(name, c)) return errorResponse(new HttpError(404, 'NOT_FOUND', `Unknown agent "${name}"`));
    const prefix = `/a2a/${encodeURIComponent(name)}/rest`;
    const rawPath = new URL(c.req.url).pathname;
    let path: string;
    try {
      path = decodeURIComponent(rawPath.slice(rawPath.indexOf('/rest/') + '/rest'.length));
    } catch {
      return errorResponse(new RequestMalformedError('The URL path is not valid percent-encoding'));
    }
    void prefix;
    // The agent's URL with a trailing slash: `rest//message:send`, `rest/tasks/x/`.
    if (path.length > 1) path = `/${path.replace(/^\/+|\/+$/g, '')}`;
    const candidates = routes.filter(([, re]) => re.test(path));
    if (candidates.length === 0) return errorResponse(new HttpError(404, 'NOT_FOUND', `No A2A REST operation at ${path.slice(0, 200)}`));
    const route = candidates.find(([method]) => method === c.req.method);
    if (!route)
      return json(
        { error: { code: 405, status: 'METHOD_NOT_ALLOWED', message: `${c.req.method} is not allowed on ${path.slice(0, 200)}` } },
        405,
      );
    // Every body must be JSON, on each method that changes state (cancel and subscribe too).
    const badType = c.req.method === 'GET' ? undefined : bodyTypeProblem(c.req.raw, c.env);
    if (badType) return errorResponse(new ContentTypeNotSupportedError(badType), 415);
    const entry = await deps.registry.get(name);
    if (!entry) return errorResponse(new HttpError(404, 'NOT_FOUND', `Unknown agent "${name}"`));
    try {
      const context = callContext(c, false, deps.owner?.(c));
      if (path === '/message:stream') context.state.set(STREAMING_STATE_KEY, true);
      validateVersion(context.requestedVersion, entry.card, 'HTTP+JSON');
      const body = async (): Promise<unknown> => {
        const read = await readRequestBody(c.req.raw, deps.maxBody, c.env);
        if (!read.ok) {
          if (read.reason === 'too_large') throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `Request body larger than ${deps.maxBody} bytes`);
          throw new RequestMalformedError('Could not read the request body');
        }
        if (read.text.trim() === '') return undefined;
        try {
          return JSON.parse(read.text);
        } catch {
          throw new RequestMalformedError('Invalid JSON payload.');
        }
      };
      return await route[2](c, entry, context, path.match(route[1])!, body);
    } catch (err) {
      return errorResponse(err);
    }
  });
}
