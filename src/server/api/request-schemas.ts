import { z } from 'zod';

import { HttpError } from '../../http/http-error.js';

/** Session ids accepted in URLs and bodies. */
export const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

const sessionId = () => z.string().regex(SESSION_ID, { error: 'must be 1-128 letters, digits, ".", "_", ":" or "-"' });
const userId = () => z.string().min(1).max(256);

/** `POST /api/v1/agents/{name}/chat`. */
export const chatRequestSchema = z.strictObject({
  message: z
    .string({ error: 'is required and must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(1_000_000, { error: 'is too long (1,000,000 characters at most)' }),
  sessionId: sessionId().optional(),
  userId: userId().optional(),
  stream: z.boolean({ error: 'must be true or false' }).optional(),
  overrides: z
    .strictObject({
      model: z.string({ error: 'must be the name of a model under models:' }).min(1).max(200).optional(),
      temperature: z
        .number({ error: 'must be a number from 0 to 2' })
        .min(0, { error: 'must be from 0 to 2' })
        .max(2, { error: 'must be from 0 to 2' })
        .optional(),
      maxTokens: z
        .number({ error: 'must be a whole number from 1 to 1,000,000' })
        .int({ error: 'must be a whole number' })
        .min(1)
        .max(1_000_000)
        .optional(),
      instructions: z.string({ error: 'must be a string' }).max(200_000, { error: 'is too long (200,000 characters at most)' }).optional(),
    })
    .optional()
    .meta({
      description:
        'For this turn only, nothing is saved: a configured model (by its name under `models:`), sampling settings and the system prompt. LLM agents only; a credential with scopes needs `admin`',
    }),
});
export type ChatRequest = z.output<typeof chatRequestSchema>;

/** `GET /api/v1/sessions` query. */
export const listSessionsQuerySchema = z.strictObject({
  q: z.string().min(1).max(500).optional().meta({ description: 'Search in the messages, ids and titles' }),
  agent: z.string().min(1).max(100).optional(),
  userId: userId().optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: 'must be a number from 1 to 100' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, { error: 'must be a number from 1 to 100' })
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_.:=+/-]{1,512}$/, { error: 'is not a cursor this server returned' })
    .optional(),
});

