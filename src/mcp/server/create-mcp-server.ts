import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

import type { Runnable } from '../../core/runnable.js';
import type { Tool } from '../../types/tool.js';
import { CORVID_VERSION, importSdk } from '../sdk.js';
import { MAX_COMPLETIONS } from './complete-values.js';
import { PromptRegistry } from './prompt-registry.js';
import { type RequestOutcome, RPC_ERROR } from './request-outcome.js';
import { ResourceRegistry } from './resource-registry.js';
import { isMcpResult, type McpResultContent } from './served-context.js';
import type { McpServedPrompt } from './served-prompt.js';
import type { McpServedResource } from './served-resource.js';
import {
  agentServedTool,
  type ServedCaller,
  type ServedCallOptions,
  type ServedToolInfo,
  type ServedToolOutcome,
  ToolRunner,
} from './tool-runner.js';

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
  /** Resources to serve: `mcpResource(…)` (fixed URI) and `mcpResourceTemplate(…)` (URI template). */
  resources?: McpServedResource[];
  /** Prompts to serve: `mcpPrompt(…)`. */
  prompts?: McpServedPrompt[];
}

/** How long a served tool waits for the client's answer to `requestSampling` (an LLM call) and `elicitInput` (a person). */
const SAMPLING_TIMEOUT_MS = 300_000;
const ELICITATION_TIMEOUT_MS = 600_000;

/** The JSON-RPC error code MCP uses for unknown tools and bad parameters. */
const INVALID_PARAMS = -32602;
/** The JSON-RPC error code of a call the caller may not make (a server error code, as the MCP SDK's own -32000 range). */
export const FORBIDDEN = -32003;

/** Where a host puts the caller of a request in the SDK's `authInfo.extra` (see `servedAuthInfo`). */
const CALLER_KEY = 'corvidCaller';

/**
 * The SDK `AuthInfo` a host hands `transport.handleRequest(request, { authInfo })` so that tool
 * calls of that request run as `caller` (see `ServedCaller`).
 */
export function servedAuthInfo(caller: ServedCaller, scopes: readonly string[] = []): AuthInfo {
  return { token: '', clientId: caller.userId ?? 'anonymous', scopes: [...scopes], extra: { [CALLER_KEY]: caller } };
}

function callerOf(authInfo: AuthInfo | undefined): ServedCaller | undefined {
  return authInfo?.extra?.[CALLER_KEY] as ServedCaller | undefined;
}

