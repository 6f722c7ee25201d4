import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { maskUrl } from '../../src/storage/index.js';
import { maskSecrets } from '../../src/storage/shared/location.js';
import { expectCode } from './conformance/expect-error.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Files reached from `entry` through static imports (dynamic `import()` is lazy and not followed). */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'/gm)) {
      const spec = m[1];
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

describe('entry points', () => {
  it('the root entry loads no storage code and no database package', () => {
    const { files, packages } = staticGraph(join(ROOT, 'src', 'index.ts'));
    expect([...files].filter((f) => f.includes(`${join('src', 'storage')}`))).toEqual([]);
    for (const p of ['better-sqlite3', 'pg', 'mysql2', 'mysql2/promise']) expect(packages.has(p)).toBe(false);
  });

  it('corvid/storage loads contracts and openStore only; drivers load when opened', () => {
    const { files, packages } = staticGraph(join(ROOT, 'src', 'storage', 'index.ts'));
    expect([...files].filter((f) => /[/\\](sqlite|postgres|mysql|memory)[/\\]/.test(f))).toEqual([]);
    expect([...packages].filter((p) => !p.startsWith('node:'))).toEqual([]);
  });

  it('package.json exports corvid/storage, with pg and mysql2 as optional peers', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./storage']).toEqual({ types: './dist/storage/index.d.ts', import: './dist/storage/index.js' });
    expect(pkg.peerDependenciesMeta).toMatchObject({ pg: { optional: true }, mysql2: { optional: true } });
    expect(pkg.devDependencies).toHaveProperty('pg');
    expect(pkg.devDependencies).toHaveProperty('mysql2');
    expect(pkg.dependencies['better-sqlite3']).toMatch(/^\^12\./);
  });
});

describe('secrets in messages', () => {
  it('masks passwords in URLs', () => {
    expect(maskUrl('postgres://app:s3cr%21t@db:5432/app')).toBe('postgres://app:***@db:5432/app');
    expect(maskUrl('mysql://root@127.0.0.1:3306/test')).toBe('mysql://root@127.0.0.1:3306/test');
    expect(maskUrl('postgres://u@h/db?password=x&sslmode=require')).toBe('postgres://u@h/db?password=***&sslmode=require');
    expect(maskUrl('not a url://u:pw@h')).toBe('not a url://u:***@h');
    expect(maskSecrets('connect to postgres://u:pw@h:1/db failed')).toBe('connect to postgres://u:***@h:1/db failed');
  });
});

describe('missing driver packages', () => {
  afterEach(() => {
    vi.doUnmock('pg');
    vi.doUnmock('mysql2/promise');
    vi.resetModules();
  });

  it('names the package to install when pg is missing', async () => {
    vi.resetModules();
    vi.doMock('pg', () => {
      throw new Error("Cannot find package 'pg'");
    });
    const { openStore } = await import('../../src/storage/index.js');
    await expectCode(openStore({ url: 'postgres://u:pw@127.0.0.1:1/db' }), 'peer_missing', 'npm install pg');
  });

  it('names the package to install when mysql2 is missing', async () => {
    vi.resetModules();
    vi.doMock('mysql2/promise', () => {
      throw new Error("Cannot find package 'mysql2'");
    });
    const { openStore } = await import('../../src/storage/index.js');
    await expectCode(openStore({ url: 'mysql://u:pw@127.0.0.1:1/db' }), 'peer_missing', 'npm install mysql2');
  });
});
