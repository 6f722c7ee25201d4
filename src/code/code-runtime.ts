import type { CorvidConfig } from '../config/corvid-config.js';
import { findConfigFile } from '../config/find-config-file.js';
import type { Agent } from '../core/agent.js';
import { ConfigError } from '../errors/config-error.js';
import type { McpHub } from '../mcp/mcp-hub.js';
import type { McpRuntimeOptions } from '../mcp/runtime-mcp.js';
import type { Store } from '../types/storage/store.js';

/** What a `corvid code` session needs of a runtime (`loadRuntime()`'s `Runtime` fits). */
export interface CodeRuntime {
  readonly config: CorvidConfig;
  /** A `corvid.yaml` agent by name. */
  agent(name: string): Agent;
  /** The MCP servers of `mcp_servers:` (for `/mcp`), when the config has any. */
  readonly mcp?: McpHub | undefined;
  close(): Promise<void>;
}

/** Options of `loadCodeRuntime`. */
export interface LoadCodeRuntimeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  configPath?: string;
  mcp?: McpRuntimeOptions;
  store: Store;
}

/**
 * The runtime of a session: the full one (`loadRuntime`: agents, models, MCP servers) when there
 * is a `corvid.yaml` (or `configPath`); otherwise an empty config, without loading the config
 * machinery (the common case starts faster), and the environment with the folder's `.env` under it.
 * @returns the runtime and the environment to resolve the model in.
 */
export async function loadCodeRuntime(options: LoadCodeRuntimeOptions): Promise<{ runtime: CodeRuntime; env: NodeJS.ProcessEnv }> {
  const { cwd, env } = options;
  if (options.configPath !== undefined || findConfigFile(cwd) !== undefined) {
    const { loadRuntime } = await import('../runtime/load-runtime.js');
    const runtime = await loadRuntime({
      cwd,
      env,
      configPath: options.configPath,
      mcp: options.mcp,
      store: options.store,
      applyDotEnv: true,
    });
    return { runtime, env };
  }
  const { loadDotEnv } = await import('../config/load-dot-env.js');
  const dot = await loadDotEnv({ cwd, env, apply: env === process.env });
  const config: CorvidConfig = { version: 1, defaults: {}, models: {}, toolModules: {}, agents: {} };
  const runtime: CodeRuntime = {
    config,
    agent: (name) => {
      throw new ConfigError(`Unknown agent "${name}": there is no corvid.yaml in ${cwd} (or pass -c <file>)`);
    },
    close: async () => undefined,
  };
  return { runtime, env: dot.env };
}
