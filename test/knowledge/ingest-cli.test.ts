/**
 * `corvid ingest` as a user runs it: killed mid-way (SIGKILL of the real child, embeddings slowed
 * down by the fake server) and run again, `--watch` following edits until Ctrl-C, and the live
 * progress line on a pseudo-terminal (`script`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI, cliEnv, spawnCli, spawnCommand, stripAnsi } from '../cli/cli-harness.js';
import { type FakeEmbeddingsServer, startFakeEmbeddingsServer } from './support/fake-embeddings-server.js';

const dirs: string[] = [];
let server: FakeEmbeddingsServer | undefined;
beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await server?.close();
  server = undefined;
});

/** A project with `files` markdown documents of two chunks each. */
function project(files: number, embedderUrl?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-kb-ingest-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'docs'));
  for (let i = 0; i < files; i++) {
    writeFileSync(
      join(dir, 'docs', `d${String(i).padStart(3, '0')}.md`),
      `# Topic ${i}\n\nNotes about subject${i} and deploys.\n\n## More\n\nDetails ${i}.\n`,
    );
  }
  const embedder = embedderUrl
    ? `embedders:\n  e: { provider: openai, model: fake-embed, base_url: ${embedderUrl}, api_key: test, dimensions: 64, batch_size: 64 }\n`
    : '';
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `${embedder}knowledge:\n  docs:\n    sources: [{ type: directory, path: ./docs }]\n${embedderUrl ? '    embedder: e\n' : ''}`,
  );
  return dir;
}

const args = (dir: string, ...rest: string[]): string[] => [...rest, '-c', join(dir, 'corvid.yaml'), '--no-color'];

function indexState(dir: string): { documents: number; chunks: number; withoutVector: number; orphans: number } {
  const db = new Database(join(dir, '.corvid', 'corvid.db'), { readonly: true });
  try {
    const n = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
    return {
      documents: n('SELECT COUNT(*) AS n FROM knowledge_documents'),
      chunks: n('SELECT COUNT(*) AS n FROM knowledge_chunks'),
      withoutVector: n('SELECT COUNT(*) AS n FROM knowledge_chunks WHERE vector IS NULL'),
      orphans: n(
        'SELECT COUNT(*) AS n FROM knowledge_chunks c WHERE NOT EXISTS (SELECT 1 FROM knowledge_documents d WHERE d.uri = c.document_uri)',
      ),
    };
  } finally {
    db.close();
  }
}

