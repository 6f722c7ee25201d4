/**
 * Calls to the server's HTTP API (`/api/v1/...`) with the signed-in credential, and the error every failed call
 * becomes. The credential (an API key or a JWT) lives in sessionStorage: it is gone when the tab closes.
 */

const TOKEN_KEY = 'corvid.studio.token';
const listeners = new Set<() => void>();

/** The stored credential, if any. */
export function getToken(): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Stores (or, with `undefined`, forgets) the credential and tells the app. */
export function setToken(token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {}
  for (const listener of listeners) listener();
}

/** Called when the credential changes or the server refuses it (401). */
export function onAuthChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A failed API call: the HTTP status and the server's `{ error: { code, message } }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(opts: { status: number; code: string; message: string }) {
    super(opts.message);
    this.name = 'ApiError';
    this.status = opts.status;
    this.code = opts.code;
  }
  /** The route does not exist on this server (an older server, or a subsystem not configured). */
  get notAvailable(): boolean {
    return this.status === 404 && (this.code === 'not_found' || this.code === 'no_store' || this.code === 'http_404');
  }
}

/** Headers of every call: the credential and JSON. */
export function apiHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const token = getToken();
  return { ...(token && { authorization: `Bearer ${token}` }), ...extra };
}

/** Options of {@link api}. */
export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send `Accept: text/event-stream` and return the raw response (for SSE). */
  stream?: boolean;
  /** Leave a 401 to the caller instead of signing out (the sign-in page checks keys with it). */
  quiet401?: boolean;
}

/** The fetch of an API path; throws {@link ApiError} for non-2xx answers. */
export async function apiFetch(path: string, opts: ApiOptions = {}): Promise<Response> {
  const headers = apiHeaders({
    ...(opts.body !== undefined && { 'content-type': 'application/json' }),
    ...(opts.stream && { accept: 'text/event-stream' }),
  });
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method: opts.method ?? (opts.body !== undefined ? 'POST' : 'GET'),
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new ApiError({ status: 0, code: 'network_error', message: `The server could not be reached (${(err as Error).message}).` });
  }
  if (res.ok) return res;
  const error = await errorOf(res);
  if (res.status === 401 && !opts.quiet401 && getToken()) setToken(undefined);
  else if (res.status === 401 && !opts.quiet401) for (const listener of listeners) listener();
  throw error;
}

async function errorOf(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = `${res.status} ${res.statusText}`.trim();
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {}
  return new ApiError({ status: res.status, code, message });
}

/** A JSON API call. 204 answers give `undefined`. */
export async function api<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  const res = await apiFetch(path, opts);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** `?a=1&b=2` of the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `encodeURIComponent` for path segments. */
export const seg = encodeURIComponent;
