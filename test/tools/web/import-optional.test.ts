/** The heavy packages of the web and Slack tools are optional: a missing one is a clear "install X" error. */
import { describe, expect, it } from 'vitest';

import { ConfigError } from '../../../src/errors/config-error.js';
import { importOptional } from '../../../src/tools/import-optional.js';

describe('importOptional', () => {
  it('names the package and the install command when it is missing', async () => {
    const missing = 'corvid-test-package-that-is-not-installed';
    const err = await importOptional(missing, 'web_fetch (HTML pages)', () => import(/* @vite-ignore */ missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      `web_fetch (HTML pages): the optional package ${missing} is not installed; install it with "npm install ${missing}"`,
    );
  });

  it('passes other failures through', async () => {
    await expect(importOptional('linkedom', 'x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
