import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openStore, SCHEMA_VERSION, type Store } from '../../src/storage/index.js';
import { CLI, cliEnv, runCli, spawnCommand, STACK_LINE, stripAnsi, tempDir, writeConfig } from './cli-harness.js';

const POSTGRES_URL = process.env.CORVID_TEST_POSTGRES_URL;
const MYSQL_URL = process.env.CORVID_TEST_MYSQL_URL;
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** A project directory with a config and a seeded SQLite store. */
async function project(
  name: string,
  yaml = 'agents:\n  triage: { model: "openai:gpt-4.1-mini" }\n',
): Promise<{ dir: string; db: string; run: (...args: string[]) => ReturnType<typeof runCli> }> {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeConfig(dir, yaml);
  const db = join(dir, '.corvid', 'corvid.db');
  return { dir, db, run: (...args) => runCli(args, { cwd: dir, env: cliEnv(tmp.dir) }) };
}

async function seed(store: Store): Promise<void> {
  await store.sessions.create({ id: 'printer', agent: 'triage', userId: 'ann' });
  await store.sessions.appendMany('printer', [
    {
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'My printer is on fire' },
          { type: 'file', mediaType: 'image/png', filename: 'fire.png', data: new Uint8Array([0, 1, 2, 255]) },
        ],
      },
    },
    {
      agent: 'triage',
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 } as never,
      message: {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Hardware problem.' },
          { type: 'tool-call', toolCallId: 't1', toolName: 'lookup_manual', input: { topic: 'fire' } },
        ],
      },
    },
    {
      agent: 'triage',
      message: {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 't1', toolName: 'lookup_manual', output: { type: 'error-text', value: 'manual not found' } },
        ],
      },
    },
    { type: 'handoff', agent: 'triage', data: { from: 'triage', to: 'hardware' } },
    { agent: 'hardware', message: { role: 'assistant', content: [{ type: 'text', text: 'Unplug it and step away.' }] } },
  ]);
  await store.sessions.setActiveAgent('printer', 'hardware');
  await store.sessions.create({ id: 'bob-1', agent: 'billing', userId: 'bob' });
  await store.sessions.append('bob-1', { message: { role: 'user', content: [{ type: 'text', text: 'Refund please' }] } });
  for (let i = 0; i < 3; i++) await store.sessions.create({ id: `empty-${i}`, agent: 'triage', userId: 'ann' });
}

