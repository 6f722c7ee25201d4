import { z } from 'zod';

import { STUDIO_REQUEST_COMPONENTS, STUDIO_RESPONSE_COMPONENTS } from '../studio/studio-api-operations.js';
import { API_OPERATIONS, type ApiOperation, type ApiResponse } from './api-operations.js';
import {
  approvalAnswerSchema,
  chatRequestSchema,
  executeRequestSchema,
  resumeRequestSchema,
  submitRunSchema,
  wsClientMessageSchema,
} from './request-schemas.js';
import {
  agentInfoSchema,
  agentListSchema,
  agentStructureSchema,
  agentToolSchema,
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
  messageSchema,
  openApiSchema,
  pausedResponseSchema,
  pendingApprovalSchema,
  readinessSchema,
  requeuedResponseSchema,
  runListSchema,
  runSchema,
  scheduleListSchema,
  servedToolListSchema,
  servedToolSchema,
  sessionListSchema,
  sessionSchema,
  sessionSummarySchema,
  usageSchema,
} from './response-schemas.js';

type Json = Record<string, unknown>;

/** Request bodies by component name (their input side is documented). */
const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  ChatRequest: chatRequestSchema,
  WsClientMessage: wsClientMessageSchema,
  ApprovalAnswer: approvalAnswerSchema,
  SubmitRun: submitRunSchema,
  ResumeRequest: resumeRequestSchema,
  ExecuteRequest: executeRequestSchema,
  ...STUDIO_REQUEST_COMPONENTS,
};

/** Answers by component name (their output side is documented). */
const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  Usage: usageSchema,
  Error: errorSchema,
  AgentInfo: agentInfoSchema,
  AgentList: agentListSchema,
  ChatResponse: chatResponseSchema,
  PendingApproval: pendingApprovalSchema,
  PausedResponse: pausedResponseSchema,
  RequeuedResponse: requeuedResponseSchema,
  ApprovalAccepted: approvalAcceptedSchema,
  ScheduleList: scheduleListSchema,
  SessionSummary: sessionSummarySchema,
  SessionList: sessionListSchema,
  Message: messageSchema,
  Session: sessionSchema,
  Approval: approvalSchema,
  ApprovalList: approvalListSchema,
  Run: runSchema,
  BackgroundRun: backgroundRunSchema,
  AnyRun: anyRunSchema,
  RunList: runListSchema,
  Health: healthSchema,
  Readiness: readinessSchema,
  OpenApiDocument: openApiSchema,
  ServedTool: servedToolSchema,
  ServedToolList: servedToolListSchema,
  ExecuteResult: executeResultSchema,
  GatewayError: gatewayErrorSchema,
  JsonRpcMessage: jsonRpcMessageSchema,
  AgentTool: agentToolSchema,
  AgentStructure: agentStructureSchema,
  ...STUDIO_RESPONSE_COMPONENTS,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });

/** JSON Schemas of named zod schemas, referring to each other through `#/components/schemas/…`. */
function components(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Json>;
  };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

/** The component name of a schema of the table (every body the table names must be one). */
function nameOf(schema: z.ZodType, named: Record<string, z.ZodType>): string {
  const hit = Object.entries(named).find(([, s]) => s === schema);
  if (!hit) throw new Error('openapi: a schema of API_OPERATIONS is not a named component');
  return hit[0];
}

function response(r: ApiResponse): Json {
  const content: Json = {};
  if (r.json) Object.assign(content, json(ref(nameOf(r.json, RESPONSE_COMPONENTS))));
  if (r.sse) content['text/event-stream'] = { schema: { type: 'string', description: r.sse } };
  if (r.text) content['text/plain'] = { schema: { type: 'string' } };
  for (const type of r.other ?? []) content[type] = { schema: { type: 'string' } };
  return Object.keys(content).length > 0 ? { description: r.description, content } : { description: r.description };
}

function parameters(op: ApiOperation): Json[] {
  const path = Object.entries(op.pathParams ?? {}).map(([name, description]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  const query = Object.entries(op.query?.shape ?? {}).map(([name, field]) => {
    const schema = z.toJSONSchema(field as z.ZodType, { target: 'draft-2020-12', io: 'input' }) as Json;
    delete schema.$schema;
    return { name, in: 'query', required: !(field as z.ZodType).safeParse(undefined).success, schema };
  });
  return [...path, ...query];
}

function operation(op: ApiOperation): Json {
  const params = parameters(op);
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: op.body.required, content: json(ref(nameOf(op.body.schema, REQUEST_COMPONENTS))) } } : {}),
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, response(r)])),
  };
}

/** The OpenAPI 3.1 document of `operations`, with the request and response schemas as components. */
export function buildOpenApiDocument(operations: readonly ApiOperation[] = API_OPERATIONS): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operation(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Corvid chat API',
      version: '1.0.0',
      description:
        'Chat with the agents of a `corvid serve` server: JSON answers, SSE streams of run events, sessions; with a store, approvals and resumable runs; MCP and the REST tool gateway. Generated from the zod schemas the server parses requests with and describes its answers with. The A2A endpoints (`/a2a/{name}`, agent cards) follow the A2A specification.',
    },
    paths,
    components: {
      schemas: { ...components(REQUEST_COMPONENTS, 'input'), ...components(RESPONSE_COMPONENTS, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A JWT from the configured issuer, or an API key' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }, {}],
  };
}

let cached: Json | undefined;

/** The OpenAPI 3.1 document of the HTTP API (`GET /api/v1/openapi.json`), generated from its zod schemas. */
export function openApiDocument(options: { serverUrl?: string } = {}): Record<string, unknown> {
  cached ??= buildOpenApiDocument();
  return options.serverUrl ? { ...cached, servers: [{ url: options.serverUrl }] } : cached;
}
