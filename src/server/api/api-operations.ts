import type { z } from 'zod';

import { AGENT_EVENT_TYPES } from '../../types/events.js';
import { STUDIO_OPERATIONS } from '../studio/studio-api-operations.js';
import {
  approvalAnswerSchema,
  chatRequestSchema,
  executeRequestSchema,
  listApprovalsQuerySchema,
  listRunsQuerySchema,
  listSessionsQuerySchema,
  resumeRequestSchema,
  runQuerySchema,
  submitRunSchema,
} from './request-schemas.js';
import {
  agentInfoSchema,
  agentListSchema,
  anyRunSchema,
  approvalAcceptedSchema,
  approvalListSchema,
  approvalSchema,
  backgroundRunSchema,
  chatResponseSchema,
  errorSchema,
  executeResultSchema,
  gatewayErrorSchema,
  healthSchema,
  jsonRpcMessageSchema,
  openApiSchema,
  pausedResponseSchema,
  readinessSchema,
  runListSchema,
  scheduleListSchema,
  servedToolListSchema,
  sessionListSchema,
  sessionSchema,
} from './response-schemas.js';

/** One answer of an operation: a JSON body (a zod schema), an SSE stream, plain text, or no body. */
export interface ApiResponse {
  description: string;
  /** Schema of the `application/json` body. */
  json?: z.ZodType;
  /** The answer may be `text/event-stream` instead (what its events are). */
  sse?: string;
  /** A `text/plain` body. */
  text?: boolean;
  /** Other content types of the body (e.g. a download), documented as strings. */
  other?: string[];
}

/** One route of the HTTP API as the OpenAPI document describes it. */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template (`{name}`). */
  path: string;
  operationId: string;
  summary: string;
  /** Path parameters: name → description. */
  pathParams?: Record<string, string>;
  /** The query, a zod object of string fields (its input side is documented). */
  query?: z.ZodObject;
  body?: { schema: z.ZodType; required: boolean };
  /** Answers by HTTP status. */
  responses: Record<string, ApiResponse>;
}

const error = (description: string): ApiResponse => ({ description, json: errorSchema });
/** Answers any route may give behind auth and rate limits. */
const common = { '401': error('Missing or invalid credentials'), '429': error('Rate limited (see Retry-After)') };
const foreignOrigin = {
  '403': error(
    "A browser request whose `Origin` is neither the server's nor in `server.cors.origins` (`origin_not_allowed`), or a `Host` not allowed (`host_not_allowed`)",
  ),
};
const guarded = {
  ...foreignOrigin,
  '413': error('Body too large (`payload_too_large`)'),
  '415': error('A body that is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)'),
};
const turnAnswer: ApiResponse = {
  description:
    'The answer (JSON), or `text/event-stream`: `session`, then one event per run event (`event: <type>`, JSON data), then `done` (`status`: completed, input_required, paused or failed).',
  json: chatResponseSchema,
  sse: `Event names: session, ${AGENT_EVENT_TYPES.join(', ')}, done`,
};
const paused: ApiResponse = {
  description: 'The run paused: a tool call waits for approval (servers with a store). Answer with POST /api/v1/approvals/{id}.',
  json: pausedResponseSchema,
};
/** Failures of a run answered over JSON (provider trouble is 502/503/504, not 500). */
const runFailures = {
  '422': error('The run hit a limit (`max_steps_exceeded`, `limit_exceeded`)'),
  '500': error('An unexpected failure (details in the server log)'),
  '502': error('The model provider failed'),
  '503': error('The provider or the storage is unavailable'),
  '504': error('The provider timed out'),
};
const noStore = error('Unknown id, or a server without a store (`no_store`)');
const name = { name: 'Agent name' };
const sessionId = { id: 'Session id' };
const approvalId = { id: 'Approval id' };
const runId = { id: 'Run id' };

