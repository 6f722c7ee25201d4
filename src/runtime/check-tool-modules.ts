import { dirname } from 'node:path';

import type { CorvidConfig } from '../config/corvid-config.js';
import { displayConfigPath } from '../config/load-config.js';
import { locateConfigIssues } from '../config/locate-config-issues.js';
import { formatConfigPath } from '../config/parse-config-source.js';
import { ConfigError, type ConfigIssue } from '../errors/config-error.js';
import { loadToolModules, resolveToolRef, usedToolEntryIds } from './load-tool-modules.js';

/** Options for `checkToolModules`. */
export interface CheckToolModulesOptions {
  /** The validated config. */
  config: CorvidConfig;
  /** Absolute path of its file (module paths are relative to its directory; issues get line and column). */
  path?: string;
  /** Working directory (for module paths without a config file, and how the file is named). */
  cwd: string;
  /** Environment used for interpolation (to locate issues in the file). */
  env: Record<string, string | undefined>;
}

/**
 * What `loadRuntime` checks beyond `validateConfig` about tools: imports the config's tool
 * modules (`tools:`), sets up the built-in tool families its agents use (`type: files`, …) and checks every `module` and `module.tool` reference of the agents against
 * what the modules export. MCP servers are not started; their tools are not checked.
 * @returns the problems, with file, line and column when the config came from a file.
 */
export async function checkToolModules(options: CheckToolModulesOptions): Promise<ConfigIssue[]> {
  const { config, path, cwd } = options;
  const file = path ? displayConfigPath(cwd, path) : undefined;
  const loaded = await loadToolModules(config.toolModules, path ? dirname(path) : cwd, { kinds: usedToolEntryIds(config) });
  const issues: ConfigIssue[] = [...loaded.issues];
  const mcp = config.mcpServers ?? {};
  for (const [name, agent] of Object.entries(config.agents)) {
    (agent.tools ?? []).forEach((ref, i) => {
      const dot = ref.indexOf('.');
      const moduleId = dot > 0 ? ref.slice(0, dot) : ref;
      // Plain tool names are checked by validation; MCP servers' tools are known only once they run.
      if (!Object.prototype.hasOwnProperty.call(config.toolModules, moduleId) || Object.prototype.hasOwnProperty.call(mcp, moduleId))
        return;
      if (!loaded.modules.has(moduleId)) return; // its import failed: reported above
      const r = resolveToolRef(ref, new Map(), loaded.modules);
      if ('error' in r) issues.push({ path: formatConfigPath(['agents', name, 'tools', i]), message: r.error });
    });
  }
  if (issues.length === 0) return [];
  const withFile = issues.map((i) => (file ? { ...i, file } : i));
  if (!path) return withFile;
  const located = locateConfigIssues(new ConfigError('tool problems', { issues: withFile }), path, options.env);
  return located instanceof ConfigError ? located.issues : withFile;
}
