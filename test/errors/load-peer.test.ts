/** Optional peer packages: a missing one is one clear "install X" error, whatever feature needed it. */
import { describe, expect, it } from 'vitest';

import { ConfigError, loadPeer, MissingPeerError } from '../../src/errors/index.js';

const missingB = 'corvid-missing-b';
const otherMissing = 'corvid-other-missing';

describe('loadPeer', () => {
  it('names the feature, the package and the install command when it is missing', async () => {
    const missing = 'corvid-test-package-that-is-not-installed';
    const err = await loadPeer({
      packages: missing,
      feature: 'web_fetch (HTML pages)',
      load: () => import(/* @vite-ignore */ missing),
    }).catch((e: unknown) => e);
    expect(MissingPeerError.isInstance(err)).toBe(true);
    expect(ConfigError.isInstance(err)).toBe(true);
    expect(err).toMatchObject({ code: 'peer_missing', packages: [missing], feature: 'web_fetch (HTML pages)' });
    expect((err as Error).message).toBe(
      `web_fetch (HTML pages) needs the optional package ${missing}, which is not installed: run "npm install ${missing}"`,
    );
  });

  it('lists every package of a feature that needs several', async () => {
    const err = await loadPeer({
      packages: ['corvid-missing-a', 'corvid-missing-b'],
      feature: 'Tracing',
      load: () => import(/* @vite-ignore */ missingB),
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'Tracing needs the optional packages corvid-missing-a corvid-missing-b (corvid-missing-b is missing): run "npm install corvid-missing-a corvid-missing-b"',
    );
  });

  it('passes other failures through, including a missing file inside another package', async () => {
    await expect(loadPeer({ packages: 'linkedom', feature: 'x', load: () => Promise.reject(new Error('boom')) })).rejects.toThrow('boom');
    const err = await loadPeer({ packages: 'linkedom', feature: 'x', load: () => import(/* @vite-ignore */ otherMissing) }).catch(
      (e: unknown) => e,
    );
    expect(MissingPeerError.isInstance(err)).toBe(false);
  });
});
