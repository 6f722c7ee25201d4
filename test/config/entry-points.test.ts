import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

describe('entry points', () => {
  it('keeps config and runtime code out of the root entry', () => {
    const index = readFileSync(join(root, 'src', 'index.ts'), 'utf8');
    expect(index).not.toMatch(/from '\.\/(config|runtime)\//);
    expect(index).not.toMatch(/'yaml'/);
  });

  it('exposes corvid/config', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./config']).toEqual({ types: './dist/runtime/index.d.ts', import: './dist/runtime/index.js' });
    const api = await import('../../src/runtime/index.js');
    for (const name of ['loadConfig', 'validateConfig', 'validateConfigText', 'configJsonSchema', 'findConfigFile', 'loadRuntime', 'printConfig', 'redactConfig', 'ConfigError']) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('exposes corvid/tools with the file tools and the path policy', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./tools']).toEqual({ types: './dist/tools/index.d.ts', import: './dist/tools/index.js' });
    const api = await import('../../src/tools/index.js');
    expect(api.fileTools({ root: import.meta.dirname }).map((t) => t.name)).toEqual([
      'read_file', 'write_file', 'edit_file', 'multi_edit', 'list_dir', 'glob', 'grep', 'search_files',
    ]);
    expect(typeof api.PathPolicy).toBe('function');
  });

  it('exposes corvid/knowledge without loading the optional document parsers', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['./knowledge']).toEqual({ types: './dist/knowledge/index.d.ts', import: './dist/knowledge/index.js' });
    const api = await import('../../src/knowledge/index.js');
    for (const name of ['createKnowledgeBase', 'directorySource', 'modelEmbedder', 'MemoryKnowledgeStore', 'chunkDocument', 'loadFile', 'KnowledgeError']) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
    const sources = ['knowledge/loaders/load-file.ts', 'knowledge/loaders/pdf-text.ts', 'tools/web/html-to-markdown.ts'].map((f) => readFileSync(join(root, 'src', f), 'utf8'));
    for (const text of sources) expect(text).not.toMatch(/^import .* from '(unpdf|linkedom|turndown|@mozilla\/readability)'/m);
  });
});
