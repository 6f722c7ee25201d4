import { HTTPException } from 'hono/http-exception';

import { CorvidError } from '../../errors/corvid-error.js';
import { HttpError } from '../../http/http-error.js';

/** What an error becomes on the wire: `{ error: { code, message } }` with a status. */
export interface ErrorResponse {
  status: number;
  body: { error: { code: string; message: string } };
  headers: Record<string, string>;
  /** True for failures of the server (logged as errors); false for a client's mistake. */
  serverFault: boolean;
}

/**
 * Maps an error to its HTTP answer. Clients' mistakes are 4xx; failures of a run are mapped by
 * their Corvid code (provider trouble is 502/503/504, not 500); only unexpected errors are 500,
 * with a generic message (details go to the log).
 */
export function errorResponse(err: unknown): ErrorResponse {
  const res = (status: number, code: string, message: string, headers: Record<string, string> = {}): ErrorResponse => ({
    status,
    body: { error: { code, message } },
    headers,
    serverFault: status >= 500,
  });
  if (err instanceof HttpError) return res(err.status, err.wireCode, err.message, err.headers);
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 413) return res(413, 'payload_too_large', err.message || 'The request body is too large');
    return res(status, status >= 500 ? 'internal' : 'bad_request', err.message || 'Bad request');
  }
  if (CorvidError.isInstance(err)) {
    switch (err.code) {
      case 'validation_failed':
        return res(400, 'invalid_request', err.message);
      case 'not_found':
        return res(404, 'not_found', err.message);
      case 'storage_conflict':
        return res(409, err.code, err.message);
      case 'storage_unavailable':
      case 'storage_locked':
        return res(503, err.code, err.message);
      case 'run_aborted':
        return res(499, 'run_aborted', err.message);
      case 'max_steps_exceeded':
      case 'limit_exceeded':
        return res(422, err.code, err.message);
      case 'provider_rate_limited':
      case 'provider_unavailable':
        return res(503, err.code, err.message);
      case 'provider_timeout':
        return res(504, err.code, err.message);
      case 'provider_error':
      case 'authentication_failed':
      case 'mcp_connection_failed':
      case 'mcp_call_failed':
      case 'mcp_auth_failed':
        return res(502, err.code, err.message);
      default:
        return res(500, err.code, err.message);
    }
  }
  return res(500, 'internal', 'Internal server error');
}