describe('corvid ingest', () => {
  it('killed mid-way leaves whole documents only; the next run resumes and completes', async () => {
    server = await startFakeEmbeddingsServer();
    server.latencyMs = 400;
    const dir = project(400, server.baseURL);
    const child = spawnCli(args(dir, 'ingest'), { cwd: dir, env: cliEnv(dir) });
    await child.waitFor(/docs: added d\d+\.md/, { timeoutMs: 30_000 });
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    const cut = indexState(dir);
    expect(cut.documents).toBeGreaterThan(0);
    expect(cut.documents).toBeLessThan(400);
    expect(cut).toMatchObject({ chunks: cut.documents * 2, withoutVector: 0, orphans: 0 });

    server.latencyMs = 0;
    const again = spawnCli(args(dir, 'ingest'), { cwd: dir, env: cliEnv(dir) });
    expect(await again.exit(60_000)).toBe(0);
    expect(again.stdout).toContain(`${400 - cut.documents} added, 0 updated, ${cut.documents} unchanged, 0 deleted, 0 failed`);
    expect(indexState(dir)).toEqual({ documents: 400, chunks: 800, withoutVector: 0, orphans: 0 });
    // Asynchronously: the fake embeddings server answers from this process.
    const search = await promisify(execFile)(process.execPath, [CLI, ...args(dir, 'search', 'subject7', '--json')], {
      cwd: dir,
      env: cliEnv(dir),
    });
    expect((JSON.parse(search.stdout) as Array<{ uri: string }>)[0]!.uri).toBe('d007.md');
  }, 120_000);

  it('Ctrl-C stops an ingest between documents with exit 130 and a hint to run it again', async () => {
    server = await startFakeEmbeddingsServer();
    server.latencyMs = 400;
    const dir = project(400, server.baseURL);
    const child = spawnCli(args(dir, 'ingest'), { cwd: dir, env: cliEnv(dir) });
    await child.waitFor(/docs: added d\d+\.md/, { timeoutMs: 30_000 });
    child.child.kill('SIGINT');
    expect(await child.exit(30_000)).toBe(130);
    expect(child.stderr).toContain('docs: interrupted; what was written is complete, run corvid ingest again to finish');
    const state = indexState(dir);
    expect(state).toMatchObject({ chunks: state.documents * 2, withoutVector: 0, orphans: 0 });
  }, 120_000);

  it('--watch re-ingests edited, added and deleted files until Ctrl-C', async () => {
    const dir = project(3);
    const child = spawnCli(args(dir, 'ingest', '--watch'), { cwd: dir, env: cliEnv(dir) });
    await child.waitFor('Watching 1 folder for changes (Ctrl-C to stop)', { stream: 'stderr', timeoutMs: 30_000 });
    let since = child.mark();
    writeFileSync(join(dir, 'docs', 'd001.md'), '# Topic 1\n\nRewritten about kestrels.\n');
    await child.waitFor(/docs: updated d001\.md[\s\S]*0 added, 1 updated, 2 unchanged/, { since, timeoutMs: 30_000 });
    since = child.mark();
    writeFileSync(join(dir, 'docs', 'new.md'), '# New\n\nA new page about owls.\n');
    unlinkSync(join(dir, 'docs', 'd002.md'));
    await child.waitFor(/1 added, 0 updated, 2 unchanged, 1 deleted/, { since, timeoutMs: 30_000 });
    child.child.kill('SIGINT');
    expect(await child.exit(30_000)).toBe(0);
    expect(child.stderr).toContain('Stopped watching');
    expect(indexState(dir)).toMatchObject({ documents: 3 });
  }, 120_000);

  it('draws one live progress line on a terminal and plain lines otherwise', async () => {
    const dir = project(50);
    const tty = spawnCommand('script', ['-qfec', [process.execPath, CLI, ...args(dir, 'ingest')].join(' '), '/dev/null'], {
      cwd: dir,
      env: { ...cliEnv(dir), COLUMNS: '120' },
    });
    expect(await tty.exit(60_000)).toBe(0);
    expect(tty.stdout).toMatch(/\r[^\n]*docs: \[#*\.*\] \d+\/50 files · \d+ chunks · 0 embedded · \d+ tokens · /);
    expect(tty.stdout).toContain('\x1b[K');
    expect(stripAnsi(tty.stdout)).toContain('50 added, 0 updated');
    const plain = spawnCli(args(dir, 'ingest'), { cwd: dir, env: cliEnv(dir) });
    expect(await plain.exit(60_000)).toBe(0);
    expect(plain.stderr).not.toContain('files/s');
    expect(plain.stdout).toContain('0 added, 0 updated, 50 unchanged');
  }, 120_000);
});

describe('corvid ingest from another directory', () => {
  it('reads the sources and keeps the index where the config says, both relative to the config file', async () => {
    const dir = project(3);
    writeFileSync(
      join(dir, 'corvid.yaml'),
      'knowledge:\n  docs:\n    sources: [{ type: directory, path: ./docs }]\nstorage:\n  driver: sqlite\n  path: ./.corvid/kb.db\n',
    );
    const elsewhere = mkdtempSync(join(tmpdir(), 'corvid-kb-cwd-'));
    dirs.push(elsewhere);
    const run = (...rest: string[]) =>
      promisify(execFile)(process.execPath, [CLI, ...args(dir, ...rest)], { cwd: elsewhere, env: cliEnv(elsewhere) });
    const ingest = await run('ingest');
    expect(ingest.stdout).toContain('3 added');
    expect(existsSync(join(dir, '.corvid', 'kb.db'))).toBe(true);
    expect(existsSync(join(elsewhere, '.corvid'))).toBe(false);
    const search = await run('search', 'subject2', '--json');
    expect((JSON.parse(search.stdout) as Array<{ uri: string }>)[0]!.uri).toBe('d002.md');
  });
});
