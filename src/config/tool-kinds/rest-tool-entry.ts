import { z } from 'zod';

import type { RestToolsOptions } from '../../tools/rest/rest-tools-options.js';
import { durationSchema, durationToMs } from '../duration-schema.js';

/** `tools: { <id>: { type: rest, url: … } }` — the tools of a REST tool server (GET /tools, POST /execute). */
export const restToolEntrySchema = z
  .strictObject({
    type: z
      .literal('rest')
      .describe(
        'The tools of a REST tool server: read from GET <url>/tools, called with POST <url>/execute — e.g. another Corvid (corvid mcp serve --http, corvid serve).',
      ),
    url: z.url({ protocol: /^https?$/ }).describe('Base URL of the tool server, e.g. http://127.0.0.1:8001.'),
    token: z.string().min(1).optional().describe('Bearer token sent as "Authorization: Bearer <token>", e.g. ${INVENTORY_TOKEN}.'),
    headers: z.record(z.string(), z.string()).optional().describe('More request headers, e.g. { x-api-key: ${KEY} } for corvid serve.'),
    tools: z.array(z.string().min(1)).optional().describe('Only these tools of the server. Default all.'),
    prefix: z
      .string()
      .regex(/^[a-zA-Z0-9_-]*$/, { error: 'a prefix uses letters, digits, "_" or "-"' })
      .optional()
      .describe('Prefix of the tool names the model sees, e.g. inventory_.'),
    timeout: durationSchema.optional().describe('Time limit of listing the tools and of each call. Default 60s.'),
  })
  .describe('Tools of a REST tool server.');

/** A validated `type: rest` entry. */
export type RestToolEntry = z.output<typeof restToolEntrySchema>;

/** The `restTools()` options of a `type: rest` entry. */
export function restToolOptions(entry: RestToolEntry, _ctx: { baseDir: string }): RestToolsOptions {
  const options: RestToolsOptions = { url: entry.url };
  if (entry.token !== undefined) options.token = entry.token;
  if (entry.headers) options.headers = entry.headers;
  if (entry.tools) options.tools = entry.tools;
  if (entry.prefix !== undefined) options.prefix = entry.prefix;
  if (entry.timeout !== undefined) options.timeoutMs = durationToMs(entry.timeout);
  return options;
}
