/**
 * An absolute URL (`scheme://…`) in text. It stops at white space, quotes, angle brackets,
 * backticks and backslashes, so it works on plain text and on JSON text alike (a backslash
 * starts a JSON escape, which is never cut in two).
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`\\]+/gi;

/**
 * A URL fit for logs and error messages: credentials (`user:password@`) are replaced by `***@`,
 * the query string and fragment (which may carry tokens or signatures) are dropped. Works on
 * text, not through a URL parser, so malformed URLs are redacted too.
 * @example redactUrl('https://u:pw@hooks.example.com/x?sig=abc') // 'https://***@hooks.example.com/x'
 */
export function redactUrl(url: string): string {
  let out = url;
  const query = out.search(/[?#]/);
  if (query >= 0) out = out.slice(0, query);
  const at = out.lastIndexOf('@');
  if (at < 0) return out;
  // Any `@` before the query is taken as ending credentials (a password with an unencoded `/`
  // would otherwise leave part of it in the path); `http:/u:pw@h` parses like `http://u:pw@h`.
  const start = /^[a-z][a-z0-9+.-]*:[/\\]*/i.exec(out)?.[0].length ?? 0;
  return `${out.slice(0, start)}***${out.slice(at)}`;
}

/**
 * The text with every absolute URL in it redacted (see `redactUrl`): for log lines and error
 * messages that may quote a URL, e.g. undici's "Request cannot be constructed from a URL that
 * includes credentials: http://user:pw@host/…".
 */
export function redactUrls(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (match) => {
    // Punctuation closing the URL's sentence or parenthesis stays ("(see http://h/x?q=1).").
    const end = /[.,;:!?)\]]*$/.exec(match)!.index;
    return redactUrl(match.slice(0, end)) + match.slice(end);
  });
}

/**
 * An error's message followed by those of its causes (`fetch failed: connect ECONNREFUSED …`),
 * with URLs redacted: what a log line may say about a failed request.
 */
export function redactedErrorMessage(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const text =
      e instanceof Error
        ? e.message || e.name
        : typeof e === 'object'
          ? String((e as { message?: unknown }).message ?? (e as { code?: unknown }).code ?? '')
          : String(e);
    if (text && !parts.includes(text)) parts.push(text);
    e = typeof e === 'object' ? (e as { cause?: unknown }).cause : undefined;
  }
  return redactUrls(parts.join(': '));
}
