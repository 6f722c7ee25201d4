import { z } from 'zod';

/**
 * The JSON answers of the server's routes, as zod schemas: the OpenAPI document
 * (`GET /api/v1/openapi.json`) is generated from them (see `openapi.ts`), and the tests check the
 * server's real answers against that document. Objects are strict: a field a route starts
 * sending must be added here first.
 */

/** An ISO 8601 date and time, e.g. `2026-01-31T12:00:00.000Z`. */
const timestamp = () => z.string().meta({ format: 'date-time' });

/** Token counts of a turn or a session. */
export const usageSchema = z.strictObject({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  reasoningTokens: z.number().int(),
  cachedInputTokens: z.number().int(),
  totalTokens: z.number().int(),
});

/** Every error of the chat API: `{ error: { code, message } }`. */
export const errorSchema = z.strictObject({
  error: z.strictObject({
    code: z.string().meta({ description: 'Stable, machine-readable (e.g. `invalid_request`, `session_not_found`, `rate_limited`)' }),
    message: z.string().meta({ description: 'What is wrong, for people' }),
  }),
});

/** A tool of an agent (`GET /api/v1/agents/{name}`). */
export const agentToolSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  source: z.enum(['builtin', 'module', 'mcp', 'agent', 'knowledge', 'code']),
  needsApproval: z.boolean().optional(),
});

/** The multi-agent structure of an agent. */
export const agentStructureSchema = z.strictObject({
  handoffs: z.array(z.string()).optional(),
  subAgents: z.array(z.string()).optional(),
  agentTools: z.array(z.string()).optional().meta({ description: 'Agents it calls as tools (`ask_<agent>`)' }),
  tasks: z.array(z.strictObject({ name: z.string(), agent: z.string(), dependsOn: z.array(z.string()) })).optional(),
});

/** An agent as `GET /api/v1/agents` lists it (`GET /api/v1/agents/{name}` adds `model`, `tools`, `structure`). */
export const agentInfoSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  kind: z.enum(['llm', 'sequential', 'parallel', 'loop', 'orchestrator', 'pipeline', 'router', 'remote']),
  visibility: z.enum(['public', 'internal', 'private']),
  default: z.boolean().meta({ description: 'The agent of requests that name none' }),
  model: z.string().optional().meta({ description: 'The model, as `provider:model` (LLM agents and routers)' }),
  tools: z.array(agentToolSchema).optional(),
  structure: agentStructureSchema.optional(),
  instructions: z
    .string()
    .optional()
    .meta({ description: 'The system prompt of an LLM agent whose instructions are text, for callers without scopes or with `admin`' }),
});

/** `GET /api/v1/agents`. */
export const agentListSchema = z.strictObject({ agents: z.array(agentInfoSchema) });

/** A completed chat turn (HTTP 200). */
export const chatResponseSchema = z.strictObject({
  status: z.enum(['completed', 'input_required']).meta({
    description:
      '`input_required`: the agent asked the user something (`ask_user`); `question` (also `answer`) is it, and the next message answers it.',
  }),
  question: z.string().optional(),
  answer: z.string(),
  sessionId: z.string(),
  runId: z.string(),
  agent: z.string(),
  activeAgent: z.string().optional().meta({ description: 'The agent that answered, after a handoff' }),
  usage: usageSchema,
  steps: z.number().int(),
  finishReason: z.enum(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']),
  durationMs: z.number(),
});

/** A tool call waiting for approval, as in a paused turn. */
export const pendingApprovalSchema = z.strictObject({
  approvalId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown().optional().meta({ description: 'The arguments of the call' }),
  prompt: z.string(),
});

/** A turn paused for approvals (HTTP 202), or an approval answered while others of its run wait. */
export const pausedResponseSchema = z.strictObject({
  status: z.literal('paused'),
  runId: z.string(),
  sessionId: z.string().optional(),
  agent: z.string().optional(),
  pendingApprovals: z.array(pendingApprovalSchema),
  usage: usageSchema.optional(),
});

/** `POST /api/v1/approvals/{id}` for a background run: queued again, a worker resumes it. */
export const requeuedResponseSchema = z.strictObject({
  status: z.literal('queued'),
  runId: z.string(),
  sessionId: z.string().optional(),
});

/** `POST /api/v1/approvals/{id}` 202: the run waits for other approvals, or (a background run) is queued again. */
export const approvalAcceptedSchema = z.union([pausedResponseSchema, requeuedResponseSchema]);

/** A session as listed. */
export const sessionSummarySchema = z.strictObject({
  id: z.string(),
  agent: z.string(),
  activeAgent: z
    .string()
    .optional()
    .meta({ description: 'The agent that takes the next turn (the session agent unless a handoff changed it)' }),
  userId: z.string().optional(),
  title: z.string().optional().meta({ description: 'Set by `PATCH /api/v1/sessions/{id}`' }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  messageCount: z.number().int(),
  preview: z.string().optional().meta({ description: 'The start of its first user message (120 characters at most)' }),
});

/** `GET /api/v1/sessions`. */
export const sessionListSchema = z.strictObject({
  sessions: z.array(sessionSummarySchema),
  nextCursor: z.string().optional().meta({ description: 'Pass as `cursor` for the next page' }),
});

/** A message of a session's history (AI SDK message format: `role` and `content`). */
export const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
  runId: z.string().optional().meta({ description: 'The run that wrote the message (stored sessions)' }),
  interrupted: z.boolean().optional().meta({ description: 'The partial answer of a run that was stopped' }),
});

