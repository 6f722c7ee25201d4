import { randomUUID } from 'node:crypto';

import type { JSONSchema7 } from '@ai-sdk/provider';

import type { RunOptions } from '../../core/run-options.js';
import type { Runnable } from '../../core/runnable.js';
import { tool, toolSpec, validateToolInput } from '../../core/tool.js';
import { isUserScoped, userScoped, usesUserScopedTools } from '../../core/user-scoped.js';
import type { AgentEvent } from '../../types/events.js';
import { RunState } from '../../types/run-state.js';
import type { Store } from '../../types/storage/store.js';
import type { Tool, ToolContext } from '../../types/tool.js';
import type { ServedHooks } from './served-context.js';

/** A tool as an MCP server (or the REST gateway) lists it. */
export interface ServedToolInfo {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: JSONSchema7 & { type: 'object' };
}

/** Progress of a running tool (agents report one per step, tool call and nested task). */
export interface ServedProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * How a call ended. `not_found`: no such tool. `validation`: the arguments do not match the
 * schema. `execution`: the tool threw (or timed out, or was cancelled). Each failure carries a
 * message written for the caller.
 */
export type ServedToolOutcome =
  | { ok: true; output: unknown }
  | { ok: false; kind: 'not_found' | 'validation' | 'forbidden' | 'execution'; message: string; cause?: unknown };

/** The HTTP status of each failed call of the REST gateway (`POST /execute`). */
export const EXECUTE_STATUS: Record<Exclude<ServedToolOutcome, { ok: true }>['kind'], number> = {
  not_found: 404,
  validation: 400,
  forbidden: 403,
  execution: 500,
};

/**
 * Who a served call runs as, given by the host that authenticated the request (`corvid serve`):
 * tools see `userId` as `ToolContext.userId`, as inside a chat turn of that user, so memory tools
 * and `search_conversations` reach that user's data alone.
 */
export interface ServedCaller {
  /** The user the caller speaks for (`key:<name>`, the JWT's user); undefined for an anonymous caller. */
  userId?: string;
  /**
   * Whether the host authenticates callers. Then a call without `userId` of a tool marked
   * `USER_SCOPED` (or of an agent using one) is refused (`forbidden`) instead of reaching what
   * every caller shares.
   */
  authEnabled?: boolean;
  /**
   * Set when the caller may not call tools at all (its credential lacks the scope): every call is
   * refused (`forbidden`) with this message before anything runs.
   */
  refusal?: string;
  /**
   * The store agents served as tools run in: with a `userId`, each call of such an agent is a
   * session run of that user (a new session, as an A2A message without a context), so its tools
   * run as the caller too. Without one, an agent using user-scoped tools is refused on a host with
   * authentication.
   */
  store?: () => Promise<Store>;
}

/** Options of one call. */
export interface ServedCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ServedProgress) => void;
  /** Log messages the tool sends (`sendLog`). */
  onLog?: ServedHooks['log'];
  /** Answers `requestSampling` (the MCP client's `sampling/createMessage`). */
  onSample?: ServedHooks['sample'];
  /** Answers `elicitInput` (the MCP client's `elicitation/create`). */
  onElicit?: ServedHooks['elicit'];
  /** Id of the request, used as the tool call id. */
  callId?: string;
  /** Who the call runs as. Default: nobody in particular (a local server, `corvid mcp serve`). */
  caller?: ServedCaller;
}

/** What an agent exposed as a tool says while it runs. */
function progressMessage(e: AgentEvent): string | undefined {
  const who = e.path.join(' > ');
  switch (e.type) {
    case 'step_start':
      return `${who}: step ${e.step}`;
    case 'tool_call':
      return `${who}: calling ${e.toolName}`;
    case 'task_start':
      return `${who}: ${e.task} started`;
    case 'handoff':
      return `${who}: handed over to ${e.to}`;
    default:
      return undefined;
  }
}

/** An agent as a served tool: `{ message }` in, its answer out, progress while it runs. */
export function agentServedTool(agent: Runnable, name: string = agent.name): Tool<{ message: string }, string> {
  const served = tool<{ message: string }, string>({
    name,
    description: agent.description ?? `Ask the "${agent.name}" agent; it answers in text.`,
    parameters: {
      type: 'object',
      properties: { message: { type: 'string', description: `The request for the ${agent.name} agent` } },
      required: ['message'],
      additionalProperties: false,
    },
    execute: async ({ message }, ctx) => {
      const run = agent.stream(message, { signal: ctx.signal, ...(await callerSession(agent, ctx)) });
      const progress = (ctx as ToolContext & ServedHooks).progress;
      let n = 0;
      for await (const e of run) {
        const text = progress && progressMessage(e);
        if (text) progress({ progress: ++n, message: text });
      }
      return (await run.result).text;
    },
  });
  return usesUserScopedTools(agent) ? userScoped(served) : served;
}

