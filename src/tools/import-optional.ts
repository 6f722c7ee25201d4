import { ConfigError } from '../errors/config-error.js';

/**
 * Runs the dynamic import of an optional peer package; when the package is not installed, fails
 * with a ConfigError naming it and the command that installs it (the tool's caller sees that
 * message instead of a module-resolution stack).
 * @example
 * const { WebClient } = await importOptional('@slack/web-api', 'The Slack tools', () => import('@slack/web-api'));
 */
export async function importOptional<T>(pkg: string, what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if ((e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') && e.message?.includes(pkg)) {
      throw new ConfigError(`${what}: the optional package ${pkg} is not installed; install it with "npm install ${pkg}"`, { cause: err });
    }
    throw err;
  }
}
