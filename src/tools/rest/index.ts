/**
 * Tools of a REST tool server: `GET /tools` lists them, each becomes a Corvid tool whose calls go
 * to `POST /execute`. Corvid's own gateway (`corvid mcp serve --http`, `corvid serve`) is such a
 * server, so one Corvid deployment can use the tools another serves.
 * @example
 * import { restTools } from 'corvid/tools';
 * const tools = await restTools({ url: 'http://127.0.0.1:8001', token: process.env.INVENTORY_TOKEN });
 * const agent = new Agent({ name: 'clerk', model, tools });
 */
import type { JSONSchema7 } from '@ai-sdk/provider';

import { tool } from '../../core/tool.js';
import { ConfigError } from '../../errors/config-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { Tool } from '../../types/tool.js';
import { type RestClientOptions, restRequest, serverError } from './rest-client.js';
import { RestToolError } from './rest-tool-error.js';
import type { RestToolsOptions } from './rest-tools-options.js';

export { RestToolError } from './rest-tool-error.js';
export type { RestToolsOptions } from './rest-tools-options.js';

/** A tool as `GET /tools` lists it. */
interface ListedTool {
  name: string;
  description?: string;
  inputSchema?: JSONSchema7;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Reads the server's tools (`GET /tools`) and returns one Corvid tool for each (calls go to `POST /execute`). */
export async function restTools(options: RestToolsOptions): Promise<Tool[]> {
  if (typeof options?.url !== 'string' || !/^https?:\/\/[^/]/.test(options.url))
    throw new ValidationError(`restTools: url must be an http(s) URL, got ${JSON.stringify(options?.url)}`);
  const client: RestClientOptions = {
    url: options.url,
    token: options.token,
    headers: options.headers,
    timeoutMs: options.timeoutMs ?? 60_000,
  };
  const listed = await listTools(client);
  const wanted = options.tools ? new Set(options.tools) : undefined;
  if (wanted) {
    const missing = [...wanted].filter((n) => !listed.some((t) => t.name === n));
    if (missing.length > 0)
      throw new ConfigError(
        `The tool server at ${options.url} has no tool ${missing.map((n) => `"${n}"`).join(', ')} (it has: ${listed.map((t) => t.name).join(', ') || 'none'})`,
      );
  }
  return listed.filter((t) => !wanted || wanted.has(t.name)).map((t) => remoteTool(t, options.prefix ?? '', client));
}

async function listTools(client: RestClientOptions): Promise<ListedTool[]> {
  let answer: { status: number; json: unknown };
  try {
    answer = await restRequest(client, '/tools');
  } catch (err) {
    throw new ConfigError(`Could not read the tools of ${client.url}: ${(err as Error).message}`, { cause: err });
  }
  const failure = serverError(answer.json);
  if (answer.status !== 200 || failure) {
    throw new ConfigError(
      `Could not read the tools of ${client.url}: GET /tools answered HTTP ${answer.status}${failure ? ` (${failure.type}: ${failure.message})` : ''}`,
    );
  }
  const tools = (answer.json as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools))
    throw new ConfigError(`Could not read the tools of ${client.url}: GET /tools did not answer { "tools": [...] }`);
  return tools.map((t, i) => {
    const item = t as Partial<ListedTool>;
    if (typeof item?.name !== 'string')
      throw new ConfigError(`The tool server at ${client.url} listed a tool without a name (item ${i} of GET /tools)`);
    return { name: item.name, description: typeof item.description === 'string' ? item.description : '', inputSchema: item.inputSchema };
  });
}

function remoteTool(listed: ListedTool, prefix: string, client: RestClientOptions): Tool {
  const name = `${prefix}${listed.name}`;
  if (!TOOL_NAME.test(name))
    throw new ConfigError(
      `The tool "${listed.name}" of ${client.url} cannot be used: "${name}" is not a valid tool name (1-64 letters, digits, "_" or "-")`,
    );
  const schema =
    listed.inputSchema && typeof listed.inputSchema === 'object' ? listed.inputSchema : { type: 'object' as const, properties: {} };
  return tool({
    name,
    description: listed.description ?? '',
    parameters: schema,
    execute: async (args, ctx) => {
      const { status, json } = await restRequest(client, '/execute', { tool: listed.name, arguments: args ?? {} }, ctx.signal);
      const failure = serverError(json);
      if (status === 200 && !failure) return (json as { result?: unknown } | undefined)?.result ?? null;
      // Corvid's gateway words a failure as its own tool executor does; the local one adds that prefix again.
      if (failure) {
        const own = `Tool "${listed.name}" failed: `;
        throw new RestToolError(failure.message.startsWith(own) ? failure.message.slice(own.length) : failure.message, {
          type: failure.type,
        });
      }
      throw new RestToolError(`The tool server answered HTTP ${status}`, { type: 'http' });
    },
  });
}
