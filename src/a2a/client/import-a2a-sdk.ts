import { ConfigError } from '../../errors/config-error.js';

/**
 * Runs an import of `@a2a-js/sdk` (an optional peer dependency); when it is not installed, fails
 * with a ConfigError saying how to install it.
 */
export async function importA2ASdk<T>(load: () => Promise<T>, what = 'A2A'): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === 'ERR_MODULE_NOT_FOUND' && e.message?.includes('@a2a-js/sdk')) {
      throw new ConfigError(`${what} needs the optional package @a2a-js/sdk: run "npm install @a2a-js/sdk"`, { cause: err });
    }
    throw err;
  }
}
