/**
 * The layer rule of src/ holds: no import from a higher layer, no cycle between folders, beyond the
 * known debts listed in scripts/layer-baseline.json (which may only shrink).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/check-layers.mjs', import.meta.url));

describe('layers', () => {
  it('src/ imports only downward (scripts/check-layers.mjs)', () => {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/0 new violation\(s\), 0 stale baseline entries/);
  });
});
