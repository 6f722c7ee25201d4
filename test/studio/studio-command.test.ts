/** `corvid studio --open` in CI: serves the Studio, prints its URL and says why it opens no browser. */
import { afterAll, describe, expect, it } from 'vitest';

import { noBrowserReason } from '../../src/cli/commands/studio-command.js';
import { assertBuilt, cliEnv, fakeModel, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';

describe('corvid studio', () => {
  const { dir, cleanup } = tempDir('corvid-studio-cmd-');
  afterAll(cleanup);

  it('never opens a browser in CI or without a display', () => {
    expect(noBrowserReason({ CI: 'true', DISPLAY: ':0' }, 'linux')).toBe('CI is set');
    expect(noBrowserReason({ CORVID_NO_BROWSER: '1' }, 'darwin')).toBe('CORVID_NO_BROWSER is set');
    expect(noBrowserReason({}, 'linux')).toMatch(/no display/);
    expect(noBrowserReason({ DISPLAY: ':0' }, 'linux')).toBeUndefined();
    expect(noBrowserReason({}, 'darwin')).toBeUndefined();
  });

  it('--open in CI prints the Studio URL, serves it and opens nothing', async () => {
    assertBuilt();
    writeConfig(dir, `models:\n${fakeModel('http://127.0.0.1:9')}defaults:\n  model: fake\nagents:\n  helper: {}\n`);
    const child = spawnCli(['studio', '--open', '--port', '0'], { cwd: dir, env: cliEnv(dir, { CI: 'true', DISPLAY: ':0' }) });
    try {
      const out = await child.waitFor(/http:\/\/127\.0\.0\.1:\d+\/studio\/\n/, { timeoutMs: 30_000 });
      const url = /http:\/\/127\.0\.0\.1:\d+\/studio\//.exec(out)![0];
      await child.waitFor('not opening a browser (CI is set)', { stream: 'stderr', timeoutMs: 10_000 });
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="app"');
    } finally {
      child.child.kill('SIGTERM');
      await child.exit(15_000);
    }
  }, 60_000);
});