/** `GET /api/v1/sessions/{id}`. */
export const sessionSchema = sessionSummarySchema.extend({
  usage: usageSchema,
  messages: z.array(messageSchema),
});

/** A stored approval. */
export const approvalSchema = z.strictObject({
  approvalId: z.string(),
  runId: z.string(),
  sessionId: z.string().optional(),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown().optional(),
  prompt: z.string(),
  status: z.enum(['pending', 'approved', 'denied']),
  reason: z.string().optional(),
  createdAt: timestamp(),
  answeredAt: timestamp().optional(),
});

/** `GET /api/v1/approvals`. */
export const approvalListSchema = z.strictObject({ approvals: z.array(approvalSchema) });

/** A stored run (`pendingApprovals` on `GET /api/v1/runs/{id}`). */
export const runSchema = z.strictObject({
  runId: z.string(),
  sessionId: z.string().optional(),
  agent: z.string(),
  status: z.enum(['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted']).meta({
    description: '`interrupted`: stored as running, but no process runs it (it can be resumed)',
  }),
  input: z.string().optional().meta({ description: "The start of the run's input (200 characters at most), to name it by" }),
  checkpoints: z.number().int(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  pendingApprovals: z.array(pendingApprovalSchema).optional(),
});

/** A background run (`POST /api/v1/runs`, `GET /api/v1/runs/{id}` of a submitted run). */
export const backgroundRunSchema = z.strictObject({
  runId: z.string(),
  agent: z.string(),
  status: z.enum(['queued', 'running', 'paused', 'completed', 'failed', 'cancelled']),
  input: z.string().optional().meta({ description: "The run's input (its first 200 characters)" }),
  sessionId: z.string().optional(),
  attempts: z.number().int().meta({ description: 'Times a worker started it (more than 1: taken over after a worker died)' }),
  result: z.unknown().optional().meta({ description: '`text`, `usage`, `steps`, `finishReason`, … of a completed or paused run' }),
  error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  finishedAt: timestamp().optional(),
  runAt: timestamp().optional().meta({ description: 'A delayed or scheduled run starts no sooner than this' }),
  cancelRequested: z.boolean().optional(),
});

/** `GET /api/v1/schedules`. */
export const scheduleListSchema = z.strictObject({
  schedules: z.array(
    z.strictObject({
      name: z.string(),
      agent: z.string(),
      cron: z.string(),
      timezone: z.string(),
      sessionId: z.string().optional(),
      missed: z.enum(['skip', 'run_once']),
      nextRunAt: timestamp().optional(),
    }),
  ),
});

/** `GET /api/v1/runs/{id}`: a background run, or a stored (chat) run. */
export const anyRunSchema = z.union([backgroundRunSchema, runSchema]);

/** `GET /api/v1/runs`. */
export const runListSchema = z.strictObject({ runs: z.array(runSchema) });

/** `GET /health`. */
export const healthSchema = z.strictObject({ status: z.literal('ok') });

/** `GET /ready` (200 ready, 503 not ready). */
export const readinessSchema = z.strictObject({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), z.string()).meta({ description: '`config`, and `storage` with a store: `ok` or what is wrong' }),
});

/** `GET /api/v1/openapi.json`: this document. */
export const openApiSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** A tool of the REST tool gateway (`GET /tools`). */
export const servedToolSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }).meta({ description: 'JSON Schema of the arguments' }),
});

/** `GET /tools`. */
export const servedToolListSchema = z.strictObject({ tools: z.array(servedToolSchema) });

/** `POST /execute`: a tool's output. */
export const executeResultSchema = z.strictObject({ result: z.unknown() });

/** `POST /execute`: why the call failed (the gateway's own error format). */
export const gatewayErrorSchema = z.strictObject({
  error: z.strictObject({
    type: z.string().meta({ description: '`validation`, `not_found`, `forbidden` or `execution`' }),
    message: z.string(),
  }),
});

/** An MCP JSON-RPC message answered by `/mcp` (the MCP Streamable HTTP transport). */
export const jsonRpcMessageSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number().int(), message: z.string() }).optional(),
});
