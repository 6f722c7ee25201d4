import type { CorvidConfig } from '../../config/corvid-config.js';
import type { Runnable } from '../../core/runnable.js';
import type { BackgroundRuns } from '../../durable/background-runs.js';
import type { McpHub } from '../../mcp/mcp-hub.js';
import type { ConfigKnowledge } from '../../runtime/config-knowledge.js';
import type { Store } from '../../types/storage/store.js';

/**
 * What the server needs of a runtime: agents and config (visibility, server settings). A config
 * `Runtime` (`loadRuntime`) is one; `runtimeOf(agents)` makes one from agents built in code.
 */
export interface ServedRuntime {
  readonly config: CorvidConfig;
  readonly configPath: string | undefined;
  readonly agents: ReadonlyMap<string, Runnable>;
  readonly defaultAgent: string;
  /** The config's MCP servers, when it has any (the Studio's MCP page). */
  readonly mcp?: McpHub;
  /** The config's knowledge bases, when it has any (the Studio's knowledge page). */
  readonly knowledge?: ConfigKnowledge;
  /** The store, when the runtime has one (`/ready` checks it). */
  store?(): Promise<Store>;
  /** Background runs (`POST /api/v1/runs`), when the runtime has them (a config `Runtime` does). */
  readonly runs?: BackgroundRuns;
  reload?(): Promise<void>;
  close?(): Promise<void>;
}

/** A runtime serving agents built in code (no config file; every agent public). */
export function runtimeOf(agents: Runnable[], options: { config?: Partial<CorvidConfig> } = {}): ServedRuntime {
  if (agents.length === 0) throw new TypeError('runtimeOf: give at least one agent');
  const map = new Map(agents.map((a) => [a.name, a] as const));
  const config: CorvidConfig = { version: 1, defaults: {}, models: {}, toolModules: {}, agents: {}, ...options.config };
  return { config, configPath: undefined, agents: map, defaultAgent: agents[0].name };
}
