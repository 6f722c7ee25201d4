import type { Agent } from '../core/agent.js';
import { McpError } from '../errors/mcp-error.js';
import type { Tool } from '../types/tool.js';
import { watchPaths, watchTargets } from './file-watcher.js';
import { McpConnection } from './mcp-connection.js';
import type { McpAuthSession, McpCallOptions } from './mcp-connection-options.js';
import type { McpServerConfig } from './mcp-server-config.js';
import { mcpTool, mcpToolOrigin } from './mcp-tool.js';
import type { TokenStore } from './oauth/token-store.js';
import type { McpCallResult } from './tool-result.js';
import type { McpElicitationHandler, McpNotice, McpOpenUrl, McpServerStatus, McpToolInfo } from './types.js';

/** Options of an `McpHub`. */
export interface McpHubOptions {
  /** Servers by id (normalised config, as in `mcp_servers`). */
  servers: Record<string, McpServerConfig>;
  /** Directory relative `cwd`s and `watch` paths are resolved against (the config file's). Default `process.cwd()`. */
  baseDir?: string;
  /** Log and progress notifications of the servers (also those outside tool calls). */
  onNotice?: (notice: McpNotice) => void;
  /** Answers elicitation requests; without it they are declined, saying no user is present. */
  onElicitation?: McpElicitationHandler;
  /** Problems that do not stop the agents: a server that failed, skipped duplicate tools, a reload that failed. */
  onWarning?: (error: McpError) => void;
  /** OAuth: where tokens are kept. Default: the file store in `~/.corvid`. */
  tokenStore?: TokenStore;
  /** OAuth: shows the authorization URL (default: opens the browser, else prints it on stderr). */
  openUrl?: McpOpenUrl;
  /** OAuth: whether a missing or refused authorization may start the browser flow. Default true. */
  interactiveAuth?: boolean;
}

/** A tool reference of an agent resolved to a server: all its tools, or one. */
export interface McpToolRef {
  server: string;
  /** The server's name of the one tool; absent for every tool of the server. */
  tool?: string;
}

interface Binding {
  agent: Agent;
  refs: McpToolRef[];
  /** Names of the MCP tools currently added to the agent, by server. */
  added: Map<string, string[]>;
}

/**
 * The MCP servers of a config (or of a program): connections opened on first use and reused,
 * their tools as Corvid tools, agents kept in sync when a server's tool list changes, hot
 * reload, and shutdown.
 * @example
 * const hub = new McpHub({ servers: { fs: { transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } });
 * const agent = new Agent({ name: 'files', tools: await hub.tools('fs') });
 * // …
 * await hub.close();
 */
export class McpHub {
  private readonly options: McpHubOptions;
  private readonly connections = new Map<string, McpConnection>();
  private servers: Record<string, McpServerConfig>;
  private baseDir: string;
  private readonly toolObjects = new Map<string, Map<string, Tool>>();
  private readonly bindings = new Set<Binding>();
  private readonly watchers = new Map<string, () => void>();
  private closed = false;

  constructor(options: McpHubOptions) {
    this.options = options;
    this.servers = { ...options.servers };
    this.baseDir = options.baseDir ?? process.cwd();
  }

  /** Ids of the configured servers. */
  get ids(): string[] {
    return Object.keys(this.servers);
  }

  /** The connection of a server (created, not connected, on first request). */
  connection(id: string): McpConnection {
    let c = this.connections.get(id);
    if (c) return c;
    const config = this.servers[id];
    if (!config)
      throw new McpError(`Unknown MCP server "${id}"; servers: ${this.ids.join(', ') || '(none)'}`, { kind: 'connection', server: id });
    if (this.closed) throw new McpError(`MCP server "${id}": the hub is closed`, { kind: 'connection', server: id });
    c = new McpConnection(id, config, {
      baseDir: this.baseDir,
      onElicitation: this.options.onElicitation,
      onNotice: this.options.onNotice,
      onToolsChanged: (server, tools) => void this.syncServer(server, tools),
      createAuthSession: (server, cfg) => this.createAuthSession(server, cfg),
    });
    this.connections.set(id, c);
    if (config.reload === 'watch') this.startWatching(id, config);
    return c;
  }

  /** Lists a server's tools (after `include` / `exclude`), connecting if needed. */
  listTools(id: string, options?: { refresh?: boolean }): Promise<McpToolInfo[]> {
    return this.connection(id).listTools(options);
  }

