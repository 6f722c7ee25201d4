import { z } from 'zod';

import { backgroundRunSchema, usageSchema } from '../api/response-schemas.js';

/**
 * Requests and answers of the routes the Studio uses beside the chat API (`whoami`, session
 * search / rename / export, run timelines, memories, knowledge, MCP servers). Like
 * `response-schemas.ts`, the OpenAPI document is generated from them.
 */

const timestamp = () => z.string().meta({ format: 'date-time' });
const limit = (max: number) =>
  z
    .string()
    .regex(/^\d{1,5}$/, { error: `must be a number from 1 to ${max}` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: `must be a number from 1 to ${max}` });

/** `GET /api/v1/whoami`. */
export const whoamiSchema = z.strictObject({
  authenticated: z.boolean().meta({ description: 'Whether the request carried a valid credential' }),
  authRequired: z.boolean().meta({ description: 'Whether the server has auth configured (`server.auth`)' }),
  subject: z.string().optional().meta({ description: 'Whom the credential speaks for (`key:<name>`, the JWT user)' }),
  scopes: z.array(z.string()).optional().meta({ description: "The API key's scopes, or the JWT's `scope` claim" }),
});

/** `PATCH /api/v1/sessions/{id}`. */
export const renameSessionSchema = z.strictObject({
  title: z
    .string({ error: 'is required and must be a string' })
    .max(200, { error: 'is too long (200 characters at most)' })
    .meta({ description: 'The new title; empty removes it' }),
});

/** `GET /api/v1/sessions/{id}/export` query. */
export const exportSessionQuerySchema = z.strictObject({
  format: z.enum(['json', 'markdown'], { error: 'must be json or markdown' }).optional().meta({ description: 'Default json' }),
});

/** `GET /api/v1/runs/{id}/timeline`. */
export const runTimelineSchema = z.strictObject({
  runId: z.string(),
  agent: z.string(),
  status: z.enum(['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted']),
  startedAt: timestamp(),
  endedAt: timestamp().optional(),
  recorded: z.boolean().meta({ description: 'False for runs stored before step timings were recorded: `steps` is empty' }),
  steps: z.array(
    z.strictObject({
      step: z.number().int(),
      agent: z.string(),
      depth: z.number().int(),
      startedAt: timestamp(),
      durationMs: z.number(),
      usage: usageSchema,
      tools: z.array(
        z.strictObject({
          toolCallId: z.string(),
          toolName: z.string(),
          startedAt: timestamp(),
          durationMs: z.number(),
          status: z.enum(['running', 'pending', 'ok', 'error']),
        }),
      ),
    }),
  ),
});

const runViewStatus = () =>
  z.enum(['queued', 'running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted']).meta({
    description: "A background run's status, or a stored run's (`interrupted`: stored as running, run by nobody)",
  });
const traceSource = () =>
  z.enum(['events', 'checkpoints']).meta({
    description:
      "`events`: the run's event log (background runs); `checkpoints`: rebuilt from its checkpoints and messages (no text deltas, no inner steps of nested agents)",
  });

/** One span of `GET /api/v1/runs/{id}/trace`. */
export const traceSpanSchema = z.strictObject({
  id: z.string(),
  parentId: z.string().optional(),
  kind: z.enum(['agent', 'step', 'model', 'tool', 'task']),
  name: z.string(),
  agent: z.string(),
  depth: z.number().int(),
  startedAt: timestamp(),
  durationMs: z.number(),
  status: z.enum(['ok', 'error', 'running', 'pending']),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  usage: usageSchema.optional(),
  model: z.string().optional(),
  costUsd: z.number().optional().meta({ description: "US dollars, where the model's list price is known" }),
});

/** `GET /api/v1/runs/{id}/trace`. */
export const runTraceSchema = z.strictObject({
  runId: z.string(),
  agent: z.string(),
  status: runViewStatus(),
  source: traceSource(),
  startedAt: timestamp(),
  durationMs: z.number(),
  usage: usageSchema,
  costUsd: z.number().optional(),
  spans: z.array(traceSpanSchema).meta({ description: 'Parents before children, in the order they started' }),
});

/** `GET /api/v1/runs/{id}/events`. */
export const runEventsSchema = z.strictObject({
  runId: z.string(),
  agent: z.string(),
  status: runViewStatus(),
  source: traceSource(),
  events: z.array(
    z.strictObject({
      seq: z.number().int(),
      at: timestamp(),
      type: z.string(),
      data: z.record(z.string(), z.unknown()).meta({ description: 'The event (`AgentEvent`)' }),
    }),
  ),
  nextAfter: z.number().int().optional().meta({ description: 'More events follow: ask again with `after` set to this' }),
});

