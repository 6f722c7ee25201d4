/**
 * What npm users get besides the code: the license, the ESM-only note, and declarations that
 * type-check without the optional peer packages (each reference to one is marked so that a
 * missing package makes its types `any` instead of an error; scripts/check-package.mjs proves it
 * on a packed, installed copy).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { assertBuilt, ROOT } from '../cli/cli-harness.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string;
  files: string[];
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('the published package', () => {
  it('ships an MIT LICENSE for "Corvid contributors"', () => {
    expect(pkg.license).toBe('MIT');
    expect(pkg.files).toContain('LICENSE');
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) Corvid contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });

  it('the README says it is ESM-only and shows how to load it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('**ESM-only**');
    expect(readme).toContain('"type": "module"');
    expect(readme).toMatch(/\.mjs/);
  });

  it('every reference to an optional peer in dist/**/*.d.ts is marked @ts-ignore', () => {
    assertBuilt();
    const optional = Object.keys(pkg.peerDependenciesMeta).filter((p) => pkg.peerDependenciesMeta[p].optional);
    const mention = new RegExp(
      `(?:from\\s+|import\\()['"](?:${optional.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?:/[^'"]*)?['"]`,
    );
    const unguarded: string[] = [];
    let guarded = 0;
    for (const rel of readdirSync(join(ROOT, 'dist'), { recursive: true }) as string[]) {
      if (!rel.endsWith('.d.ts')) continue;
      const lines = readFileSync(join(ROOT, 'dist', rel), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!mention.test(line)) return;
        if (lines[i - 1]?.trim().startsWith('// @ts-ignore optional peer dependency')) guarded++;
        else unguarded.push(`dist/${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(unguarded).toEqual([]);
    expect(guarded).toBeGreaterThan(10);
  });
});