  /** Calls a tool by the server's name for it; resolves with the raw MCP result. */
  callTool(id: string, tool: string, args: Record<string, unknown> = {}, options?: McpCallOptions): Promise<McpCallResult> {
    return this.connection(id).callTool(tool, args, options);
  }

  /**
   * Corvid tools for the given servers (default: all), named `<server>_<tool>`. Servers are
   * connected in parallel; one that fails throws (use `toolsSettled` to keep the others).
   */
  async tools(ids: string | string[] = this.ids): Promise<Tool[]> {
    const list = typeof ids === 'string' ? [ids] : ids;
    const settled = await this.toolsSettled(list);
    const failed = settled.find((s) => 'error' in s);
    if (failed && 'error' in failed) throw failed.error;
    return this.dedupe(
      settled.flatMap((s) => ('tools' in s ? s.tools : [])),
      undefined,
    );
  }

  /** Like `tools`, per server: its tools, or the error that kept them away. */
  async toolsSettled(ids: string[] = this.ids): Promise<Array<{ server: string; tools: Tool[] } | { server: string; error: McpError }>> {
    return Promise.all(
      ids.map(async (server) => {
        try {
          const infos = await this.listTools(server);
          return { server, tools: this.toolsFor(server, infos) };
        } catch (err) {
          return { server, error: toMcpError(err, server) };
        }
      }),
    );
  }

  /**
   * Adds the tools of `refs` to an agent and keeps them in sync: when a server's tool list
   * changes (or it is reloaded) the agent's tools from it are replaced. Servers that fail are
   * reported through `onWarning` and skipped; the agent keeps its other tools.
   */
  async bindAgent(agent: Agent, refs: McpToolRef[]): Promise<void> {
    const binding: Binding = { agent, refs, added: new Map() };
    this.bindings.add(binding);
    const servers = [...new Set(refs.map((r) => r.server))];
    const settled = await this.toolsSettled(servers);
    for (const s of settled) {
      if ('error' in s) {
        this.warn(s.error);
        continue;
      }
      try {
        this.applyBinding(binding, s.server, s.tools);
      } catch (err) {
        // e.g. a name clashing with a handoff's transfer_to_* tool: the agent keeps the rest.
        this.warn(toMcpError(err, s.server));
      }
    }
  }

  /** Stops sending updates to an agent (its tools stay). */
  unbindAgent(agent: Agent): void {
    for (const b of this.bindings) if (b.agent === agent) this.bindings.delete(b);
  }

  /** Status of every server, without connecting. */
  status(): McpServerStatus[] {
    return this.ids.map((id) => this.connections.get(id)?.status() ?? new McpConnection(id, this.servers[id]).status());
  }

  /**
   * Hot reload: restarts the server(s) (a stdio server's process is started again on next use)
   * and re-lists their tools, updating bound agents. Failures are reported through `onWarning`
   * and rethrown as one error.
   */
  async reload(id?: string): Promise<void> {
    const ids = id ? [id] : [...this.connections.keys()];
    const errors: McpError[] = [];
    await Promise.all(
      ids.map(async (server) => {
        const c = this.connection(server);
        await c.restart();
        try {
          const tools = await c.listTools({ refresh: true });
          this.syncServer(server, tools);
        } catch (err) {
          const e = toMcpError(err, server);
          this.warn(e);
          errors.push(e);
        }
      }),
    );
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new McpError(errors.map((e) => e.message).join('\n'), { kind: 'connection', server: errors[0].server, cause: errors });
  }

