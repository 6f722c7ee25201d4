import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT } from './support.js';

/** Every module reached from `file` through static imports / re-exports (dynamic `import()` excluded). */
function staticGraph(file: string, seen = new Set<string>(), external = new Set<string>()): { files: Set<string>; external: Set<string> } {
  if (seen.has(file)) return { files: seen, external };
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.')) {
      const target = resolve(dirname(file), spec);
      if (existsSync(target)) staticGraph(target, seen, external);
    } else external.add(spec);
  }
  return { files: seen, external };
}

describe('corvid/mcp entry point', () => {
  it('is a subpath export; the root entry has no static path to the MCP SDK', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./mcp']).toEqual({ types: './dist/mcp/index.d.ts', import: './dist/mcp/index.js' });
    expect(pkg.peerDependencies['@modelcontextprotocol/sdk']).toMatch(/^\^1\.32\./);
    expect(pkg.peerDependenciesMeta['@modelcontextprotocol/sdk']).toEqual({ optional: true });
    expect(pkg.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    const root = staticGraph(join(ROOT, 'dist', 'index.js'));
    expect([...root.external].filter((s) => s.startsWith('@modelcontextprotocol'))).toEqual([]);
    expect([...root.files].filter((f) => f.includes(`${join('dist', 'mcp')}`))).toEqual([]);
    const mcp = await import('../../src/mcp/index.js');
    for (const name of [
      'McpHub',
      'McpConnection',
      'createMcpServer',
      'serveMcpHttp',
      'createOAuthSession',
      'MemoryTokenStore',
      'SecretTokenStore',
      'mcpToolName',
    ]) {
      expect(typeof (mcp as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('the config entry reaches the SDK only through dynamic imports', () => {
    const config = staticGraph(join(ROOT, 'dist', 'config', 'index.js'));
    expect([...config.external].filter((s) => s.startsWith('@modelcontextprotocol'))).toEqual([]);
  });
});
