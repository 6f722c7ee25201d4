import { existsSync } from 'node:fs';
import { dirname } from 'node:path';

import type { Store, StoreOptions } from '../types/storage/store.js';
import type { CliContext } from './cli-context.js';
import { UsageError } from './cli-context.js';

/** The store a data command works on, from the config's `storage:` section. */
export interface CliStore {
  /** `undefined` when the SQLite file does not exist yet: there is nothing to read (and nothing is created). */
  store: Store | undefined;
  /** Where the data is (file, or URL with the password masked). */
  location: string;
  /**
   * Removes a deleted session's message vectors (present when `storage.embedder` is set; needs no
   * embedder, so the `embedders:` section need not resolve).
   */
  dropConversationVectors?: (sessionId: string) => Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store of the config (the `-c` file, else the one found in the working directory;
 * SQLite at ./.corvid/corvid.db without either). Only the config's `storage:` section is read
 * (other sections' `${VAR}`s need not be set): no agents are built, no MCP servers started. With
 * `create: false` (reading commands) a missing SQLite file is not created. With `vectorSearch`,
 * a `storage.embedder` makes memory and conversation search hybrid (the `embedders:` section is
 * read too). With `conversationVectors`, `dropConversationVectors` is set when `storage.embedder`
 * is (the `embedders:` section is read when it resolves; else the vectors wait for the next vector search).
 */
export async function openCliStore(
  context: CliContext,
  options: { create: boolean; vectorSearch?: boolean; conversationVectors?: boolean },
): Promise<CliStore> {
  const [{ loadConfig }, { storeOptionsFromConfig }, { openStore, maskUrl }] = await Promise.all([
    import('../config/load-config.js'),
    import('../runtime/store-options.js'),
    import('../storage/index.js'),
  ]);
  // Only `storage:` matters here: an unset API key elsewhere is no reason to refuse a listing.
  const load = (sections: string[]) => loadConfig({ path: context.globals.config, cwd: context.cwd, env: context.env, sections });
  const { config, path: configPath } = options.vectorSearch
    ? await load(['storage', 'embedders'])
    : options.conversationVectors
      ? await load(['storage', 'embedders']).catch(() => load(['storage']))
      : await load(['storage']);
  const configDir = configPath ? dirname(configPath) : undefined;
  const storeOptions: StoreOptions = storeOptionsFromConfig(config.storage, context.cwd, configDir);
  const location = storeOptions.path ?? (storeOptions.url ? maskUrl(storeOptions.url) : (storeOptions.driver ?? 'sqlite'));
  if (!options.create && storeOptions.driver === 'sqlite' && storeOptions.path !== ':memory:' && !existsSync(storeOptions.path!)) {
    return { store: undefined, location, close: async () => undefined };
  }
  let store = await openStore(storeOptions);
  if (options.vectorSearch && config.storage?.embedder) {
    const { withConfigVectorSearch } = await import('../runtime/config-vector-search.js');
    const plain = store;
    store = await withConfigVectorSearch(plain, { config, cwd: context.cwd, configDir }).catch(async (err: unknown) => {
      await plain.close();
      throw err;
    });
  }
  const dropConversationVectors = config.storage?.embedder
    ? async (sessionId: string): Promise<void> => {
        const [k, { openKnowledgeStore }] = await Promise.all([import('../knowledge/index.js'), import('../runtime/config-knowledge.js')]);
        const knowledge = await openKnowledgeStore(k, storeOptions, storeOptions.path ?? '');
        try {
          await k.deleteConversationVectors(knowledge, sessionId);
        } finally {
          await knowledge.close();
        }
      }
    : undefined;
  return { store, location: store.info.location, dropConversationVectors, close: () => store.close() };
}

/** Parses a positive integer flag (`--limit 20`), else a usage error naming the flag. */
export function intFlag(
  value: string | boolean | undefined,
  flag: string,
  command: string,
  range: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < range.min || n > range.max) {
    throw new UsageError(`--${flag} must be a whole number from ${range.min} to ${range.max}, not "${String(value)}"`, command);
  }
  return n;
}

/** A flag's string value (`undefined` when absent). */
export function stringFlag(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `2026-11-26 03:04` (UTC). */
export function formatTime(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')}`;
}