  /**
   * Replaces the server configs (a config reload): servers removed or changed are closed and
   * their bindings forgotten; unchanged ones keep their connection.
   */
  async configure(servers: Record<string, McpServerConfig>, baseDir: string = this.baseDir): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [id, c] of this.connections) {
      if (baseDir !== this.baseDir || JSON.stringify(servers[id]) !== JSON.stringify(this.servers[id])) {
        closing.push(c.close());
        this.connections.delete(id);
        this.toolObjects.delete(id);
        this.watchers.get(id)?.();
        this.watchers.delete(id);
      }
    }
    this.servers = { ...servers };
    this.baseDir = baseDir;
    this.bindings.clear();
    await Promise.all(closing);
  }

  /** Stops every running server (or drops its HTTP session); each starts again on its next use. */
  async restartAll(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.restart()));
  }

  /** Closes every connection (stdio servers are stopped) and stops watching. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.watchers.values()) stop();
    this.watchers.clear();
    this.bindings.clear();
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private async createAuthSession(
    server: string,
    config: McpServerConfig & { transport: 'http' | 'streamable_http' | 'sse' },
  ): Promise<McpAuthSession> {
    const { createOAuthSession } = await import('./oauth/oauth-session.js');
    return createOAuthSession(server, config, {
      store: this.options.tokenStore,
      openUrl: this.options.openUrl,
      interactive: this.options.interactiveAuth,
    });
  }

  /** Corvid tools for a server's listed tools; tool objects are reused while their definition is unchanged. */
  private toolsFor(server: string, infos: McpToolInfo[]): Tool[] {
    const previous = this.toolObjects.get(server) ?? new Map<string, Tool>();
    const next = new Map<string, Tool>();
    const out: Tool[] = [];
    for (const info of infos) {
      const key = JSON.stringify(info);
      const t = previous.get(key) ?? mcpTool(this.connection(server), info);
      next.set(key, t);
      out.push(t);
    }
    this.toolObjects.set(server, next);
    return this.dedupe(out, undefined);
  }

  /** Drops tools whose name is taken (by `taken` or an earlier tool), warning about each. */
  private dedupe(tools: Tool[], taken: Map<string, string> | undefined, agent?: string): Tool[] {
    const names = new Map(taken);
    const out: Tool[] = [];
    for (const t of tools) {
      const origin = mcpToolOrigin(t);
      const owner = names.get(t.name);
      if (owner !== undefined) {
        const server = origin?.server ?? '?';
        this.warn(
          new McpError(
            `MCP server "${server}": tool "${origin?.tool ?? t.name}" is skipped${agent ? ` for agent "${agent}"` : ''}: its name "${t.name}" is already used by ${owner}`,
            { kind: 'connection', server },
          ),
        );
        continue;
      }
      names.set(t.name, origin ? `tool "${origin.tool}" of MCP server "${origin.server}"` : `a tool of the agent`);
      out.push(t);
    }
    return out;
  }

  private applyBinding(binding: Binding, server: string, tools: Tool[]): void {
    const { agent } = binding;
    for (const name of binding.added.get(server) ?? []) agent.removeTool(name);
    const refs = binding.refs.filter((r) => r.server === server);
    const all = refs.some((r) => r.tool === undefined);
    let chosen = all ? tools : tools.filter((t) => refs.some((r) => r.tool === mcpToolOrigin(t)?.tool));
    if (!all) {
      for (const r of refs) {
        if (!chosen.some((t) => mcpToolOrigin(t)?.tool === r.tool)) {
          const names = tools.map((t) => mcpToolOrigin(t)?.tool).join(', ') || '(none)';
          this.warn(
            new McpError(`MCP server "${server}" has no tool "${r.tool}" (agent "${agent.name}"); its tools: ${names}`, {
              kind: 'connection',
              server,
            }),
          );
        }
      }
    }
    const taken = new Map(
      agent.tools.map((t) => {
        const o = mcpToolOrigin(t);
        return [t.name, o ? `tool "${o.tool}" of MCP server "${o.server}"` : 'a tool of the agent'] as [string, string];
      }),
    );
    chosen = this.dedupe(chosen, taken, agent.name);
    binding.added.set(server, []);
    if (chosen.length > 0) {
      try {
        agent.addTools(...chosen);
      } catch (err) {
        // addTools keeps the tools when the agent rejects them (a clash with a transfer_to_* tool): take them out again.
        for (const t of chosen) agent.removeTool(t.name);
        throw err;
      }
    }
    binding.added.set(
      server,
      chosen.map((t) => t.name),
    );
  }

  private syncServer(server: string, infos: McpToolInfo[]): void {
    if (this.closed) return;
    const tools = this.toolsFor(server, infos);
    for (const b of this.bindings) {
      if (!b.refs.some((r) => r.server === server)) continue;
      try {
        this.applyBinding(b, server, tools);
      } catch (err) {
        this.warn(toMcpError(err, server));
      }
    }
  }

  private startWatching(id: string, config: McpServerConfig): void {
    const targets = watchTargets(config, this.baseDir);
    if (targets.length === 0) return;
    const stop = watchPaths(targets, (path) => {
      this.options.onNotice?.({ kind: 'log', server: id, level: 'info', message: `${path} changed; restarting the server` });
      this.reload(id).catch(() => undefined); // `reload` warns of each failure itself
    });
    this.watchers.set(id, stop);
  }

  private warn(error: McpError): void {
    this.options.onWarning?.(error);
  }
}

function toMcpError(err: unknown, server: string): McpError {
  if (err instanceof McpError) return err;
  return new McpError(`MCP server "${server}": ${(err as Error)?.message ?? String(err)}`, { kind: 'connection', server, cause: err });
}