/** An agent called by an identified caller runs in a new session of that caller (its tools then run as the caller). */
async function callerSession(agent: Runnable, ctx: ToolContext): Promise<Pick<RunOptions, 'session' | 'store'>> {
  const caller = (ctx as ToolContext & ServedHooks).caller;
  if (caller?.authEnabled && caller.store === undefined && usesUserScopedTools(agent))
    throw new Error(`agent "${agent.name}" uses tools of the caller's own data and can run as its caller only on a server with a store`);
  if (caller?.userId === undefined || caller.store === undefined || agent.kind === 'remote') return {};
  return { session: { id: `mcp_${randomUUID()}`, userId: caller.userId }, store: await caller.store() };
}

/** The MCP / REST listing of a Corvid tool: its name, description and JSON Schema (an object schema). */
export function servedToolInfo(t: Tool): ServedToolInfo {
  const schema = toolSpec(t).inputSchema as JSONSchema7;
  const inputSchema = (schema.type === 'object' ? schema : { type: 'object', ...schema }) as JSONSchema7 & { type: 'object' };
  return { name: t.name, description: t.description, inputSchema };
}

/**
 * Runs Corvid tools for callers outside an agent run (MCP clients, the REST gateway): validates
 * the arguments, runs the tool with a fresh context, and reports the three kinds of failure apart.
 */
export class ToolRunner {
  private readonly byName = new Map<string, Tool>();

  constructor(
    tools: readonly Tool[],
    private readonly serverName: string,
  ) {
    for (const t of tools) {
      if (this.byName.has(t.name)) throw new Error(`Two tools are named "${t.name}"; tool and agent names must be unique on one server`);
      this.byName.set(t.name, t);
    }
  }

  get tools(): Tool[] {
    return [...this.byName.values()];
  }

  list(): ServedToolInfo[] {
    return this.tools.map(servedToolInfo);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  async call(name: string, args: unknown, options: ServedCallOptions = {}): Promise<ServedToolOutcome> {
    const t = this.byName.get(name);
    if (!t)
      return { ok: false, kind: 'not_found', message: `Unknown tool "${name}". Tools: ${[...this.byName.keys()].join(', ') || '(none)'}` };
    const caller = options.caller;
    if (caller?.refusal !== undefined) return { ok: false, kind: 'forbidden', message: caller.refusal };
    if (caller?.authEnabled && caller.userId === undefined && isUserScoped(t))
      return {
        ok: false,
        kind: 'forbidden',
        message: `Tool "${name}" works on the caller's own data (memories, past conversations) and needs an identified caller: send a credential`,
      };
    const checked = await validateToolInput(t, args ?? {});
    if (!checked.ok) return { ok: false, kind: 'validation', message: `Invalid arguments for tool "${name}": ${checked.message}` };
    const signal = options.signal ?? new AbortController().signal;
    const runId = `mcp_${randomUUID()}`;
    const toolCallId = options.callId ?? randomUUID();
    const context: ToolContext & ServedHooks = {
      signal,
      agent: this.serverName,
      path: [this.serverName],
      runId,
      toolCallId,
      idempotencyKey: `${runId}:${toolCallId}`,
      messages: [],
      state: new RunState(),
      progress: options.onProgress,
      log: options.onLog,
      sample: options.onSample,
      elicit: options.onElicit,
      caller,
    };
    if (caller?.userId !== undefined) context.userId = caller.userId;
    try {
      let output: unknown;
      if (t.timeoutMs && t.timeoutMs > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${t.timeoutMs} ms`)), t.timeoutMs);
        });
        try {
          output = await Promise.race([Promise.resolve(t.execute(checked.value, context)), timeout]);
        } finally {
          clearTimeout(timer);
        }
      } else output = await t.execute(checked.value, context);
      return { ok: true, output };
    } catch (err) {
      const reason = signal.aborted ? 'the call was cancelled' : err instanceof Error ? err.message : String(err);
      return { ok: false, kind: 'execution', message: `Tool "${name}" failed: ${reason}`, cause: err };
    }
  }
}