/** `POST /api/v1/runs/{id}/cancel`. */
export const cancelRunSchema = z.strictObject({ runId: z.string(), status: z.literal('cancelling') });

/** `POST /api/v1/runs/{id}/cancel`: a chat run being stopped here, or a background run asked to stop. */
export const cancelAnswerSchema = z.union([cancelRunSchema, backgroundRunSchema]);

/** `GET /api/v1/memories` query. */
export const listMemoriesQuerySchema = z.strictObject({
  q: z.string().min(1).max(1000).optional().meta({ description: 'Keyword search (most relevant first)' }),
  userId: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .meta({ description: 'Whose memories (without auth; with auth, the caller’s own). Default `default`' }),
  agent: z.string().min(1).max(100).optional().meta({ description: 'Whose memories: the agent (default: the default agent)' }),
  limit: limit(1000).optional(),
});

/** `PUT` / `DELETE /api/v1/memories/{id}` query. */
export const memoryScopeQuerySchema = listMemoriesQuerySchema.pick({ userId: true, agent: true });

/** `PUT /api/v1/memories/{id}`. */
export const updateMemorySchema = z.strictObject({
  text: z.string({ error: 'is required and must be a string' }).min(1, { error: 'must not be empty' }).max(100_000),
});

/** A memory. `id` is its key (unique per user and agent). */
export const memorySchema = z.strictObject({
  id: z.string(),
  userId: z.string().optional(),
  agent: z.string(),
  text: z.string(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  importance: z.number().int(),
  score: z.number().optional().meta({ description: 'Relevance of a search hit' }),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});

/** `GET /api/v1/memories`. */
export const memoryListSchema = z.strictObject({ memories: z.array(memorySchema) });

/** `GET /api/v1/knowledge`. */
export const knowledgeListSchema = z.strictObject({
  bases: z.array(
    z.strictObject({
      name: z.string(),
      sources: z.array(z.looseObject({ type: z.string() })).meta({ description: 'The `sources:` of the base, as configured' }),
      embedder: z.string().optional(),
      stats: z.strictObject({
        documents: z.number().int(),
        chunks: z.number().int(),
        dimensions: z.number().int().optional(),
        model: z.string().optional(),
        updatedAt: timestamp().optional(),
      }),
      indexed: z.boolean().meta({ description: 'False until the first `corvid ingest`' }),
    }),
  ),
});

/** `POST /api/v1/knowledge/{name}/search`. */
export const knowledgeSearchSchema = z.strictObject({
  query: z.string({ error: 'is required and must be a string' }).min(1, { error: 'must not be empty' }).max(10_000),
  mode: z.enum(['keyword', 'vector', 'hybrid'], { error: 'must be keyword, vector or hybrid' }).optional(),
  topK: z.number().int().min(1).max(100).optional(),
});

/** The answer of a knowledge search. */
export const knowledgeHitsSchema = z.strictObject({
  hits: z.array(
    z.strictObject({
      score: z.number(),
      source: z.string().meta({ description: 'The document URI' }),
      location: z.looseObject({}).meta({ description: 'Lines, headings or page of the chunk' }),
      text: z.string(),
      citation: z.string(),
    }),
  ),
  timings: z.strictObject({ totalMs: z.number() }),
});

/** `GET /api/v1/mcp/servers`. */
export const mcpServerListSchema = z.strictObject({
  servers: z.array(
    z.strictObject({
      name: z.string(),
      transport: z.string(),
      status: z.enum(['connected', 'error', 'idle']),
      error: z.string().optional(),
      tools: z.array(z.strictObject({ name: z.string(), description: z.string().optional(), inputSchema: z.looseObject({}) })),
    }),
  ),
});

/** `POST /api/v1/mcp/servers/{name}/tools/{tool}/call`. */
export const mcpCallSchema = z.strictObject({
  arguments: z.record(z.string(), z.unknown()).optional().meta({ description: 'The tool arguments (default `{}`)' }),
});

/** The answer of a hand-made MCP tool call. */
export const mcpCallResultSchema = z.strictObject({
  content: z.array(z.looseObject({ type: z.string() })),
  isError: z.boolean(),
  structuredContent: z.looseObject({}).optional(),
});

/** `GET /api/v1/models`. */
export const modelListSchema = z.strictObject({
  models: z.array(
    z.strictObject({
      name: z.string().meta({ description: 'The name under `models:`, what `overrides.model` of a chat request takes' }),
      provider: z.string(),
      model: z.string(),
    }),
  ),
});