describe('corvid sessions', () => {
  let p: Awaited<ReturnType<typeof project>>;
  beforeAll(async () => {
    p = await project('main');
    const store = await openStore({ path: p.db });
    await seed(store);
    await store.close();
  });

  it('lists sessions as a table with agent, active agent, user and message counts', async () => {
    const r = await p.run('sessions', 'list');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+AGENT\s+ACTIVE\s+USER\s+MESSAGES\s+UPDATED \(UTC\)$/);
    expect(lines).toHaveLength(6);
    expect(lines.find((l) => l.startsWith('printer'))).toMatch(/^printer\s+triage\s+hardware\s+ann\s+4\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(lines.find((l) => l.startsWith('bob-1'))).toMatch(/^bob-1\s+billing\s+billing\s+bob\s+1\s/);
  });

  it('filters by agent and user, pages with --limit / --cursor, and prints JSON', async () => {
    const ann = JSON.parse((await p.run('sessions', 'list', '--user', 'ann', '--json')).stdout) as {
      sessions: Array<{ id: string; messages: number }>;
    };
    expect(ann.sessions.map((s) => s.id).sort()).toEqual(['empty-0', 'empty-1', 'empty-2', 'printer']);
    const billing = JSON.parse((await p.run('sessions', 'list', '--agent', 'billing', '--json')).stdout);
    expect(billing).toMatchObject({ sessions: [{ id: 'bob-1', agent: 'billing', userId: 'bob', messages: 1 }] });
    expect(billing.nextCursor).toBeUndefined();

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = JSON.parse(
        (await p.run('sessions', 'list', '--limit', '2', '--json', ...(cursor ? ['--cursor', cursor] : []))).stdout,
      ) as { sessions: Array<{ id: string }>; nextCursor?: string };
      expect(page.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(['bob-1', 'empty-0', 'empty-1', 'empty-2', 'printer']);

    const first = await p.run('sessions', 'list', '-n', '2');
    expect(first.stderr).toMatch(/More sessions: corvid sessions list --cursor \S+ --limit 2/);
  });

  it('shows a conversation readably: user, agents, thinking, tool calls and results, handoffs', async () => {
    const r = await p.run('sessions', 'show', 'printer');
    expect(r.code).toBe(0);
    const out = stripAnsi(r.stdout);
    expect(out).toMatch(/^Session printer {2}· {2}agent: triage {2}active: hardware {2}· {2}user: ann {2}· {2}4 messages/);
    const body = out.split('\n').slice(2).join('\n');
    expect(body).toBe(
      [
        'user › My printer is on fire',
        'user › [file fire.png image/png 4 bytes]',
        'triage ›',
        '  thinking: Hardware problem.',
        '  → lookup_manual {"topic":"fire"}',
        '  (12 in · 5 out)',
        '  ✗ lookup_manual failed: manual not found',
        '· handoff (triage) {"from":"triage","to":"hardware"}',
        'hardware › Unplug it and step away.',
        '',
      ].join('\n'),
    );
  });

  it('exports a session with every entry at full fidelity (bytes included), to stdout or a file', async () => {
    const r = await p.run('sessions', 'export', 'printer');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      format: 'corvid.session',
      version: 1,
      session: { id: 'printer', agent: 'triage', activeAgent: 'hardware', userId: 'ann', lastSeq: 5 },
    });
    expect(doc.entries.map((e: { seq: number; type: string }) => `${e.seq}:${e.type}`)).toEqual([
      '1:message',
      '2:message',
      '3:message',
      '4:handoff',
      '5:message',
    ]);
    expect(doc.entries[0].message.content[1].data).toEqual({ $corvid: 'bytes', base64: Buffer.from([0, 1, 2, 255]).toString('base64') });
    expect(doc.entries[1]).toMatchObject({ agent: 'triage', usage: { inputTokens: 12, outputTokens: 5 } });
    expect(doc.entries[3].data).toEqual({ from: 'triage', to: 'hardware' });

    const f = await p.run('sessions', 'export', 'printer', '-o', 'missing/printer.json');
    expect(f.code).toBe(1);
    expect(f.stderr).toBe(
      `error: Cannot write the export to missing/printer.json: the directory ${join(p.dir, 'missing')} does not exist\n`,
    );
    const ok = await p.run('sessions', 'export', 'printer', '-o', 'printer.json');
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('Exported session "printer" to printer.json');
    expect(JSON.parse(readFileSync(join(p.dir, 'printer.json'), 'utf8')).entries).toEqual(doc.entries);
    expect((await p.run('sessions', 'show', 'printer', '--json')).stdout).toContain('"format": "corvid.session"');
  });

  it('reports an unknown session id on one line with exit 1', async () => {
    for (const sub of ['show', 'export', 'delete']) {
      const r = await p.run('sessions', sub, 'nope', '--yes');
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: Session "nope" not found (in ${p.db})\n`);
      expect(r.stdout).toBe('');
    }
  });

  it('rejects bad usage with exit 2', async () => {
    for (const [args, message] of [
      [['sessions'], 'missing subcommand'],
      [['sessions', 'lst'], 'unknown subcommand "lst"'],
      [['sessions', 'show'], 'missing session id'],
      [['sessions', 'list', '--limit', '0'], '--limit must be a whole number from 1 to 1000, not "0"'],
      [['sessions', 'list', 'extra'], 'Unexpected argument "extra"'],
    ] as const) {
      const r = await p.run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    const cursor = await p.run('sessions', 'list', '--cursor', 'garbage');
    expect(cursor.code).toBe(1);
    expect(cursor.stderr).toBe('error: Invalid sessions cursor: pass the nextCursor of a previous page\n');
  });

  it('deletes with --yes, refuses without it when stdin is not a terminal', async () => {
    const refused = await p.run('sessions', 'delete', 'empty-0');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not deleting session "empty-0" without confirmation: pass --yes');
    const done = await p.run('sessions', 'delete', 'empty-0', '--yes');
    expect(done.code).toBe(0);
    expect(done.stderr).toBe('Deleted session "empty-0".\n');
    expect((await p.run('sessions', 'show', 'empty-0')).code).toBe(1);
  });

  it('asks before deleting on a terminal', async () => {
    const cmd = `${quote(process.execPath)} ${quote(CLI)} sessions delete empty-1`;
    const env = cliEnv(tmp.dir, { TERM: 'xterm-256color' });
    const no = spawnCommand('script', ['-qfec', cmd, '/dev/null'], { cwd: p.dir, env });
    await no.waitFor(/Delete session "empty-1" \(agent triage, 0 messages\) with its state, artifacts and runs\? \[y\/N\] $/);
    no.write('n\r');
    await no.waitFor(/Not deleted\./);
    await no.exit(10_000);
    expect((await p.run('sessions', 'show', 'empty-1')).code).toBe(0);

    const yes = spawnCommand('script', ['-qfec', cmd, '/dev/null'], { cwd: p.dir, env });
    await yes.waitFor(/\[y\/N\] $/);
    yes.write('y\r');
    await yes.waitFor(/Deleted session "empty-1"\./);
    await yes.exit(10_000);
    expect((await p.run('sessions', 'show', 'empty-1')).code).toBe(1);
  });
});

describe('corvid sessions: where the data is', () => {
  it('reads the storage: section of the config, and creates no database just to list', async () => {
    const p = await project('custom', 'storage: { path: data/app.db }\nagents:\n  a: { model: "openai:gpt-4.1-mini" }\n');
    const empty = await p.run('sessions', 'list');
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe(`No sessions in ${join(p.dir, 'data', 'app.db')}\n`);
    expect(existsSync(join(p.dir, 'data'))).toBe(false);
    const store = await openStore({ path: join(p.dir, 'data', 'app.db') });
    await store.sessions.create({ id: 'in-custom', agent: 'a' });
    await store.close();
    expect((await p.run('sessions', 'list')).stdout).toMatch(/^in-custom\s+a\s+a\s+-\s+0\s/m);
  });

  it('works without a config file (SQLite at ./.corvid/corvid.db)', async () => {
    const dir = join(tmp.dir, 'bare');
    mkdirSync(dir);
    const r = await runCli(['sessions', 'show', 'x'], { cwd: dir, env: cliEnv(tmp.dir) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: Session "x" not found (in ${join(dir, '.corvid', 'corvid.db')})\n`);
    expect(existsSync(join(dir, '.corvid'))).toBe(false);
  });
});

