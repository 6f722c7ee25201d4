import { RestToolError } from './rest-tool-error.js';

/** Where and how to reach a REST tool server. */
export interface RestClientOptions {
  url: string;
  token?: string;
  headers?: Readonly<Record<string, string>>;
  timeoutMs: number;
}

/** A JSON request to the tool server, with the auth headers and a time limit; errors are `RestToolError`s. */
export async function restRequest(
  options: RestClientOptions,
  path: '/tools' | '/execute',
  body?: unknown,
  signal?: AbortSignal,
): Promise<{ status: number; json: unknown }> {
  const url = `${options.url.replace(/\/+$/, '')}${path}`;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    if (timeout.aborted)
      throw new RestToolError(`${path === '/tools' ? 'GET' : 'POST'} ${url} timed out after ${options.timeoutMs} ms`, {
        type: 'timeout',
        cause: err,
      });
    if (signal?.aborted) throw err;
    const reason = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new RestToolError(`Could not reach the tool server at ${url}: ${reason?.code ?? reason?.message ?? (err as Error).message}`, {
      type: 'network',
      cause: err,
    });
  }
  const text = await res.text();
  try {
    return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
  } catch {
    throw new RestToolError(`The tool server at ${url} answered HTTP ${res.status} with a body that is not JSON`, { type: 'http' });
  }
}

/** The `{ error: { type, message } }` of an answer, when it has one. */
export function serverError(json: unknown): { type: string; message: string } | undefined {
  const e = (json as { error?: { type?: unknown; message?: unknown } } | undefined)?.error;
  if (!e || typeof e !== 'object') return undefined;
  return { type: typeof e.type === 'string' ? e.type : 'error', message: typeof e.message === 'string' ? e.message : JSON.stringify(e) };
}
