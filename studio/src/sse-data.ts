/**
 * The `data:` of the server's SSE events, parsed and checked before the Studio uses it: JSON, then the fields the
 * Studio relies on, by event (`session`, `done`, a run event named by its `type`, an approval). A malformed event
 * gives `{ error }` — the stream reports it and reads on — never an exception that stops the reading.
 */
import { AGENT_EVENT_TYPES, type AgentEvent } from '../../src/types/events.js';

/** A checked value, or what is wrong with it. */
export type Checked<T> = { value: T; error?: undefined } | { value?: undefined; error: string };

type Json = Record<string, unknown>;

const KNOWN_EVENTS = new Set<string>(AGENT_EVENT_TYPES);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (v: unknown, type: 'string' | 'object') => v === undefined || (type === 'object' ? isObject(v) : typeof v === type);
const failure = (event: string, what: string): { error: string } => ({ error: `malformed \`${event}\` event: ${what}` });

/** The JSON object of an event's data. */
export function parseSseJson(event: string, data: string): Checked<Json> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (err) {
    return failure(event, `its data is not JSON (${(err as Error).message})`);
  }
  return isObject(value) ? { value } : failure(event, 'its data is not a JSON object');
}

/** A run event (`AgentEvent`). `undefined` for an event type this Studio does not know (a newer server's): skip it. */
export function checkAgentEvent(event: string, data: Json): Checked<AgentEvent> | undefined {
  if (typeof data.type !== 'string') return failure(event, 'no `type`');
  if (!KNOWN_EVENTS.has(data.type)) return undefined;
  if (typeof data.runId !== 'string' || typeof data.agent !== 'string' || !Array.isArray(data.path))
    return failure(event, '`runId`, `agent` or `path` is missing');
  return { value: data as unknown as AgentEvent };
}

/** The `session` event of a chat stream. */
export function checkSession(data: Json): Checked<{ sessionId: string; agent: string }> {
  const { sessionId, agent } = data;
  return typeof sessionId === 'string' && typeof agent === 'string'
    ? { value: { sessionId, agent } }
    : failure('session', 'no `sessionId` or `agent`');
}

/** The `done` event: a `status`, and the optional fields the Studio reads typed as it reads them. */
export function checkDone<T extends { status: string }>(data: Json, strings: readonly string[], objects: readonly string[]): Checked<T> {
  if (typeof data.status !== 'string') return failure('done', 'no `status`');
  const bad = [...strings.filter((k) => !optional(data[k], 'string')), ...objects.filter((k) => !optional(data[k], 'object'))];
  if (bad.length > 0) return failure('done', `\`${bad.join('`, `')}\` of the wrong type`);
  const error = data.error as Json | undefined;
  if (error !== undefined && (typeof error.code !== 'string' || typeof error.message !== 'string'))
    return failure('done', '`error` without `code` and `message`');
  return { value: data as unknown as T };
}
