/**
 * "p — always this prefix" never approves arbitrary code: the prefixes offered (pure), and end to end in a real
 * `corvid code` process, a `node --test` allowed with `p` does not let `node -e …` run unasked.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { commandPrefix, prefixCovers } from '../../src/code/command-prefix.js';
import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';

describe('the command prefix an approval offers', () => {
  it.each([
    ['npm test -- -u', 'npm test'],
    ['npm run build', 'npm run build'],
    ['git status --short', 'git status'],
    ['node --test', 'node --test'],
    ['node --test test/a.test.js', 'node --test'],
    ['node test.js --verbose', 'node test.js'],
    ['python -m pytest -x', 'python -m pytest'],
    ['python3 scripts/check.py', 'python3 scripts/check.py'],
    ['npx vitest run', 'npx vitest'],
    ['uv run pytest', 'uv run pytest'],
    ['bash scripts/ci.sh', 'bash scripts/ci.sh'],
    ['ls -la src', 'ls'],
    ['make', 'make'],
  ])('%s → %s', (line, prefix) => {
    expect(commandPrefix(line)).toBe(prefix);
  });

  it.each([
    'node',
    'node -e "console.log(1)"',
    'node --eval=1',
    'node -p 1+1',
    'python -c "print(1)"',
    'python3',
    'perl -pe s/a/b/ x',
    'bash -c "rm -rf /"',
    'sh',
    'npx',
    'npx -y cowsay',
    'env',
    'env node test.js',
    'sudo npm test',
    'xargs rm',
    'deno eval "1"',
    'uv run python -c 1',
    'FOO=1 npm test',
    'npm test && rm -rf .',
    'npm test || true',
    'npm test; ls',
    'npm test | tee log',
    'echo `id`',
    'echo $(id)',
    'git -c core.pager=sh status',
    "awk '{print}' x",
  ])('offers none for %s', (line) => {
    expect(commandPrefix(line)).toBeUndefined();
  });

  it('a prefix covers its own later lines, never inline code, compound lines or launchers', () => {
    expect(prefixCovers('node --test', 'node --test test/a.test.js')).toBe(true);
    expect(prefixCovers('npm test', 'npm test -- --grep add')).toBe(true);
    expect(prefixCovers('node --test', 'node --test -e "1"')).toBe(false);
    expect(prefixCovers('node --test', `node --test '-e' 1`)).toBe(false);
    expect(prefixCovers('node --test', 'node --test --import=data:text/javascript,1')).toBe(false);
    expect(prefixCovers('node --test', 'node --test *')).toBe(false);
    expect(prefixCovers('npm test', 'npm test && curl x')).toBe(false);
    expect(prefixCovers('npm test', 'npm test; curl x')).toBe(false);
    expect(prefixCovers('npm test', 'npm test --node-options=--require=./x.js')).toBe(false);
    expect(prefixCovers('npm test', 'npm testing')).toBe(false);
    expect(prefixCovers('node', 'node -e 1')).toBe(false);
  });
});

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

describe('corvid code: p on `node --test` (real process, plain mode)', { timeout: 60_000 }, () => {
  beforeAll(() => assertBuilt());
  afterEach(async () => {
    await server?.close();
    project?.cleanup();
    server = undefined;
    project = undefined;
  });

  it('allows later `node --test` lines, and still asks before `node -e …`', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ id: 't1', name: 'bash', arguments: { command: 'node --test' } }] },
      { toolCalls: [{ id: 't2', name: 'bash', arguments: { command: 'node --test test.js' } }] },
      { toolCalls: [{ id: 'x1', name: 'bash', arguments: { command: `node -e "require('fs').writeFileSync('PWNED','x')"` } }] },
      { text: 'Done.' },
    ]);
    project = makeProject(server.url);
    // One answer: `p` for the first approval; the input then ends, so a later approval is denied (nobody answers).
    const r = await runCli(['code'], { cwd: project.dir, env: project.env, input: 'run the tests\np\n', timeoutMs: 45_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[p] always "node --test"');
    // The second `node --test` ran without asking; `node -e` was asked (and denied), not run.
    expect(r.stdout.match(/\? bash needs approval/g)).toHaveLength(2);
    expect(r.stdout).toMatch(/\? bash needs approval:\n\s+\$ node -e/);
    expect(existsSync(join(project.dir, 'PWNED'))).toBe(false);
    // No prefix is offered for inline code.
    expect(r.stdout).not.toContain('[p] always "node"');
    expect(JSON.stringify(server.requests[3].body.messages)).toContain('Nobody answered the approval request.');
  });
});
