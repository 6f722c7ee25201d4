import type { Runtime } from '../config/index.js';
import type { CliContext } from './cli-context.js';

/** Loads the runtime for a command: the `-c` file, else the config found in the working directory. */
export async function loadCliRuntime(context: CliContext): Promise<Runtime> {
  const { loadRuntime } = await import('../config/index.js');
  return loadRuntime({ configPath: context.globals.config, cwd: context.cwd, env: context.env });
}
