import { z } from 'zod';
import { AGENT_EVENT_TYPES } from '../types/events.js';
import { approvalAnswerSchema, chatRequestSchema, resumeRequestSchema, wsClientMessageSchema } from './request-schemas.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, content: json(ref('Error')) });

function toSchema(s: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(s, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of the chat API (`GET /api/v1/openapi.json`). */
export function openApiDocument(options: { serverUrl?: string } = {}): Record<string, unknown> {
  cached ??= build();
  return options.serverUrl ? { ...cached, servers: [{ url: options.serverUrl }] } : cached;
}

function build(): Record<string, unknown> {
  const usage = {
    type: 'object',
    properties: Object.fromEntries(['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens', 'totalTokens'].map((k) => [k, { type: 'integer' }])),
  };
  const nameParam = { name: 'name', in: 'path', required: true, description: 'Agent name', schema: { type: 'string' } };
  const idParam = { name: 'id', in: 'path', required: true, description: 'Session id', schema: { type: 'string' } };
  const common = { '401': error('Missing or invalid credentials'), '429': error('Rate limited (see Retry-After)') };
  const foreignOrigin = { '403': error('A browser request whose `Origin` is neither the server\'s nor in `server.cors.origins` (`origin_not_allowed`)') };
  const guarded = { ...foreignOrigin, '415': error('A body that is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)') };
  const turnAnswer = {
    description: 'The answer (JSON), or `text/event-stream`: `session`, then one event per run event (`event: <type>`, JSON data), then `done` (`status`: completed, input_required, paused or failed).',
    content: { ...json(ref('ChatResponse')), 'text/event-stream': { schema: { type: 'string', description: `Event names: session, ${AGENT_EVENT_TYPES.join(', ')}, done` } } },
  };
  const paused = { description: 'The run paused: a tool call waits for approval (servers with a store). Answer with POST /api/v1/approvals/{id}.', content: json(ref('PausedResponse')) };
  const recordParam = (what: string) => ({ name: 'id', in: 'path', required: true, description: `${what} id`, schema: { type: 'string' } });
  const noStore = error('Unknown id, or a server without a store (`no_store`)');
  return {
    openapi: '3.1.0',
    info: { title: 'Corvid chat API', version: '1.0.0', description: 'Chat with the agents of a `corvid serve` server: JSON answers, SSE streams of run events, sessions; with a store, approvals and resumable runs.' },
    paths: {
      '/api/v1/agents': {
        get: { operationId: 'listAgents', summary: 'Agents this caller can see', responses: { '200': { description: 'The agents', content: json({ type: 'object', properties: { agents: { type: 'array', items: ref('AgentInfo') } }, required: ['agents'] }) }, ...common } },
      },
      '/api/v1/agents/{name}': {
        get: { operationId: 'getAgent', summary: 'One agent', parameters: [nameParam], responses: { '200': { description: 'The agent', content: json(ref('AgentInfo')) }, '404': error('Unknown agent'), ...common } },
      },
      '/api/v1/agents/{name}/chat': {
        post: {
          operationId: 'chat',
          summary: 'Send a message; JSON answer, or an SSE stream of run events with `stream: true` or `Accept: text/event-stream`',
          parameters: [nameParam],
          requestBody: { required: true, content: json(ref('ChatRequest')) },
          responses: {
            '200': turnAnswer,
            '202': paused,
            '400': error('Malformed JSON or a wrong field'),
            '404': error('Unknown agent or session'),
            '409': error('The session is busy or belongs to another agent'),
            '413': error('Body too large'),
            ...guarded,
            ...common,
            '502': error('The model provider failed'),
          },
        },
      },
      '/api/v1/agents/{name}/ws': {
        get: {
          operationId: 'chatWebSocket',
          summary: 'WebSocket: send `WsClientMessage`s, receive run events as JSON (`session`, events, `done`, `error`)',
          parameters: [nameParam],
          responses: { '101': { description: 'Switching protocols' }, '404': error('Unknown agent'), ...foreignOrigin, ...common },
        },
      },
      '/api/v1/sessions': {
        get: {
          operationId: 'listSessions',
          summary: 'Chat sessions, newest first',
          parameters: [
            { name: 'agent', in: 'query', schema: { type: 'string' } },
            { name: 'userId', in: 'query', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
            { name: 'cursor', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'A page of sessions', content: json({ type: 'object', properties: { sessions: { type: 'array', items: ref('SessionSummary') }, nextCursor: { type: 'string' } }, required: ['sessions'] }) },
            '400': error('A bad query parameter'),
            ...common,
          },
        },
      },
      '/api/v1/sessions/{id}': {
        get: { operationId: 'getSession', summary: 'A session with its messages', parameters: [idParam], responses: { '200': { description: 'The session', content: json(ref('Session')) }, '404': error('Unknown session'), ...common } },
        delete: { operationId: 'deleteSession', summary: 'Delete a session', parameters: [idParam], responses: { '204': { description: 'Deleted' }, '404': error('Unknown session'), '409': error('A turn is running'), ...foreignOrigin, ...common } },
      },
      '/api/v1/approvals': {
        get: {
          operationId: 'listApprovals',
          summary: 'Pending approvals of the sessions this caller may see, oldest first',
          parameters: [
            { name: 'sessionId', in: 'query', schema: { type: 'string' } },
            { name: 'runId', in: 'query', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          ],
          responses: {
            '200': { description: 'Pending approvals', content: json({ type: 'object', properties: { approvals: { type: 'array', items: ref('Approval') } }, required: ['approvals'] }) },
            '400': error('A bad query parameter'),
            '404': noStore,
            ...common,
          },
        },
      },
      '/api/v1/approvals/{id}': {
        get: { operationId: 'getApproval', summary: 'One approval, answered or not', parameters: [recordParam('Approval')], responses: { '200': { description: 'The approval', content: json(ref('Approval')) }, '404': noStore, ...common } },
        post: {
          operationId: 'answerApproval',
          summary: 'Approve or deny; the run resumes and the response is like a chat turn (JSON or SSE with `stream: true`)',
          parameters: [recordParam('Approval')],
          requestBody: { required: true, content: json(ref('ApprovalAnswer')) },
          responses: {
            '200': turnAnswer,
            '202': { description: 'Paused again, or other approvals of the run are still pending (the run resumes once all are answered)', content: json(ref('PausedResponse')) },
            '400': error('Malformed JSON or a wrong field'),
            '404': noStore,
            '409': error('Answered already, or the session is busy'),
            ...guarded,
            ...common,
          },
        },
      },
      '/api/v1/runs': {
        get: {
          operationId: 'listRuns',
          summary: 'Stored runs of the sessions this caller may see, most recently updated first',
          parameters: [
            { name: 'status', in: 'query', schema: { enum: ['running', 'paused', 'completed', 'failed'] } },
            { name: 'sessionId', in: 'query', schema: { type: 'string' } },
            { name: 'agent', in: 'query', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          ],
          responses: { '200': { description: 'Runs', content: json({ type: 'object', properties: { runs: { type: 'array', items: ref('Run') } }, required: ['runs'] }) }, '400': error('A bad query parameter'), '404': noStore, ...common },
        },
      },
      '/api/v1/runs/{id}': {
        get: { operationId: 'getRun', summary: 'One run with its pending approvals', parameters: [recordParam('Run')], responses: { '200': { description: 'The run', content: json(ref('Run')) }, '404': noStore, ...common } },
      },
      '/api/v1/runs/{id}/resume': {
        post: {
          operationId: 'resumeRun',
          summary: 'Continue an interrupted (or failed) run from its last checkpoint; answered like a chat turn',
          parameters: [recordParam('Run')],
          requestBody: { required: false, content: json(ref('ResumeRequest')) },
          responses: { '200': turnAnswer, '202': paused, '400': error('A wrong field'), '404': noStore, '409': error('The run has completed, or its session is busy'), ...guarded, ...common },
        },
      },
      '/health': { get: { operationId: 'health', summary: 'Liveness', responses: { '200': { description: 'Alive', content: json({ type: 'object', properties: { status: { const: 'ok' } } }) } } } },
      '/ready': { get: { operationId: 'ready', summary: 'Readiness (config loaded, storage reachable)', responses: { '200': { description: 'Ready' }, '503': { description: 'Not ready, with the reason' } } } },
      '/metrics': { get: { operationId: 'metrics', summary: 'Prometheus metrics', responses: { '200': { description: 'Text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
    },
    components: {
      schemas: {
        ChatRequest: toSchema(chatRequestSchema),
        WsClientMessage: toSchema(wsClientMessageSchema),
        ChatResponse: {
          type: 'object',
          properties: {
            status: { enum: ['completed', 'input_required'], description: '`input_required`: the agent asked the user something (`ask_user`); `question` (also `answer`) is it, and the next message answers it.' },
            answer: { type: 'string' },
            question: { type: 'string' },
            sessionId: { type: 'string' },
            runId: { type: 'string' },
            agent: { type: 'string' },
            activeAgent: { type: 'string' },
            usage,
            steps: { type: 'integer' },
            finishReason: { type: 'string' },
            durationMs: { type: 'number' },
          },
          required: ['answer', 'sessionId', 'runId', 'agent', 'usage'],
        },
        PausedResponse: {
          type: 'object',
          properties: {
            status: { const: 'paused' },
            runId: { type: 'string' },
            sessionId: { type: 'string' },
            agent: { type: 'string' },
            pendingApprovals: {
              type: 'array',
              items: { type: 'object', properties: { approvalId: { type: 'string' }, toolCallId: { type: 'string' }, toolName: { type: 'string' }, input: {}, prompt: { type: 'string' } }, required: ['approvalId', 'toolCallId', 'toolName', 'prompt'] },
            },
            usage,
          },
          required: ['status', 'runId', 'pendingApprovals'],
        },
        ApprovalAnswer: toSchema(approvalAnswerSchema),
        ResumeRequest: toSchema(resumeRequestSchema),
        Approval: {
          type: 'object',
          properties: {
            approvalId: { type: 'string' },
            runId: { type: 'string' },
            sessionId: { type: 'string' },
            toolCallId: { type: 'string' },
            toolName: { type: 'string' },
            input: {},
            prompt: { type: 'string' },
            status: { enum: ['pending', 'approved', 'denied'] },
            reason: { type: 'string' },
            createdAt: { type: 'string', format: 'date-time' },
            answeredAt: { type: 'string', format: 'date-time' },
          },
          required: ['approvalId', 'runId', 'toolCallId', 'toolName', 'status', 'createdAt'],
        },
        Run: {
          type: 'object',
          properties: {
            runId: { type: 'string' },
            sessionId: { type: 'string' },
            agent: { type: 'string' },
            status: { enum: ['running', 'paused', 'completed', 'failed'] },
            checkpoints: { type: 'integer' },
            createdAt: { type: 'string', format: 'date-time' },
            updatedAt: { type: 'string', format: 'date-time' },
            pendingApprovals: { type: 'array', items: { type: 'object' } },
          },
          required: ['runId', 'agent', 'status', 'createdAt', 'updatedAt'],
        },
        AgentInfo: {
          type: 'object',
          properties: { name: { type: 'string' }, description: { type: 'string' }, kind: { type: 'string' }, visibility: { enum: ['public', 'internal'] }, default: { type: 'boolean' } },
          required: ['name', 'kind', 'visibility'],
        },
        SessionSummary: {
          type: 'object',
          properties: { id: { type: 'string' }, agent: { type: 'string' }, activeAgent: { type: 'string' }, userId: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' }, updatedAt: { type: 'string', format: 'date-time' }, messageCount: { type: 'integer' } },
          required: ['id', 'agent', 'createdAt', 'updatedAt', 'messageCount'],
        },
        Session: {
          allOf: [ref('SessionSummary'), { type: 'object', properties: { activeAgent: { type: 'string' }, usage, messages: { type: 'array', items: { type: 'object' } } }, required: ['messages'] }],
        },
        Error: {
          type: 'object',
          properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] } },
          required: ['error'],
        },
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A JWT from the configured issuer, or an API key' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }, {}],
  };
}
