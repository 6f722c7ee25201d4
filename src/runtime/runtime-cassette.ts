import { resolve } from 'node:path';

import type { CassetteConfig, CorvidConfig } from '../config/corvid-config.js';
import type { ModelCassette } from '../types/model.js';

/** A cassette asked for by the caller (`corvid run --cassette f --replay`); wins over the config's and the environment's. */
export interface CassetteOverride {
  path?: string;
  mode?: CassetteConfig['mode'];
}

/**
 * The runtime's cassette, shared by the models of all its agents: the path from the override,
 * else `CORVID_CASSETTE`, else `cassette.path` of the config; the mode from the override, else
 * `CORVID_CASSETTE_MODE`, else the config's, else `auto`. `undefined` without a path (the cassette
 * module is then never loaded).
 */
export async function runtimeCassette(
  config: CorvidConfig,
  override: CassetteOverride | undefined,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<ModelCassette | undefined> {
  const path = override?.path ?? (env.CORVID_CASSETTE || undefined) ?? config.cassette?.path;
  if (path === undefined) return undefined;
  const { openCassette, cassetteModeFromEnv } = await import('../models/cassette/cassette.js');
  const mode = override?.mode ?? cassetteModeFromEnv(env) ?? config.cassette?.mode;
  return openCassette({ path: resolve(cwd, path), mode, liveTools: config.cassette?.liveTools, env });
}