/** Ids of stored runs and approvals accepted in URLs and queries. */
export const RECORD_ID = /^[A-Za-z0-9_.:-]{1,191}$/;
const recordId = () => z.string().regex(RECORD_ID, { error: 'must be 1-191 letters, digits, ".", "_", ":" or "-"' });
const limit = () =>
  z
    .string()
    .regex(/^\d{1,4}$/, { error: 'must be a number from 1 to 100' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, { error: 'must be a number from 1 to 100' });

/** `POST /api/v1/approvals/{id}`. */
export const approvalAnswerSchema = z.strictObject({
  approved: z.boolean({ error: 'is required and must be true or false' }),
  reason: z.string({ error: 'must be a string' }).max(10_000, { error: 'is too long (10,000 characters at most)' }).optional(),
  stream: z.boolean({ error: 'must be true or false' }).optional(),
});

/** `GET /api/v1/approvals` query. */
export const listApprovalsQuerySchema = z.strictObject({
  sessionId: sessionId().optional(),
  runId: recordId().optional(),
  limit: limit().optional(),
});

/** `GET /api/v1/runs` query. */
export const listRunsQuerySchema = z.strictObject({
  status: z
    .enum(['running', 'paused', 'completed', 'failed', 'cancelled', 'interrupted'], {
      error: 'must be running, paused, completed, failed, cancelled or interrupted',
    })
    .optional(),
  sessionId: sessionId().optional(),
  agent: z.string().min(1).max(100).optional(),
  limit: limit().optional(),
});

/** `POST /api/v1/runs/{id}/resume` (the body is optional). */
/** `POST /api/v1/runs`: a background run. */
export const submitRunSchema = z
  .strictObject({
    agent: z.string({ error: 'agent is the name of an agent' }).min(1).max(191),
    input: z.string({ error: 'input is the message to run the agent on' }).min(1, { error: 'input is empty' }).max(1_000_000),
    sessionId: recordId().optional(),
    webhook: z
      .url({ protocol: /^https?$/, error: 'webhook must be an http:// or https:// URL' })
      .max(2048)
      .optional(),
    delaySeconds: z
      .number({ error: 'delaySeconds is a number of seconds' })
      .min(0, { error: 'delaySeconds is not negative' })
      .max(31_536_000, { error: 'delaySeconds is at most a year (31536000)' })
      .optional(),
    runAt: z.iso
      .datetime({ offset: true, error: 'runAt is an ISO 8601 time with a zone, e.g. 2026-01-31T09:00:00Z' })
      .refine((t) => Date.parse(t) - Date.now() <= 31_536_000_000, { error: 'runAt is at most a year from now' })
      .optional(),
  })
  .refine((b) => b.delaySeconds === undefined || b.runAt === undefined, {
    error: 'give delaySeconds or runAt, not both',
    path: ['runAt'],
  });

/** `GET /api/v1/runs/{id}?wait=` and `/stream?after=`. */
export const runQuerySchema = z.strictObject({
  wait: z.coerce.number({ error: 'wait is a number of seconds' }).min(0).max(300, { error: 'wait is at most 300 seconds' }).optional(),
  after: z.coerce.number({ error: 'after is an event seq' }).int().min(0).optional(),
});

/** `GET /api/v1/runs/{id}/events` query. */
export const runEventsQuerySchema = z.strictObject({
  after: z
    .string()
    .regex(/^\d{1,12}$/, { error: 'after is an event seq (a whole number)' })
    .transform(Number)
    .optional()
    .meta({ description: 'Only events after this seq' }),
  limit: z
    .string()
    .regex(/^\d{1,5}$/, { error: 'limit is a number from 1 to 5000' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 5000, { error: 'limit is a number from 1 to 5000' })
    .optional(),
});

export const resumeRequestSchema = z.strictObject({
  stream: z.boolean({ error: 'must be true or false' }).optional(),
});

/** WebSocket messages from the client. */
export const wsClientMessageSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('message'),
      message: chatRequestSchema.shape.message,
      sessionId: sessionId().optional(),
      userId: userId().optional(),
    }),
    z.strictObject({
      type: z.literal('approval'),
      approvalId: z.string().min(1).max(256),
      approved: z.boolean(),
      reason: z.string().max(10_000).optional(),
    }),
    z.strictObject({ type: z.literal('cancel') }),
  ],
  { error: 'type must be "message", "approval" or "cancel"' },
);
export type WsClientMessage = z.output<typeof wsClientMessageSchema>;

/** A 400 naming the first wrong field(s) of a zod failure. */
export function invalid(error: z.ZodError, where: string): HttpError {
  const parts = error.issues.slice(0, 3).map((i) => {
    const path = i.path.length ? i.path.map(String).join('.') : '';
    if (i.code === 'unrecognized_keys')
      return `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}${path ? ` in "${path}"` : ''}`;
    return path ? `"${path}" ${i.message}` : i.message;
  });
  return new HttpError(400, 'invalid_request', `Invalid ${where}: ${parts.join('; ')}`);
}

/** Parses `value` with `schema` or throws a 400 naming the field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalid(r.error, where);
  return r.data;
}

/** Parses a JSON request body (text already read), or throws a 400. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new HttpError(400, 'invalid_json', 'The request body is empty; send a JSON object');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** `POST /execute` of the REST tool gateway (checked by the gateway itself, in its own error format). */
export const executeRequestSchema = z.object({
  tool: z.string().meta({ description: 'A tool name from `GET /tools`' }),
  arguments: z.record(z.string(), z.unknown()).optional().meta({ description: 'The tool arguments (default `{}`)' }),
});
