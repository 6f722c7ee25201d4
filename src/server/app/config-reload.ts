import type { Logger } from 'pino';

import type { ServedRuntime } from './served-runtime.js';
import { watchConfig } from './watch-config.js';

/**
 * Reloads `runtime`'s config (as a watched change would): resolves false, still serving the
 * previous config, when the new one is rejected. A changed `server:` section is logged: its
 * settings take effect at the next start.
 */
export function configReloader(runtime: ServedRuntime, logger: Logger): () => Promise<boolean> {
  return async () => {
    if (!runtime.reload) return true;
    try {
      const before = JSON.stringify(runtime.config.server ?? {});
      await runtime.reload();
      logger.info({ agents: [...runtime.agents.keys()] }, 'config reloaded');
      if (JSON.stringify(runtime.config.server ?? {}) !== before) {
        logger.warn(
          'the server: section changed: its settings (port, auth, limits, telemetry) take effect when the server restarts; agents, tools and visibility were reloaded',
        );
      }
      return true;
    } catch (err) {
      logger.error(
        { error: (err as Error).message },
        `config change rejected, still serving the previous config: ${(err as Error).message}`,
      );
      return false;
    }
  };
}

/** Reloads on changes of the config file (or `.env`); returns the function that stops watching. */
export function watchAndReload(options: { configPath: string; cwd: string; reload: () => Promise<boolean>; logger: Logger }): () => void {
  return watchConfig({
    configPath: options.configPath,
    cwd: options.cwd,
    onChange: (path) => {
      options.logger.info({ path }, 'config changed, reloading');
      void options.reload().catch((err: unknown) => options.logger.error({ error: String(err) }, 'config reload failed'));
    },
  });
}
