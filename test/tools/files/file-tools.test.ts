import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findRipgrep } from '../../../src/tools/files/grep-rg.js';
import { fileTools } from '../../../src/tools/files/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';

let root: string;
const ctx = { signal: new AbortController().signal } as ToolContext;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'corvid-files-'));
  await mkdir(join(root, 'src', 'lib'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\nexport function hello() {\n  return "hello";\n}\n');
  await writeFile(join(root, 'src', 'lib', 'b.ts'), 'import { a } from "../a";\n// TODO: hello world\nexport const b = a + 1;\n');
  await writeFile(join(root, 'README.md'), '# Demo\n\nSay hello.\n');
  await writeFile(join(root, '.gitignore'), 'dist/\n*.log\n');
  await mkdir(join(root, 'dist'));
  await writeFile(join(root, 'dist', 'a.js'), 'hello from dist\n');
  await writeFile(join(root, 'debug.log'), 'hello log\n');
  await writeFile(join(root, '.env'), 'SECRET=hello\n');
  await writeFile(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function tools(extra: Record<string, unknown> = {}): Map<string, Tool> {
  return new Map(fileTools({ root, deny: ['.env'], ...extra }).map((t) => [t.name, t]));
}

async function call(name: string, args: unknown, extra: Record<string, unknown> = {}): Promise<any> {
  return tools(extra).get(name)!.execute(args, ctx);
}

async function fails(name: string, args: unknown, extra: Record<string, unknown> = {}): Promise<string> {
  const err = await call(name, args, extra).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err, `${name} should fail`).toBeInstanceOf(Error);
  return (err as Error).message;
}

describe('read_file', () => {
  it('returns numbered lines, a range, and the line count', async () => {
    const all = await call('read_file', { path: 'src/a.ts' });
    expect(all).toMatchObject({ path: 'src/a.ts', lines: '1-4', totalLines: 4 });
    expect(all.content.split('\n')[1]).toBe('2\texport function hello() {');
    const part = await call('read_file', { path: 'src/a.ts', offset: 2, limit: 2 });
    expect(part.content).toBe('2\texport function hello() {\n3\t  return "hello";');
  });

  it('cuts long reads with a note saying how to read on', async () => {
    const big = Array.from({ length: 1000 }, (_, i) => `line ${i + 1} ${'x'.repeat(50)}`).join('\n');
    await writeFile(join(root, 'big.txt'), big);
    const out = await call('read_file', { path: 'big.txt' }, { maxReadBytes: 2000 });
    expect(out.truncated).toMatch(/^truncated: showed lines 1-\d+ of 1000 .*offset \d+/);
    const next = Number(/offset (\d+)/.exec(out.truncated)![1]);
    const more = await call('read_file', { path: 'big.txt', offset: next, limit: 1 }, { maxReadBytes: 2000 });
    expect(more.content).toBe(`${next}\tline ${next} ${'x'.repeat(50)}`);
  });

  it('refuses binary files and folders with a clear message', async () => {
    expect(await fails('read_file', { path: 'image.png' })).toMatch(/binary file/);
    expect(await fails('read_file', { path: 'src' })).toMatch(/is a folder/);
    expect(await fails('read_file', { path: 'missing.txt' })).toMatch(/does not exist/);
  });
});

describe('write_file', () => {
  it('creates parent folders and reports what it did', async () => {
    const out = await call('write_file', { path: 'new/deep/file.txt', content: 'one\ntwo\n' });
    expect(out).toEqual({ path: 'new/deep/file.txt', action: 'created', bytes: 8 });
    expect(await readFile(join(root, 'new', 'deep', 'file.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('overwrites atomically, keeps the mode, leaves no temp file and returns a diff', async () => {
    await writeFile(join(root, 'run.sh'), '#!/bin/sh\necho one\n');
    await chmod(join(root, 'run.sh'), 0o755);
    const out = await call('write_file', { path: 'run.sh', content: '#!/bin/sh\necho two\n' });
    expect(out.action).toBe('overwritten');
    expect(out.diff).toContain('-echo one\n+echo two');
    expect((await stat(join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await readdir(root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('edit_file and multi_edit', () => {
  it('replaces a unique match and returns a unified diff', async () => {
    await writeFile(join(root, 'edit.ts'), 'const x = 1;\nconst y = 2;\nconst z = 3;\n');
    const out = await call('edit_file', { path: 'edit.ts', old_string: 'const y = 2;', new_string: 'const y = 20;' });
    expect(out.replacements).toBe(1);
    expect(out.diff).toBe('--- a/edit.ts\n+++ b/edit.ts\n@@ -1,3 +1,3 @@\n const x = 1;\n-const y = 2;\n+const y = 20;\n const z = 3;');
    expect(await readFile(join(root, 'edit.ts'), 'utf8')).toBe('const x = 1;\nconst y = 20;\nconst z = 3;\n');
  });

  it('refuses several matches unless replace_all, naming the lines', async () => {
    await writeFile(join(root, 'dup.ts'), 'foo();\nbar();\nfoo();\n');
    expect(await fails('edit_file', { path: 'dup.ts', old_string: 'foo();', new_string: 'baz();' })).toMatch(
      /occurs 2 times .*lines 1, 3.*replace_all/,
    );
    const out = await call('edit_file', { path: 'dup.ts', old_string: 'foo();', new_string: 'baz();', replace_all: true });
    expect(out.replacements).toBe(2);
    expect(await readFile(join(root, 'dup.ts'), 'utf8')).toBe('baz();\nbar();\nbaz();\n');
  });

  it('shows the nearest candidates when nothing matches', async () => {
    await writeFile(join(root, 'near.ts'), 'function greet(name) {\n    return `hi ${name}`;\n}\n');
    const ws = await fails('edit_file', { path: 'near.ts', old_string: 'function greet(name) {\n  return `hi ${name}`;', new_string: 'x' });
    expect(ws).toMatch(/not found.*\n.*whitespace is ignored/);
    expect(ws).toContain('2\t    return `hi ${name}`;');
    const similar = await fails('edit_file', { path: 'near.ts', old_string: 'function greets(names) {', new_string: 'x' });
    expect(similar).toMatch(/Nearest candidates:\nlines 1-1 \(\d+% similar\):\n {2}1\tfunction greet\(name\) \{/);
    expect(await readFile(join(root, 'near.ts'), 'utf8')).toContain('function greet(name)');
  });

  it('applies several edits all-or-nothing', async () => {
    await writeFile(join(root, 'multi.ts'), 'a = 1\nb = 2\nc = 3\n');
    const bad = await fails('multi_edit', {
      path: 'multi.ts',
      edits: [
        { old_string: 'a = 1', new_string: 'a = 10' },
        { old_string: 'nope', new_string: 'x' },
      ],
    });
    expect(bad).toMatch(/^edit 2 of 2: old_string was not found/);
    expect(await readFile(join(root, 'multi.ts'), 'utf8')).toBe('a = 1\nb = 2\nc = 3\n');
    const ok = await call('multi_edit', {
      path: 'multi.ts',
      edits: [
        { old_string: 'a = 1', new_string: 'a = 10' },
        { old_string: 'a = 10\nb', new_string: 'a = 10\nbb' },
      ],
    });
    expect(ok.replacements).toBe(2);
    expect(await readFile(join(root, 'multi.ts'), 'utf8')).toBe('a = 10\nbb = 2\nc = 3\n');
  });

  it('previews the diff for the approver without writing', async () => {
    await writeFile(join(root, 'prev.ts'), 'old line\n');
    const preview = await tools().get('edit_file')!.preview!({ path: 'prev.ts', old_string: 'old', new_string: 'new' });
    expect(preview).toContain('-old line\n+new line');
    expect(await readFile(join(root, 'prev.ts'), 'utf8')).toBe('old line\n');
    const create = await tools().get('write_file')!.preview!({ path: 'brand-new.txt', content: 'hi\n' });
    expect(create).toContain('+++ b/brand-new.txt\n+hi');
  });
});

describe('list_dir and glob', () => {
  it('lists a folder (denied entries left out)', async () => {
    const out = await call('list_dir', { path: '.' });
    expect(out.entries).toContain('src/');
    expect(out.entries).toContain('README.md');
    expect(out.entries).not.toContain('.env');
  });

  it('finds files by glob, respecting .gitignore', async () => {
    const out = await call('glob', { pattern: '**/*.ts' });
    expect(out.files).toEqual(expect.arrayContaining(['src/a.ts', 'src/lib/b.ts']));
    const js = await call('glob', { pattern: '**/*.{js,log}' });
    expect(js.files).toEqual([]);
    const nogit = await call('glob', { pattern: '**/*.{js,log}' }, { gitignore: false });
    expect(nogit.files).toEqual(['debug.log', 'dist/a.js']);
  });

  it('leaves the write tools out when every root is read-only', () => {
    expect([...tools({ readOnly: true }).keys()]).toEqual(['read_file', 'list_dir', 'glob', 'grep', 'search_files']);
  });
});

describe('grep', () => {
  const engines = ['js', 'auto'] as const;
  it('has ripgrep on this machine, so both searches are exercised', async () => {
    expect(await findRipgrep(), 'install ripgrep (apt-get install -y ripgrep) to test the rg path').toBeDefined();
  });

  for (const engine of engines) {
    it(`finds lines with context, skipping ignored, binary and denied files (${engine})`, async () => {
      const out = await call('grep', { pattern: 'hel+o', context: 1 }, { ripgrep: engine });
      expect(out.engine).toBe(engine === 'js' ? 'js' : 'ripgrep');
      expect(out.output).toBe(
        [
          'README.md-2-',
          'README.md:3:Say hello.',
          '--',
          'src/a.ts-1-export const a = 1;',
          'src/a.ts:2:export function hello() {',
          'src/a.ts:3:  return "hello";',
          'src/a.ts-4-}',
          '--',
          'src/lib/b.ts-1-import { a } from "../a";',
          'src/lib/b.ts:2:// TODO: hello world',
          'src/lib/b.ts-3-export const b = a + 1;',
        ].join('\n'),
      );
      expect(out).toMatchObject({ matches: 4, files: 3 });
    });

    it(`filters by glob, searches a sub-folder, caps results (${engine})`, async () => {
      const byGlob = await call('grep', { pattern: 'export', glob: '*.ts', path: 'src' }, { ripgrep: engine });
      expect(byGlob.output).toBe(
        'src/a.ts:1:export const a = 1;\nsrc/a.ts:2:export function hello() {\n--\nsrc/lib/b.ts:3:export const b = a + 1;',
      );
      const capped = await call('search_files', { pattern: 'export', max_results: 2 }, { ripgrep: engine });
      expect(capped.matches).toBe(2);
      expect(capped.truncated).toMatch(/stopped at 2/);
      const none = await call('grep', { pattern: 'zzz_nothing' }, { ripgrep: engine });
      expect(none).toMatchObject({ matches: 0, output: '(no matches)' });
    });
  }

  it('says so when the regular expression is invalid', async () => {
    expect(await fails('grep', { pattern: '(unclosed' })).toMatch(/invalid regular expression/);
  });
});
