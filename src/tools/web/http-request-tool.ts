import { z } from 'zod';

import { tool } from '../../core/tool.js';
import { decodeText } from '../../http/decode-text.js';
import { guardedFetch } from '../../http/guarded-fetch.js';
import type { Tool } from '../../types/tool.js';
import { type WebSettings, window } from './web-tools-options.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const input = z.object({
  url: z.string().describe('The http(s) URL; its host must be one this tool allows'),
  method: z.enum(METHODS).optional().describe('HTTP method (default GET)'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers'),
  body: z.string().optional().describe('Request body as text'),
  json: z.unknown().optional().describe('Request body as JSON (sets content-type: application/json); instead of body'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Character offset to continue a long response body from (the nextOffset of an earlier call)'),
});

/** What `http_request` returns. */
export interface HttpRequestResult {
  /** The URL that answered, after redirects. */
  url: string;
  method: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** The body as text; binary bodies are described, not returned. */
  body: string;
  totalChars?: number;
  nextOffset?: number;
}

// Set by the tool itself: a model cannot override them.
const RESERVED = /^(host|content-length|transfer-encoding|connection|keep-alive|upgrade|te|trailer|proxy-.*)$/i;
const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|x-yaml|yaml|x-ndjson|graphql)\b)/i;

/** The `http_request` tool: any method to the allow-listed hosts, through the SSRF guard. */
export function httpRequestTool(settings: WebSettings): Tool<z.infer<typeof input>, HttpRequestResult> {
  return tool({
    name: 'http_request',
    description:
      'Send an HTTP request (method, headers, body) to an allowed API host and get the status, headers and body back. Only the hosts configured for this tool can be reached.',
    input,
    preview: (args) => {
      const head = Object.entries(args.headers ?? {}).map(
        ([k, v]) => `${k}: ${/^(authorization|cookie|proxy-authorization)$/i.test(k) ? '…' : v}`,
      );
      const body = args.json !== undefined ? JSON.stringify(args.json, null, 2) : args.body;
      return [
        `${args.method ?? 'GET'} ${args.url}`,
        ...head,
        ...(body ? ['', body.length > 2000 ? `${body.slice(0, 2000)}…` : body] : []),
      ].join('\n');
    },
    execute: async (args, ctx) => {
      const method = args.method ?? 'GET';
      const headers: Record<string, string> = { 'user-agent': settings.userAgent };
      for (const [name, value] of Object.entries(args.headers ?? {})) if (!RESERVED.test(name)) headers[name.toLowerCase()] = value;
      let body: Buffer | undefined;
      if (args.json !== undefined) {
        body = Buffer.from(JSON.stringify(args.json));
        headers['content-type'] ??= 'application/json';
      } else if (args.body !== undefined) body = Buffer.from(args.body);
      const res = await guardedFetch(
        { url: args.url, method, headers, body },
        {
          guard: settings.requestGuard,
          maxRedirects: settings.maxRedirects,
          maxBytes: settings.maxResponseBytes,
          timeoutMs: settings.timeoutMs,
          signal: ctx.signal,
        },
      );
      const contentType = String(res.headers['content-type'] ?? '');
      const text =
        res.body.length === 0
          ? ''
          : TEXTUAL.test(contentType) || (!contentType && !res.body.includes(0))
            ? decodeText(res.body, contentType).text
            : `(binary body: ${res.body.length} bytes of ${contentType || 'unknown type'})`;
      const part = window(text, args.offset ?? 0, settings.maxChars);
      return {
        url: res.url,
        method,
        status: res.status,
        statusText: res.statusText,
        headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')])),
        body: part.text,
        ...(part.nextOffset !== undefined || args.offset ? { totalChars: part.totalChars } : {}),
        ...(part.nextOffset !== undefined ? { nextOffset: part.nextOffset } : {}),
      };
    },
  });
}