/** A tool's return value as MCP content: text, plus `structuredContent` for plain objects; `mcpResult(…)` as is. */
export function toCallToolResult(output: unknown): {
  content: McpResultContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
} {
  if (isMcpResult(output)) return { ...output };
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (output === undefined || output === null) return { content: [] };
  const text = JSON.stringify(output, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(output);
  const structured = typeof output === 'object' && !Array.isArray(output) ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  return structured ? { content: [{ type: 'text', text }], structuredContent: structured } : { content: [{ type: 'text', text }] };
}

/**
 * Corvid tools (and agents), resources and prompts as an MCP server. Create one, then serve it
 * over stdio (`serveStdio()`), over Streamable HTTP (`serveMcpHttp`), or on any SDK transport
 * (`connect`). Each connection gets its own SDK `Server` (and its own resource subscriptions);
 * tools, resources and prompts are shared. Served tools can ask the client for sampling and
 * elicitation (`requestSampling`, `elicitInput`).
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
  private readonly resources: ResourceRegistry;
  private readonly prompts: PromptRegistry;
  /** Live connections and the resource URIs each subscribed to. */
  private readonly connections = new Set<{ server: Server; subscriptions: Set<string> }>();

  constructor(options: McpServerOptions) {
    this.name = options.name;
    this.version = options.version ?? CORVID_VERSION;
    this.instructions = options.instructions;
    this.runner = new ToolRunner([...(options.tools ?? []), ...(options.agents ?? []).map((a) => agentServedTool(a))], options.name);
    this.resources = new ResourceRegistry(options.resources ?? []);
    this.prompts = new PromptRegistry(options.prompts ?? []);
  }

  /**
   * Tells every client subscribed to `uri` (`resources/subscribe`) that the resource changed
   * (`notifications/resources/updated`), so it can read it again. Resolves with how many were told.
   */
  async notifyResourceUpdated(uri: string): Promise<number> {
    const subscribed = [...this.connections].filter((c) => c.subscriptions.has(uri));
    await Promise.all(subscribed.map((c) => c.server.sendResourceUpdated({ uri }).catch(() => undefined)));
    return subscribed.length;
  }

  /** Every served tool (agents included), as clients list them. */
  listTools(): ServedToolInfo[] {
    return this.runner.list();
  }

  /** Calls a served tool directly (what `tools/call` and `POST /execute` do). */
  callTool(name: string, args: unknown, options?: ServedCallOptions): Promise<ServedToolOutcome> {
    return this.runner.call(name, args, options);
  }

  /** A new SDK `Server` answering tools (and resources, prompts and completion when there are any) for one connection. */
  async createSdkServer(): Promise<Server> {
    const [{ Server }, types] = await importSdk(() =>
      Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]),
    );
    const hasResources = this.resources.size > 0;
    const hasPrompts = this.prompts.size > 0;
    const capabilities = {
      tools: {},
      logging: {},
      ...(hasResources ? { resources: { subscribe: true } } : {}),
      ...(hasPrompts ? { prompts: {} } : {}),
      ...(hasResources || hasPrompts ? { completions: {} } : {}),
    };
    const server = new Server({ name: this.name, version: this.version }, { capabilities, instructions: this.instructions });
    const connection = { server, subscriptions: new Set<string>() };
    this.connections.add(connection);
    server.onclose = () => void this.connections.delete(connection);
    const answer = <T>(outcome: RequestOutcome<T>): T => {
      if (outcome.ok) return outcome.value;
      throw new types.McpError(outcome.code, outcome.message);
    };

    server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: this.runner.list() }));
    server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      const token = request.params._meta?.progressToken;
      const related = { relatedRequestId: extra.requestId, signal: extra.signal };
      const outcome = await this.runner.call(name, args ?? {}, {
        caller: callerOf(extra.authInfo),
        signal: extra.signal,
        callId: String(extra.requestId),
        onProgress:
          token === undefined
            ? undefined
            : (p) => {
                void extra
                  .sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken: token, progress: p.progress, total: p.total, message: p.message },
                  })
                  .catch(() => undefined);
              },
        onLog: (level, data, logger) => {
          // Sent on the call's own stream (relatedRequestId), honouring the level the client set.
          const ignored = (server as unknown as { isMessageIgnored?(l: string, s?: string): boolean }).isMessageIgnored?.(
            level,
            extra.sessionId,
          );
          if (!ignored)
            void extra.sendNotification({ method: 'notifications/message', params: { level, data, logger } }).catch(() => undefined);
        },
        // Requests back to the client travel on the call's stream too (relatedRequestId).
        onSample: async (params) => {
          if (!server.getClientCapabilities()?.sampling)
            throw new Error('the MCP client does not support sampling (it did not declare the "sampling" capability)');
          return server.createMessage(params, { ...related, timeout: SAMPLING_TIMEOUT_MS });
        },
        onElicit: async (params) => {
          if (!server.getClientCapabilities()?.elicitation)
            throw new Error('the MCP client does not support elicitation (it did not declare the "elicitation" capability)');
          return server.elicitInput({ ...params, mode: 'form' }, { ...related, timeout: ELICITATION_TIMEOUT_MS });
        },
      });
      if (outcome.ok) return toCallToolResult(outcome.output);
      if (outcome.kind === 'not_found') throw new types.McpError(INVALID_PARAMS, outcome.message);
      if (outcome.kind === 'forbidden') throw new types.McpError(FORBIDDEN, outcome.message);
      return { content: [{ type: 'text' as const, text: outcome.message }], isError: true };
    });

    if (hasResources) {
      server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({ resources: await this.resources.list() }));
      server.setRequestHandler(types.ListResourceTemplatesRequestSchema, async () => ({
        resourceTemplates: this.resources.listTemplates(),
      }));
      server.setRequestHandler(types.ReadResourceRequestSchema, async (request, extra) =>
        answer(await this.resources.read(request.params.uri, extra.signal)),
      );
      server.setRequestHandler(types.SubscribeRequestSchema, async (request) => {
        const { uri } = request.params;
        if (!(await this.resources.has(uri)))
          throw new types.McpError(RPC_ERROR.resourceNotFound, `Cannot subscribe to "${uri}": no such resource on this server`);
        connection.subscriptions.add(uri);
        return {};
      });
      server.setRequestHandler(types.UnsubscribeRequestSchema, async (request) => {
        connection.subscriptions.delete(request.params.uri);
        return {};
      });
    }
    if (hasPrompts) {
      server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({ prompts: this.prompts.list() }));
      server.setRequestHandler(types.GetPromptRequestSchema, async (request, extra) =>
        answer(await this.prompts.get(request.params.name, request.params.arguments, extra.signal)),
      );
    }
    if (hasResources || hasPrompts) {
      server.setRequestHandler(types.CompleteRequestSchema, async (request) => {
        const { ref, argument, context } = request.params;
        const args = context?.arguments ?? {};
        const values = answer(
          ref.type === 'ref/prompt'
            ? await this.prompts.complete(ref.name, argument.name, argument.value, args)
            : await this.resources.complete(ref.uri, argument.name, argument.value, args),
        );
        return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
      });
    }
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
 * Builds an MCP server from Corvid tools and agents, plus resources (`mcpResource`,
 * `mcpResourceTemplate`) and prompts (`mcpPrompt`). Throws on duplicate tool names, resource URIs,
 * templates or prompt names.
 * @example
 * import { tool } from 'corvid';
 * import { createMcpServer } from 'corvid/mcp';
 * const add = tool({ name: 'add', description: 'Add', input: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => a + b });
 * await createMcpServer({ name: 'math', tools: [add] }).serveStdio();
 */
export function createMcpServer(options: McpServerOptions): CorvidMcpServer {
  return new CorvidMcpServer(options);
}
