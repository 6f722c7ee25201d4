import type { McpRuntimeOptions } from '../mcp/runtime-mcp.js';
import type { Runtime } from '../runtime/load-runtime.js';
import type { CliContext } from './cli-context.js';
import { cliMcpOptions } from './mcp-cli-options.js';

/**
 * Loads the runtime for a command: the `-c` file, else the config found in the working directory.
 * MCP warnings go to stderr unless other MCP options are given.
 */
export async function loadCliRuntime(context: CliContext, mcp: McpRuntimeOptions = cliMcpOptions(context)): Promise<Runtime> {
  const { loadRuntime } = await import('../runtime/load-runtime.js');
  return loadRuntime({ configPath: context.globals.config, cwd: context.cwd, env: context.env, mcp });
}