describe('listing commands: read-only, the same for sessions, memories, runs and approvals', () => {
  const LISTINGS = [
    ['sessions', 'list'],
    ['memories', 'list'],
    ['runs', 'list'],
    ['approvals', 'list'],
  ];
  /** A config whose models need keys that are not set, and a storage section that needs nothing. */
  const NEEDS_KEYS = [
    'models:',
    '  main: { provider: openai, model: gpt-4.1-mini, api_key: "${OPENAI_API_KEY}" }',
    '  other: { provider: openai-compatible, base_url: "${VLLM_URL}", model: m }',
    'mcp_servers:',
    '  files: { command: "${MCP_COMMAND}" }',
    'storage: { path: data/app.db }',
    'agents:',
    '  helper: { model: main, tools: [files] }',
    '',
  ].join('\n');

  it('need no ${VAR} outside storage:, create no database and each say there is nothing', async () => {
    const p = await project('read-only', NEEDS_KEYS);
    const db = join(p.dir, 'data', 'app.db');
    for (const args of LISTINGS) {
      const r = await p.run(...args);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: expect.stringMatching(/^No .+ in .+\n$/) });
      expect(r.stderr).toContain(db);
      expect(r.stdout).toBe('');
      expect(existsSync(join(p.dir, 'data')), args.join(' ')).toBe(false);
    }
  });

  it('with --json: an empty list on stdout', async () => {
    const p = await project('read-only-json', NEEDS_KEYS);
    for (const args of [
      ['sessions', 'list'],
      ['runs', 'list'],
      ['approvals', 'list'],
    ]) {
      const r = await p.run(...args, '--json');
      expect(r.code, args.join(' ')).toBe(0);
      expect(JSON.stringify(JSON.parse(r.stdout))).toMatch(/^(\[\]|\{"sessions":\[\]\})$/);
    }
  });

  it('read the data once the database exists', async () => {
    const p = await project('read-only-data', NEEDS_KEYS);
    const store = await openStore({ path: join(p.dir, 'data', 'app.db') });
    await store.sessions.create({ id: 'kept', agent: 'helper' });
    await store.close();
    const r = await p.run('sessions', 'list');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kept\s+helper\s/m);
    expect((await p.run('runs', 'list')).stderr).toBe(`No runs in ${join(p.dir, 'data', 'app.db')}\n`);
  });

  it('a ${VAR} in storage: itself must still be set', async () => {
    const p = await project('read-only-storage-var', 'storage:\n  url: "postgres://app:${DB_PASSWORD}@127.0.0.1:1/app"\n');
    for (const args of LISTINGS) {
      const r = await p.run(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain('environment variable DB_PASSWORD is not set');
    }
  });
});

