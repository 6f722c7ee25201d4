import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/storage/index.js';
import { startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, fakeModel, runCli, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

function project(name: string) {
  const dir = join(tmp.dir, name);
  mkdirSync(dir);
  writeConfig(
    dir,
    'agents:\n  helper: { model: "openai:gpt-4.1-mini", tools: [save_memory, get_memories] }\n  other: { model: "openai:gpt-4.1-mini" }\n',
  );
  return { dir, run: (args: string[], input?: string) => runCli(args, { cwd: dir, env: cliEnv(tmp.dir), input }) };
}

const MEMORIES = {
  units: {
    value: 'Prefers metric units',
    tags: ['format'],
    importance: 8,
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-02-03T04:05:06.000Z',
  },
  pet: { value: 'Has a cat named Miso', category: 'fact' },
};

describe('corvid memories', () => {
  it('imports, lists, searches, exports and deletes the memories of one user of one agent', async () => {
    const p = project('roundtrip');
    writeFileSync(join(p.dir, 'm.json'), JSON.stringify(MEMORIES));
    const imported = await p.run(['memories', 'import', 'm.json', '--user', 'ann']);
    expect(imported.stderr).toBe('Imported 2 memories for user "ann", agent "helper".\n');
    expect(imported.code).toBe(0);

    const list = await p.run(['memories', 'list', '--user', 'ann']);
    expect(list.stdout).toMatch(
      /^pet {2}fact · importance 5 · .*\n {2}Has a cat named Miso\nunits {2}#format · importance 8 · 2026-02-03 04:05\n {2}Prefers metric units\n$/,
    );
    const facts = JSON.parse((await p.run(['memories', 'list', '--user', 'ann', '--category', 'fact', '--json'])).stdout);
    expect(facts).toMatchObject([{ key: 'pet', value: 'Has a cat named Miso', category: 'fact' }]);

    const search = JSON.parse((await p.run(['memories', 'search', 'metric', '--user', 'ann', '--json'])).stdout);
    expect(search).toMatchObject([{ key: 'units' }]);
    expect((await p.run(['memories', 'list'])).stderr).toContain('No memories for user "default", agent "helper"');
    expect((await p.run(['memories', 'list', '--agent', 'other', '--user', 'ann'])).stderr).toContain(
      'No memories for user "ann", agent "other"',
    );

    const exported = JSON.parse((await p.run(['memories', 'export', '--user', 'ann'])).stdout);
    expect(exported.units).toEqual({
      value: 'Prefers metric units',
      tags: ['format'],
      importance: 8,
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-02-03T04:05:06.000Z',
    });
    expect(Object.keys(exported).sort()).toEqual(['pet', 'units']);

    // The export imports into another user unchanged.
    const copy = await p.run(['memories', 'import', '-', '--user', 'bob'], JSON.stringify(exported));
    expect(copy.code).toBe(0);
    expect(JSON.parse((await p.run(['memories', 'export', '--user', 'bob'])).stdout)).toEqual(exported);

    expect((await p.run(['memories', 'delete', 'pet', '--user', 'ann'])).stderr).toBe(
      'Deleted memory "pet" of user "ann", agent "helper".\n',
    );
    const again = await p.run(['memories', 'delete', 'pet', '--user', 'ann']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`error: Memory "pet" not found for user "ann", agent "helper" (in ${join(p.dir, '.corvid', 'corvid.db')})\n`);

    const replaced = await p.run(
      ['memories', 'import', '-', '--user', 'bob', '--replace'],
      JSON.stringify({ only: { value: 'just this' } }),
    );
    expect(replaced.stderr).toContain('(replacing the others)');
    expect(Object.keys(JSON.parse((await p.run(['memories', 'export', '--user', 'bob'])).stdout))).toEqual(['only']);
  });

  it('checks an import completely before writing anything', async () => {
    const p = project('bad-import');
    const store = await openStore({ path: join(p.dir, '.corvid', 'corvid.db') });
    await store.memories.save({ userId: 'default', agent: 'helper' }, { key: 'keep', value: 'kept' });
    await store.close();
    const bad = await p.run(
      ['memories', 'import', '-', '--replace'],
      JSON.stringify({ ok: { value: 'fine' }, broken: { value: 'x', importance: 42 } }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: Memory "broken": importance must be an integer from 1 to 10 (got 42)\n');
    const notJson = await p.run(['memories', 'import', '-'], '{nope');
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^error: stdin is not valid JSON: /);
    const missing = await p.run(['memories', 'import', 'missing.json']);
    expect(missing.stderr).toBe('error: Cannot read missing.json: no such file\n');
    expect(JSON.parse((await p.run(['memories', 'export'])).stdout)).toMatchObject({ keep: { value: 'kept' } });
  });

  it('rejects bad usage with exit 2', async () => {
    const p = project('usage');
    for (const [args, message] of [
      [['memories'], 'missing subcommand'],
      [['memories', 'forget'], 'unknown subcommand "forget"'],
      [['memories', 'search'], 'missing <query>'],
      [['memories', 'list', 'x'], 'Unexpected argument "x"'],
      [['memories', 'list', '--limit', '-1'], '--limit'],
    ] as const) {
      const r = await p.run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('memory tools through corvid run', () => {
  it('an agent saves a memory in one process and recalls it in the next; corvid memories shows it', async () => {
    const server = await startFakeLlmServer([
      {
        toolCalls: [{ name: 'save_memory', arguments: { key: 'diet', value: 'The user is vegetarian', category: 'food', importance: 9 } }],
      },
      { text: 'Noted: vegetarian.' },
      { toolCalls: [{ name: 'search_memories', arguments: { query: 'vegetarian food' } }] },
      { text: 'You are vegetarian.' },
    ]);
    try {
      const dir = join(tmp.dir, 'run');
      mkdirSync(dir);
      writeConfig(
        dir,
        `models:\n${fakeModel(server.url)}storage: { path: state/app.db }\nagents:\n  chef:\n    model: fake\n    tools: [save_memory, search_memories]\n`,
      );
      const run = (q: string) => runCli(['run', '-q', q], { cwd: dir, env: cliEnv(tmp.dir) });
      const first = await run('I am vegetarian');
      expect(first.stderr).toBe('');
      expect(first.stdout).toBe('Noted: vegetarian.\n');
      const second = await run('What do I eat?');
      expect(second.stdout).toBe('You are vegetarian.\n');
      // The model was shown the memory found in the second process.
      const shown = JSON.stringify(server.requests.at(-1)!.body);
      expect(shown).toContain('The user is vegetarian');
      const list = await runCli(['memories', 'list', '--json'], { cwd: dir, env: cliEnv(tmp.dir) });
      expect(JSON.parse(list.stdout)).toMatchObject([{ key: 'diet', value: 'The user is vegetarian', category: 'food', importance: 9 }]);
    } finally {
      await server.close();
    }
  });
});

describe('a plain corvid run', () => {
  it('never opens or creates the store', async () => {
    const server = await startFakeLlmServer([{ text: 'Hi.' }]);
    try {
      const dir = join(tmp.dir, 'plain');
      mkdirSync(dir);
      writeConfig(dir, `models:\n${fakeModel(server.url)}agents:\n  a: { model: fake }\n`);
      const r = await runCli(['run', '-q', 'hello'], { cwd: dir, env: cliEnv(tmp.dir) });
      expect(r.stdout).toBe('Hi.\n');
      expect(existsSync(join(dir, '.corvid'))).toBe(false);
      expect(readdirSync(dir)).toEqual(['corvid.yaml']);
    } finally {
      await server.close();
    }
  });
});
