import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PathPolicy, PathRefusedError } from '../../src/tools/path-policy.js';

let base: string;
let root: string;
let docs: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'corvid-policy-')));
  root = join(base, 'project');
  docs = join(base, 'docs');
  outside = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, '.git'), { recursive: true });
  await mkdir(docs);
  await mkdir(outside);
  await writeFile(join(root, 'src', 'a.ts'), 'export {}\n');
  await writeFile(join(root, '.env'), 'SECRET=1\n');
  await writeFile(join(root, '.git', 'config'), '[core]\n');
  await writeFile(join(docs, 'guide.md'), '# Guide\n');
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
  await symlink(outside, join(root, 'out-link'));
  await symlink(join(root, 'src'), join(root, 'src-link'));
  await symlink(join(outside, 'missing'), join(root, 'dangling'));
  await link(join(outside, 'secret.txt'), join(root, 'hard.txt'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function policy(extra: Partial<ConstructorParameters<typeof PathPolicy>[0]> = {}): PathPolicy {
  return new PathPolicy({
    roots: [
      { path: root, mode: 'read-write' },
      { path: docs, mode: 'read-only' },
    ],
    deny: ['.env', '**/*.pem', '.git/**'],
    ...extra,
  });
}

async function refusal(p: Promise<unknown>): Promise<PathRefusedError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected a refusal').toBeInstanceOf(PathRefusedError);
  return err as PathRefusedError;
}

describe('PathPolicy', () => {
  it('resolves relative paths against the first root and absolute paths under any root', async () => {
    const p = policy();
    expect(await p.resolve('src/a.ts', 'read')).toBe(join(root, 'src', 'a.ts'));
    expect(await p.resolve('./src/../src/a.ts', 'write')).toBe(join(root, 'src', 'a.ts'));
    expect(await p.resolve(join(docs, 'guide.md'), 'read')).toBe(join(docs, 'guide.md'));
    expect(await p.resolve('.', 'read')).toBe(root);
  });

  it('allows new files in new folders and returns their future real path', async () => {
    const checked = await policy().check('new/dir/file.txt', 'write');
    expect(checked.path).toBe(join(root, 'new', 'dir', 'file.txt'));
    expect(checked.relative).toBe('new/dir/file.txt');
    expect(checked.stats).toBeUndefined();
  });

  it('follows links that stay inside the root', async () => {
    expect(await policy().resolve('src-link/a.ts', 'read')).toBe(join(root, 'src', 'a.ts'));
  });

  it('refuses `..` out of the root with a message naming the allowed folders', async () => {
    const err = await refusal(policy().resolve('../outside/secret.txt', 'read'));
    expect(err.reason).toBe('outside-root');
    expect(err.code).toBe('path_refused');
    expect(err.message).toContain('"../outside/secret.txt"');
    expect(err.message).toContain(root);
  });

  it('refuses absolute paths outside every root', async () => {
    expect((await refusal(policy().resolve('/etc/passwd', 'read'))).reason).toBe('outside-root');
  });

  it('refuses symbolic links leading out, also for files that do not exist yet', async () => {
    expect((await refusal(policy().resolve('out-link/secret.txt', 'read'))).reason).toBe('symlink-escape');
    expect((await refusal(policy().resolve('out-link/new/file.txt', 'write'))).reason).toBe('symlink-escape');
  });

  it('refuses writing through a dangling link', async () => {
    expect((await refusal(policy().resolve('dangling', 'write'))).reason).toBe('symlink-escape');
  });

  it('applies deny patterns at any depth, to folders and their contents, ignoring case', async () => {
    const p = policy();
    for (const path of ['.env', 'sub/.env', '.ENV', 'keys/server.pem', '.git/config', '.git']) {
      const err = await refusal(p.resolve(path, 'read'));
      expect(err.reason, path).toBe('denied');
      expect(err.message).toContain('deny pattern');
    }
  });

  it('refuses writes under a read-only root', async () => {
    const err = await refusal(policy().resolve(join(docs, 'guide.md'), 'write'));
    expect(err.reason).toBe('read-only');
    expect(await policy().resolve(join(docs, 'guide.md'), 'read')).toBe(join(docs, 'guide.md'));
  });

  it('refuses writing hard-linked files, and reading them when configured', async () => {
    expect((await refusal(policy().resolve('hard.txt', 'write'))).reason).toBe('hard-link');
    expect(await policy().resolve('hard.txt', 'read')).toBe(join(root, 'hard.txt'));
    expect((await refusal(policy({ refuseHardLinkedReads: true }).resolve('hard.txt', 'read'))).reason).toBe('hard-link');
  });

  it('refuses FIFOs and other special files', async () => {
    expect((await refusal(policy().resolve('pipe', 'read'))).reason).toBe('special-file');
  });

  it('refuses NUL bytes, control characters, look-alike separators and dots', async () => {
    const p = policy();
    for (const path of ['a\0b', 'a\nb', '\u2024\u2024/outside', 'src\u2215a.ts', '\uff0e\uff0e/x', 'a\u202eb', '~/x', 'src\\a.ts']) {
      const err = await refusal(p.resolve(path, 'read'));
      expect(['invalid', 'lookalike'], JSON.stringify(path)).toContain(err.reason);
    }
  });

  it('says clearly when a root folder does not exist', async () => {
    const p = new PathPolicy({ roots: [{ path: join(base, 'nope'), mode: 'read-write' }] });
    const err = await refusal(p.resolve('x', 'read'));
    expect(err.message).toContain('does not exist');
  });

  it('shows real paths relative to the first root', async () => {
    const p = policy();
    const real = await p.resolve('src/a.ts', 'read');
    expect(p.display(real)).toBe('src/a.ts');
    expect(p.display(await p.resolve(join(docs, 'guide.md'), 'read'))).toBe(join(docs, 'guide.md'));
  });
});