/** The chat API: agents, chat turns, sessions. */
const chatOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/agents',
    operationId: 'listAgents',
    summary: 'Agents this caller can see',
    responses: { '200': { description: 'The agents', json: agentListSchema }, ...common },
  },
  {
    method: 'get',
    path: '/api/v1/agents/{name}',
    operationId: 'getAgent',
    summary: 'One agent',
    pathParams: name,
    responses: { '200': { description: 'The agent', json: agentInfoSchema }, '404': error('Unknown agent'), ...common },
  },
  {
    method: 'post',
    path: '/api/v1/agents/{name}/chat',
    operationId: 'chat',
    summary: 'Send a message; JSON answer, or an SSE stream of run events with `stream: true` or `Accept: text/event-stream`',
    pathParams: name,
    body: { schema: chatRequestSchema, required: true },
    responses: {
      '200': turnAnswer,
      '202': paused,
      '400': error('Malformed JSON or a wrong field'),
      '404': error('Unknown agent or session'),
      '409': error('The session is busy or belongs to another agent'),
      ...guarded,
      ...common,
      ...runFailures,
    },
  },
  {
    method: 'get',
    path: '/api/v1/agents/{name}/ws',
    operationId: 'chatWebSocket',
    summary: 'WebSocket: send `WsClientMessage`s, receive run events as JSON (`session`, events, `done`, `error`)',
    pathParams: name,
    responses: {
      '101': { description: 'Switching protocols' },
      '404': error('Unknown agent'),
      '400': error('Not a WebSocket upgrade request (`upgrade_required`)'),
      ...foreignOrigin,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/sessions',
    operationId: 'listSessions',
    summary: 'Chat sessions, newest first',
    query: listSessionsQuerySchema,
    responses: { '200': { description: 'A page of sessions', json: sessionListSchema }, '400': error('A bad query parameter'), ...common },
  },
  {
    method: 'get',
    path: '/api/v1/sessions/{id}',
    operationId: 'getSession',
    summary: 'A session with its messages',
    pathParams: sessionId,
    responses: { '200': { description: 'The session', json: sessionSchema }, '404': error('Unknown session'), ...common },
  },
  {
    method: 'delete',
    path: '/api/v1/sessions/{id}',
    operationId: 'deleteSession',
    summary: 'Delete a session',
    pathParams: sessionId,
    responses: {
      '204': { description: 'Deleted' },
      '404': error('Unknown session'),
      '409': error('A turn is running'),
      ...foreignOrigin,
      ...common,
    },
  },
];

