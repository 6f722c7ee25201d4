import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/index.js';

describe('server.a2a config', () => {
  it('normalises push_allowed_hosts (with ${VAR}) into config.server.a2a.pushAllowedHosts', async () => {
    const text = 'agents:\n  a: {}\nserver:\n  a2a:\n    push_allowed_hosts: [hooks.internal, "${HOOK_HOST}:8443"]\n';
    const { config } = await loadConfig({ path: 'corvid.yaml', text, env: { HOOK_HOST: '10.0.0.5' }, dotenv: false });
    expect(config.server?.a2a).toEqual({ pushAllowedHosts: ['hooks.internal', '10.0.0.5:8443'] });
  });

  it('reports a wrong shape at its line', async () => {
    const text = 'agents:\n  a: {}\nserver:\n  a2a:\n    push_allowed_hosts: hooks.internal\n';
    await expect(loadConfig({ path: 'corvid.yaml', text, env: {}, dotenv: false })).rejects.toThrow(
      /corvid\.yaml:5:\d+\s+server\.a2a\.push_allowed_hosts/,
    );
  });
});
