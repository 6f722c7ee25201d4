import { z } from 'zod';

import type { WebToolsOptions } from '../../tools/web/web-tools-options.js';
import { durationSchema, durationToMs } from '../duration-schema.js';

/** `tools: { <id>: { type: web, … } }` — web_fetch and http_request behind the SSRF guard. */
export const webToolEntrySchema = z
  .strictObject({
    type: z
      .literal('web')
      .describe(
        'Web tools: web_fetch (a URL as readable markdown; PDFs and text too) and http_request (any method to the allowed hosts), both refusing loopback, private, link-local and metadata addresses.',
      ),
    allow_hosts: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Hosts http_request may call (http_request is only offered with some): names, "*.example.com" wildcards, IP addresses or CIDR blocks. Listed hosts are also trusted by both tools: a listed name may resolve to a private address, a listed address or block may be anything.',
      ),
    allow_private: z
      .boolean()
      .optional()
      .describe(
        'Let both tools reach loopback, private (RFC 1918, CGNAT, ULA) and link-local addresses, for local setups. Metadata, multicast and reserved addresses stay refused. Default false.',
      ),
    max_response_bytes: z
      .int()
      .positive()
      .optional()
      .describe('Largest response body (after decompression) in bytes; larger ones are refused. Default 5242880 (5 MiB).'),
    max_chars: z
      .int()
      .positive()
      .optional()
      .describe('Most characters of content returned per call; the rest is cut, with an offset to continue from. Default 40000.'),
    timeout: durationSchema.optional().describe('Time limit of one call: connection, redirects and body. Default 30s.'),
    max_redirects: z.int().min(0).optional().describe('Most redirects followed per call, each one checked again. Default 5.'),
    user_agent: z.string().min(1).optional().describe('User-Agent header of the requests.'),
    tools: z
      .array(z.enum(['web_fetch', 'http_request']))
      .optional()
      .describe('Which tools to offer. Default both (http_request only with allow_hosts).'),
  })
  .describe('Built-in web tools (web_fetch, http_request) with an SSRF guard.');

/** A validated `type: web` entry. */
export type WebToolEntry = z.output<typeof webToolEntrySchema>;

/** The `webTools()` options of a `type: web` entry. */
export function webToolOptions(entry: WebToolEntry, _ctx: { baseDir: string }): WebToolsOptions {
  const options: WebToolsOptions = {};
  if (entry.allow_hosts) options.allowHosts = entry.allow_hosts;
  if (entry.allow_private !== undefined) options.allowPrivate = entry.allow_private;
  if (entry.max_response_bytes !== undefined) options.maxResponseBytes = entry.max_response_bytes;
  if (entry.max_chars !== undefined) options.maxChars = entry.max_chars;
  if (entry.timeout !== undefined) options.timeoutMs = durationToMs(entry.timeout);
  if (entry.max_redirects !== undefined) options.maxRedirects = entry.max_redirects;
  if (entry.user_agent !== undefined) options.userAgent = entry.user_agent;
  if (entry.tools) options.tools = entry.tools;
  return options;
}
