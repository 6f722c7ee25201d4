import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Runnable } from '../../core/runnable.js';
import type { Tool } from '../../types/tool.js';
import { CORVID_VERSION, importSdk } from '../sdk.js';
import { isMcpResult, type McpResultContent } from './served-context.js';
import { agentServedTool, ToolRunner, type ServedCallOptions, type ServedToolInfo, type ServedToolOutcome } from './tool-runner.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /** Server name announced to clients. */
  name: string;
  /** Server version. Default: Corvid's. */
  version?: string;
  /** Instructions announced to clients. */
  instructions?: string;
  /** Corvid tools to serve (zod or JSON Schema tools, as agents use them). */
  tools?: Tool[];
  /** Agents to serve, each as a tool named after it that takes `{ message }` and returns the answer. */
  agents?: Runnable[];
}

/** The JSON-RPC error code MCP uses for unknown tools and bad parameters. */
const INVALID_PARAMS = -32602;

/** A tool's return value as MCP content: text, plus `structuredContent` for plain objects; `mcpResult(…)` as is. */
export function toCallToolResult(output: unknown): { content: McpResultContent[]; structuredContent?: Record<string, unknown>; isError?: boolean } {
  if (isMcpResult(output)) return { ...output };
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (output === undefined || output === null) return { content: [] };
  const text = JSON.stringify(output, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(output);
  const structured = typeof output === 'object' && !Array.isArray(output) ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  return structured ? { content: [{ type: 'text', text }], structuredContent: structured } : { content: [{ type: 'text', text }] };
}

/**
 * Corvid tools (and agents) as an MCP server. Create one, then serve it over stdio
 * (`serveStdio()`), over Streamable HTTP (`serveMcpHttp`), or on any SDK transport (`connect`).
 * Each connection gets its own SDK `Server`; the tools are shared.
 *
 * Failures are told apart: an unknown tool is a JSON-RPC error (-32602); invalid arguments and
 * a tool that throws are `isError` results whose text starts with "Invalid arguments for tool"
 * or "Tool … failed", so the calling model can correct itself. Authentication belongs to the
 * HTTP layer (`serveMcpHttp({ authenticate })`: 401 before any MCP message).
 * @example
 * const server = createMcpServer({ name: 'math', tools: [add] });
 * await server.serveStdio();
 */
export class CorvidMcpServer {
  readonly name: string;
  readonly version: string;
  readonly instructions: string | undefined;
  private readonly runner: ToolRunner;

  constructor(options: McpServerOptions) {
    this.name = options.name;
    this.version = options.version ?? CORVID_VERSION;
    this.instructions = options.instructions;
    this.runner = new ToolRunner([...(options.tools ?? []), ...(options.agents ?? []).map((a) => agentServedTool(a))], options.name);
  }

  /** Every served tool (agents included), as clients list them. */
  listTools(): ServedToolInfo[] {
    return this.runner.list();
  }

  /** Calls a served tool directly (what `tools/call` and `POST /execute` do). */
  callTool(name: string, args: unknown, options?: ServedCallOptions): Promise<ServedToolOutcome> {
    return this.runner.call(name, args, options);
  }

  /** A new SDK `Server` answering `tools/list` and `tools/call` with these tools. */
  async createSdkServer(): Promise<Server> {
    const [{ Server }, types] = await importSdk(() => Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]));
    const server = new Server({ name: this.name, version: this.version }, { capabilities: { tools: {}, logging: {} }, instructions: this.instructions });
    server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: this.runner.list() }));
    server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      const token = request.params._meta?.progressToken;
      const outcome = await this.runner.call(name, args ?? {}, {
        signal: extra.signal,
        callId: String(extra.requestId),
        onProgress:
          token === undefined
            ? undefined
            : (p) => {
                void extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: p.progress, total: p.total, message: p.message } })
                  .catch(() => undefined);
              },
        onLog: (level, data, logger) => {
          // Sent on the call's own stream (relatedRequestId), honouring the level the client set.
          const ignored = (server as unknown as { isMessageIgnored?(l: string, s?: string): boolean }).isMessageIgnored?.(level, extra.sessionId);
          if (!ignored) void extra.sendNotification({ method: 'notifications/message', params: { level, data, logger } }).catch(() => undefined);
        },
      });
      if (outcome.ok) return toCallToolResult(outcome.output);
      if (outcome.kind === 'not_found') throw new types.McpError(INVALID_PARAMS, outcome.message);
      return { content: [{ type: 'text' as const, text: outcome.message }], isError: true };
    });
    return server;
  }

  /** Serves one connection on an SDK transport; resolves when connected. */
  async connect(transport: Transport): Promise<Server> {
    const server = await this.createSdkServer();
    await server.connect(transport);
    return server;
  }

  /** Serves MCP on this process's stdin / stdout until stdin ends. */
  async serveStdio(): Promise<Server> {
    const { StdioServerTransport } = await importSdk(() => import('@modelcontextprotocol/sdk/server/stdio.js'));
    return this.connect(new StdioServerTransport());
  }
}

/**
 * Builds an MCP server from Corvid tools and agents.
 * @example
 * import { tool } from 'corvid';
 * import { createMcpServer } from 'corvid/mcp';
 * const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
 * await createMcpServer({ name: 'math', tools: [add] }).serveStdio();
 */
export function createMcpServer(options: McpServerOptions): CorvidMcpServer {
  return new CorvidMcpServer(options);
}
