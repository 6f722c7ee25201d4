import type { Agent } from '../core/agent.js';
import type { Runnable } from '../core/runnable.js';
import { McpHub, type McpHubOptions, type McpToolRef } from './mcp-hub.js';
import type { McpServerConfig } from './mcp-server-config.js';

/** MCP options of `loadRuntime`: everything of `McpHubOptions` except the servers, which come from the config. */
export type McpRuntimeOptions = Omit<McpHubOptions, 'servers' | 'baseDir'>;

/**
 * The part of a loaded config that MCP wiring reads: the servers of `mcp_servers:` and each
 * agent's tool references (a config, `CorvidConfig`, is one).
 */
export interface McpAgentsConfig {
  mcpServers?: Record<string, McpServerConfig>;
  agents: Record<string, { tools?: string[] }>;
}

/** The agents' tool references that name MCP servers (`server` or `server.tool`), by agent. */
export function mcpRefsByAgent(config: McpAgentsConfig): Map<string, McpToolRef[]> {
  const servers = config.mcpServers ?? {};
  const out = new Map<string, McpToolRef[]>();
  for (const [name, a] of Object.entries(config.agents)) {
    const refs: McpToolRef[] = [];
    for (const ref of a.tools ?? []) {
      const dot = ref.indexOf('.');
      const id = dot > 0 ? ref.slice(0, dot) : ref;
      if (!Object.prototype.hasOwnProperty.call(servers, id)) continue;
      refs.push(dot > 0 ? { server: id, tool: ref.slice(dot + 1) } : { server: id });
    }
    if (refs.length > 0) out.set(name, refs);
  }
  return out;
}

/** The config without MCP tool references, for `buildAgents` (MCP tools are added after the agents are built). */
export function withoutMcpRefs<C extends McpAgentsConfig>(config: C): C {
  const servers = config.mcpServers ?? {};
  const isMcp = (ref: string): boolean => {
    const dot = ref.indexOf('.');
    return Object.prototype.hasOwnProperty.call(servers, dot > 0 ? ref.slice(0, dot) : ref);
  };
  return {
    ...config,
    agents: Object.fromEntries(
      Object.entries(config.agents).map(([k, a]) => [k, a.tools ? { ...a, tools: a.tools.filter((r) => !isMcp(r)) } : a]),
    ),
  };
}

/**
 * Connects the config's MCP servers to its agents: creates the hub (or, on a reload, updates the
 * existing one: changed servers are closed, the others restarted so they run their current
 * code), lists the tools of the servers the agents use, in parallel, and adds them. A server that
 * fails is reported through `onWarning`; its agents keep their other tools. Without agents in the
 * config, the default agent gets every server.
 */
export async function attachMcp(input: {
  hub: McpHub | undefined;
  config: McpAgentsConfig;
  agents: ReadonlyMap<string, Runnable>;
  baseDir: string;
  options?: McpRuntimeOptions;
}): Promise<McpHub | undefined> {
  const servers = input.config.mcpServers ?? {};
  if (Object.keys(servers).length === 0 && !input.hub) return undefined;
  let hub = input.hub;
  if (hub) {
    await hub.configure(servers, input.baseDir);
    await hub.restartAll();
  } else hub = new McpHub({ ...input.options, servers, baseDir: input.baseDir });
  const refs = mcpRefsByAgent(input.config);
  if (Object.keys(input.config.agents).length === 0 && input.agents.size === 1) {
    const [name] = input.agents.keys();
    refs.set(
      name,
      Object.keys(servers).map((server) => ({ server })),
    );
  }
  await Promise.all(
    [...refs].map(async ([name, list]) => {
      const agent = input.agents.get(name) as (Runnable & Partial<Pick<Agent, 'addTools'>>) | undefined;
      if (agent?.kind === 'llm' && typeof agent.addTools === 'function') await hub!.bindAgent(agent as Agent, list);
    }),
  );
  return hub;
}
