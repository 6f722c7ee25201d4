import type { ErrorResponse } from '../app/error-response.js';

/** An error as OpenAI's API answers it. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** The OpenAI error `type` of a status. */
function typeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The field a 400's message names (`Invalid … request: "messages.0.role" …` → `messages[0].role`). */
function paramOf(message: string): string | null {
  const m = /"([A-Za-z0-9_.[\]]+)"/.exec(message);
  if (!m) return null;
  return m[1].replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

/**
 * The OpenAI-shaped body of an error answered on a `/v1/` path: `{ error: { message, type, param, code } }`,
 * the same status and code as the server's own error answer.
 */
export function openAIErrorBody(r: Pick<ErrorResponse, 'status' | 'body'>): OpenAIErrorBody {
  const { code, message } = r.body.error;
  const param = r.status === 400 ? paramOf(message) : null;
  return { error: { message, type: typeOf(r.status), param, code } };
}