/** Approvals and stored runs (servers with a store). */
const durableOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/approvals',
    operationId: 'listApprovals',
    summary: 'Pending approvals of the sessions this caller may see, oldest first',
    query: listApprovalsQuerySchema,
    responses: {
      '200': { description: 'Pending approvals', json: approvalListSchema },
      '400': error('A bad query parameter'),
      '404': noStore,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/approvals/{id}',
    operationId: 'getApproval',
    summary: 'One approval, answered or not',
    pathParams: approvalId,
    responses: { '200': { description: 'The approval', json: approvalSchema }, '404': noStore, ...common },
  },
  {
    method: 'post',
    path: '/api/v1/approvals/{id}',
    operationId: 'answerApproval',
    summary: 'Approve or deny; the run resumes and the response is like a chat turn (JSON or SSE with `stream: true`)',
    pathParams: approvalId,
    body: { schema: approvalAnswerSchema, required: true },
    responses: {
      '200': turnAnswer,
      '202': {
        description:
          'Paused again, or other approvals of the run are still pending (the run resumes once all are answered); for a background run, `status: "queued"`: a worker resumes it and its events continue its stream',
        json: approvalAcceptedSchema,
      },
      '400': error('Malformed JSON or a wrong field'),
      '404': noStore,
      '409': error('Answered already, or the session is busy'),
      ...guarded,
      ...common,
      ...runFailures,
    },
  },
  {
    method: 'get',
    path: '/api/v1/runs',
    operationId: 'listRuns',
    summary: 'Stored runs of the sessions this caller may see, most recently updated first',
    query: listRunsQuerySchema,
    responses: { '200': { description: 'Runs', json: runListSchema }, '400': error('A bad query parameter'), '404': noStore, ...common },
  },
  {
    method: 'post',
    path: '/api/v1/runs',
    operationId: 'submitRun',
    summary: 'Queue a background run; answered at once with its id (a worker on any instance runs it)',
    body: { schema: submitRunSchema, required: true },
    responses: {
      '202': { description: 'The queued run', json: backgroundRunSchema },
      '400': error('A missing or wrong field'),
      '404': error('Unknown agent or session, or a server without a store (`no_store`)'),
      '409': error('The session belongs to another agent'),
      ...guarded,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/schedules',
    operationId: 'listSchedules',
    summary: 'The cron schedules (`schedules:` in corvid.yaml) with their next tick; workers submit one run per tick',
    responses: {
      '200': { description: 'Schedules', json: scheduleListSchema },
      '404': error('A server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{id}',
    operationId: 'getRun',
    summary: 'One run: a background run (`?wait=<seconds>` waits for it to end), or a stored run with its pending approvals',
    pathParams: runId,
    query: runQuerySchema,
    responses: {
      '200': { description: 'The run', json: anyRunSchema },
      '400': error('A bad query parameter'),
      '404': noStore,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{id}/stream',
    operationId: 'streamRun',
    summary: "A background run's events from its log, on any instance: `?after=<seq>` or `Last-Event-ID` resumes; ends after `done`",
    pathParams: runId,
    query: runQuerySchema,
    responses: {
      '200': { description: "Server-sent events; `id:` is the event's seq", sse: `Event names: ${AGENT_EVENT_TYPES.join(', ')}, done` },
      '400': error('A bad query parameter'),
      '404': error('Unknown run, or a server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'post',
    path: '/api/v1/runs/{id}/resume',
    operationId: 'resumeRun',
    summary: 'Continue an interrupted (or failed) run from its last checkpoint; answered like a chat turn',
    pathParams: runId,
    body: { schema: resumeRequestSchema, required: false },
    responses: {
      '200': turnAnswer,
      '202': paused,
      '400': error('A wrong field'),
      '404': noStore,
      '409': error('The run has completed, or its session is busy'),
      ...guarded,
      ...common,
      ...runFailures,
    },
  },
];

/** Health, readiness, metrics and this document. */
const operationsOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'Liveness',
    responses: { '200': { description: 'Alive', json: healthSchema } },
  },
  {
    method: 'get',
    path: '/ready',
    operationId: 'ready',
    summary: 'Readiness (config loaded, storage reachable)',
    responses: {
      '200': { description: 'Ready', json: readinessSchema },
      '503': { description: 'Not ready, with the reason', json: readinessSchema },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    responses: { '200': { description: 'Text exposition format', text: true }, ...common },
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'openApi',
    summary: 'This document',
    responses: { '200': { description: 'OpenAPI 3.1', json: openApiSchema }, ...common },
  },
];

/** MCP (Streamable HTTP) and the REST tool gateway, served by `serve()`. */
const mcpOperations: ApiOperation[] = [
  ...(['post', 'get', 'delete'] as const).map((method): ApiOperation => ({
    method,
    path: '/mcp',
    operationId: `mcp${method[0]!.toUpperCase()}${method.slice(1)}`,
    summary:
      'MCP Streamable HTTP transport (JSON-RPC; `POST` messages, `GET` the server stream, `DELETE` ends a session): the tools of the config and its agents as tools',
    responses: {
      '200': { description: 'A JSON-RPC answer, or a `text/event-stream` of them', json: jsonRpcMessageSchema, sse: 'JSON-RPC messages' },
      '202': { description: 'A notification or response accepted' },
      '400': { description: 'A bad JSON-RPC request (JSON-RPC error), or malformed JSON', json: jsonRpcMessageSchema },
      '403': error('The credential has scopes, none of which allows using tools (`read`, `tools:call`, `mcp:call`, `admin`)'),
      '404': { description: 'Unknown MCP session, or one another user opened (JSON-RPC error)', json: jsonRpcMessageSchema },
      '405': { description: 'Method not allowed for this transport' },
      '503': error('The optional MCP SDK is not installed'),
      ...common,
    },
  })),
  {
    method: 'get',
    path: '/tools',
    operationId: 'listTools',
    summary: 'The tools the REST gateway runs',
    responses: {
      '200': { description: 'Tools', json: servedToolListSchema },
      '403': error('The credential has scopes, none of which allows listing tools (`read`, `tools:call`, `mcp:call`, `admin`)'),
      '503': error('The optional MCP SDK is not installed'),
      ...common,
    },
  },
  {
    method: 'post',
    path: '/execute',
    operationId: 'executeTool',
    summary: 'Run a tool: `{ tool, arguments }` → `{ result }`',
    body: { schema: executeRequestSchema, required: true },
    responses: {
      '200': { description: 'The tool output', json: executeResultSchema },
      '400': { description: 'Not `{ tool, arguments }`, or arguments the tool refuses (`validation`)', json: gatewayErrorSchema },
      '404': { description: 'Unknown tool (`not_found`)', json: gatewayErrorSchema },
      '500': { description: 'The tool failed (`execution`)', json: gatewayErrorSchema },
      '503': error('The optional MCP SDK is not installed'),
      ...guarded,
      '403': {
        description:
          "The caller may not call the tool (`forbidden`): its credential has scopes, none of them `tools:call`, `mcp:call` or `admin`; or a tool of the caller's own data without a credential. Or a foreign `Origin` (`origin_not_allowed`, the server's error format)",
        json: gatewayErrorSchema,
      },
      ...common,
    },
  },
];

/**
 * Every route of `corvid serve` except the A2A protocol's (`/a2a/…`, agent cards), which the A2A
 * specification describes. The OpenAPI document is built from this table.
 */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...chatOperations,
  ...durableOperations,
  ...operationsOperations,
  ...mcpOperations,
  ...STUDIO_OPERATIONS,
];
