/** Most characters of one attribute value; longer values end with `…`. */
const MAX_CHARS = 1024;
/** Most entries of `corvid.tool.paths`. */
const MAX_PATHS = 50;
/** Query parameters whose values are hidden in `corvid.tool.url` (API keys, tokens, signatures…). */
const SECRET_PARAM = /key|token|secret|pass|auth|sig|credential|session|cookie|code|jwt/i;

/** Attribute values of a tool span. */
export type ToolSpanAttributes = Record<string, string | number | string[]>;

/**
 * The span attributes naming what a tool call touched, read from its input (at `tool_call`) or
 * its result (at `tool_result`, which wins): `path` and `paths` → `corvid.tool.path(s)`,
 * `command` and `cwd` → `corvid.tool.command` / `corvid.tool.cwd`, `exitCode` and `signal` →
 * `corvid.tool.exit_code` / `corvid.tool.signal`, `url`, `method`, `status` → `corvid.tool.url`
 * (without user info and fragment, secret-looking query values replaced by `REDACTED`),
 * `corvid.tool.http_method`, `corvid.tool.http_status`. Only these fields are read — never
 * headers, bodies or options — and every value is cut to 1024 characters.
 */
export function toolSpanAttributes(value: unknown): ToolSpanAttributes {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const v = value as Record<string, unknown>;
  const out: ToolSpanAttributes = {};
  if (typeof v.path === 'string') out['corvid.tool.path'] = bounded(v.path);
  if (Array.isArray(v.paths)) {
    const paths = v.paths.filter((p): p is string => typeof p === 'string');
    out['corvid.tool.paths'] = paths.slice(0, MAX_PATHS).map(bounded);
  }
  if (typeof v.command === 'string') out['corvid.tool.command'] = bounded(v.command);
  if (typeof v.cwd === 'string') out['corvid.tool.cwd'] = bounded(v.cwd);
  if (typeof v.exitCode === 'number') out['corvid.tool.exit_code'] = v.exitCode;
  if (typeof v.signal === 'string') out['corvid.tool.signal'] = bounded(v.signal);
  const url = typeof v.url === 'string' ? safeUrl(v.url) : undefined;
  if (url !== undefined) {
    out['corvid.tool.url'] = url;
    if (typeof v.method === 'string') out['corvid.tool.http_method'] = bounded(v.method);
    if (typeof v.status === 'number') out['corvid.tool.http_status'] = v.status;
  }
  return out;
}

/** A failed call's message for the span status: URLs in it made safe as in `corvid.tool.url`, cut to 1024 characters. */
export function toolErrorMessage(text: string): string {
  return bounded(text.replace(/\bhttps?:\/\/[^\s"'<>`]+/gi, (url) => safeUrl(url) ?? url));
}

function bounded(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

/** `raw` without user name and password, secret-looking query values hidden; `undefined` when it is no URL. */
function safeUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  for (const name of new Set(url.searchParams.keys())) if (SECRET_PARAM.test(name)) url.searchParams.set(name, 'REDACTED');
  return bounded(url.href);
}