describe('corvid sessions: broken or unreachable databases', () => {
  const oneLine = (r: { code: number | null; stderr: string; stdout: string }) => {
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    return r.stderr;
  };

  it('a corrupted SQLite file: names the file, leaves it untouched', async () => {
    const p = await project('corrupt');
    mkdirSync(join(p.dir, '.corvid'));
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    writeFileSync(p.db, garbage);
    const err = oneLine(await p.run('sessions', 'list'));
    expect(err).toBe(
      `error: ${p.db} is not a valid SQLite database (corrupted, or another kind of file): file is not a database. It was not modified.\n`,
    );
    expect(readFileSync(p.db).equals(garbage)).toBe(true);
  });

  it('a SQLite file locked by another process: waits the busy timeout, then says so', async () => {
    const p = await project('locked');
    (await openStore({ path: p.db })).close();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(p.db)}); db.exec('BEGIN EXCLUSIVE'); console.log('locked'); process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`,
      ],
      { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
        holder.on('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
      });
      // storage.busy_timeout_ms shortens the wait.
      writeConfig(p.dir, 'storage: { busy_timeout_ms: 300 }\n');
      const err = oneLine(await p.run('sessions', 'list'));
      expect(err).toBe(
        `error: ${p.db} is locked by another process or connection (waited 300 ms). Try again, or stop whatever holds it; raise busyTimeoutMs (storage.busy_timeout_ms in corvid.yaml) to wait longer.\n`,
      );
    } finally {
      holder.stdin.end();
      await new Promise((r) => holder.on('close', r));
    }
  });

  it('a database written by a newer schema version: refused, not rewritten', async () => {
    const p = await project('newer');
    (await openStore({ path: p.db })).close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(p.db);
    db.prepare("INSERT INTO corvid_schema (version, name, applied_at) VALUES (99, 'future', 0)").run();
    db.close();
    const before = readFileSync(p.db);
    const err = oneLine(await p.run('sessions', 'list'));
    expect(err).toBe(
      `error: The database at ${p.db} has schema version 99, newer than this version of Corvid supports (${SCHEMA_VERSION}). Upgrade Corvid to use it; the database was left untouched.\n`,
    );
    expect(readFileSync(p.db).equals(before)).toBe(true);
  });

  it('an unreachable Postgres or MySQL server (closed loopback port): names the URL, password masked', async () => {
    for (const url of ['postgres://app:hunter2@127.0.0.1:1/app', 'mysql://app:hunter2@127.0.0.1:1/app']) {
      const p = await project(`unreachable-${url.slice(0, 5)}`, `storage:\n  url: "${url.replace('hunter2', '${DB_PASSWORD}')}"\n`);
      const r = await runCli(['sessions', 'list'], { cwd: p.dir, env: cliEnv(tmp.dir, { DB_PASSWORD: 'hunter2' }) });
      const err = oneLine(r);
      expect(err).toMatch(
        /^error: Cannot reach (PostgreSQL|MySQL) at (postgres|mysql):\/\/app:\*\*\*@127\.0\.0\.1:1\/app: connect ECONNREFUSED/,
      );
      expect(err).not.toContain('hunter2');
    }
  });

  it.skipIf(!POSTGRES_URL)('a Postgres role that does not exist: credentials refused', async () => {
    const u = new URL(POSTGRES_URL!);
    u.username = 'corvid_no_such_role';
    u.password = 'hunter2';
    const p = await project('pg-auth', `storage: { url: "${u.toString()}" }\n`);
    const err = oneLine(await p.run('sessions', 'list'));
    expect(err).toContain(`error: PostgreSQL at ${u.toString().replace('hunter2', '***')} refused the credentials: `);
    expect(err).toContain('corvid_no_such_role');
    expect(err).not.toContain('hunter2');
  });

  it.skipIf(!MYSQL_URL)('a MariaDB wrong password: credentials refused', async () => {
    const u = new URL(MYSQL_URL!);
    u.password = 'definitely-wrong';
    const p = await project('mysql-auth', `storage: { url: "${u.toString()}" }\n`);
    const err = oneLine(await p.run('sessions', 'list'));
    expect(err).toContain(`error: MySQL at ${u.toString().replace('definitely-wrong', '***')} refused the credentials: Access denied`);
    expect(err).not.toContain('definitely-wrong');
  });
});

if (!POSTGRES_URL) console.log('[cli] sessions: Postgres credential test skipped: CORVID_TEST_POSTGRES_URL is not set');
if (!MYSQL_URL) console.log('[cli] sessions: MariaDB credential test skipped: CORVID_TEST_MYSQL_URL is not set');
