import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hide = join(root, 'test/server/fixtures/hide-server-packages.mjs');
const dir = mkdtempSync(join(tmpdir(), 'corvid-missing-peers-'));
beforeAll(() => writeFileSync(join(dir, 'corvid.yaml'), 'agents:\n  helper: { model: "openai:gpt-4o-mini" }\n'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('corvid serve without the optional server packages', () => {
  it('says which packages to install, in one line, and exits 1', () => {
    const r = spawnSync(process.execPath, ['--import', hide, join(root, 'dist/cli/main.js'), 'serve', '--port', '0'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, OPENAI_API_KEY: 'test', NO_COLOR: '1' },
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      'error: corvid serve needs the optional packages hono @hono/node-server @hono/node-ws pino prom-client (hono is missing): run "npm install hono @hono/node-server @hono/node-ws pino prom-client"',
    );
  });

  it('leaves the rest of the CLI working (corvid validate)', () => {
    const r = spawnSync(process.execPath, ['--import', hide, join(root, 'dist/cli/main.js'), 'validate'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(0);
  });
});
