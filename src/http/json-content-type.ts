/** `application/json`, or a structured `+json` type such as `application/a2a+json`. */
const JSON_MEDIA_TYPE = /^application\/(?:json|[a-z0-9!#$&^_.+-]+\+json)$/;

/**
 * True for a JSON `Content-Type`: `application/json` or `application/<x>+json` (e.g.
 * `application/a2a+json`), with or without parameters (`; charset=utf-8`), in any case.
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(';');
  return JSON_MEDIA_TYPE.test((semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase());
}

/** The request headers `jsonBodyProblem` looks at (lower-case names, as Node gives them). */
export interface BodyHeaders {
  'content-type'?: string;
  'content-length'?: string;
  'transfer-encoding'?: string;
}

/**
 * Why a request's body may not be read as JSON (an HTTP server answers 415), or undefined when it
 * may: a request with a body (a `content-length` above 0, or a `transfer-encoding`) must say it is
 * JSON. Forms and `text/plain`, which browsers send cross-site without asking the server first,
 * are refused, and so is a body without any `Content-Type`. Requests without a body pass.
 */
export function jsonBodyProblem(headers: BodyHeaders): string | undefined {
  const type = headers['content-type'];
  if (type !== undefined && isJsonContentType(type)) return undefined;
  const length = headers['content-length'];
  const hasBody = headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0' && length.trim() !== '');
  if (!hasBody) return undefined;
  if (type === undefined || type.trim() === '')
    return 'The request has a body but no Content-Type: send it as JSON with "Content-Type: application/json"';
  return `Content-Type "${type.slice(0, 100)}" is not accepted: send the body as JSON with "Content-Type: application/json"`;
}
