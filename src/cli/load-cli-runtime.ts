import type { McpRuntimeOptions } from '../mcp/runtime-mcp.js';
import type { Runtime } from '../runtime/load-runtime.js';
import type { CassetteOverride } from '../runtime/runtime-cassette.js';
import { type CliContext, UsageError } from './cli-context.js';
import { cliMcpOptions } from './mcp-cli-options.js';

/**
 * Loads the runtime for a command: the `-c` file, else the config found in the working directory.
 * MCP warnings go to stderr unless other MCP options are given.
 */
export async function loadCliRuntime(context: CliContext, mcp: McpRuntimeOptions = cliMcpOptions(context)): Promise<Runtime> {
  const { loadRuntime } = await import('../runtime/load-runtime.js');
  return loadRuntime({ configPath: context.globals.config, cwd: context.cwd, env: context.env, mcp, cassette: cassetteFlags(context) });
}

/** `--cassette <file>` with `--record` or `--replay` (commands without these flags: none). */
function cassetteFlags(context: CliContext): CassetteOverride | undefined {
  const { values } = context;
  if (values.record === true && values.replay === true) throw new UsageError('Give --record or --replay, not both');
  const path = typeof values.cassette === 'string' && values.cassette !== '' ? values.cassette : undefined;
  const mode = values.record === true ? 'record' : values.replay === true ? 'replay' : undefined;
  if (path === undefined && mode === undefined) return undefined;
  return mode === undefined ? { path } : { path, mode };
}
