import { dirname } from 'node:path';

import { ConfigError } from '../errors/config-error.js';
import type { ConfigKnowledge } from '../runtime/config-knowledge.js';
import type { CliContext } from './cli-context.js';
import { UsageError } from './cli-context.js';

/** The knowledge bases of the config, for `corvid ingest`, `search` and `knowledge`. */
export interface CliKnowledge {
  knowledge: ConfigKnowledge;
  /** Names of the config's knowledge bases, in file order. */
  names: string[];
  /** The bases a command works on: `name` (checked), else all of them. */
  pick(name: string | undefined, command: string): string[];
}

/**
 * Loads the config's `knowledge:`, `embedders:` and `storage:` sections (other sections' `${VAR}`s
 * need not be set; no agents are built) and builds its knowledge bases. Nothing is opened yet.
 * @throws ConfigError when the config has no `knowledge:` section.
 */
export async function openCliKnowledge(context: CliContext): Promise<CliKnowledge> {
  const [{ loadConfig, displayConfigPath }, { configKnowledge }] = await Promise.all([
    import('../config/load-config.js'),
    import('../runtime/config-knowledge.js'),
  ]);
  const loaded = await loadConfig({
    path: context.globals.config,
    cwd: context.cwd,
    env: context.env,
    sections: ['storage', 'knowledge', 'embedders', 'models', 'defaults'],
  });
  const names = Object.keys(loaded.config.knowledge ?? {});
  if (names.length === 0) {
    const file = loaded.path ? displayConfigPath(context.cwd, loaded.path) : 'no corvid.yaml found';
    throw new ConfigError(
      `No knowledge bases are configured (${file}). Add one, e.g.\nknowledge:\n  docs:\n    sources:\n      - { type: directory, path: ./docs, include: ["**/*.md"] }`,
    );
  }
  const knowledge = await configKnowledge({
    config: loaded.config,
    baseDir: loaded.path ? dirname(loaded.path) : context.cwd,
    cwd: context.cwd,
    env: loaded.env,
  });
  return {
    knowledge,
    names,
    pick(name, command) {
      if (name === undefined) return names;
      if (!names.includes(name)) throw new UsageError(`unknown knowledge base "${name}"; configured: ${names.join(', ')}`, command);
      return [name];
    },
  };
}
