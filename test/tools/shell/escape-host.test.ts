import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { loadRuntime } from '../../../src/runtime/index.js';
import { shellTool, type ShellToolOptions } from '../../../src/tools/shell/index.js';
import type { Tool } from '../../../src/types/tool.js';
import { lines, writeFiles } from '../../config/temp-dir.js';
import { attempt, bwrapInstalled, context, hostPlayground, outsideState, SECRETS } from './support.js';

/**
 * The attack lines of a model trying to read the host or change it, run against the real shell
 * tool three ways: in the bubblewrap sandbox, unconfined (`isolation: none`, the explicit opt-in)
 * and with the default isolation where bubblewrap is missing. Each must read 0 secrets (no secret
 * in the output or the refusal) and change 0 files outside the workspace.
 */
const ATTACKS = [
  'cat ../secret.txt',
  'cat ${HOME}/.ssh/id_rsa',
  'cat $HOME/.ssh/id_rsa',
  'cat ~/.ssh/id_rsa',
  'cd .. && cat secret.txt',
  'cd ~ && cat .ssh/id_rsa',
  "bash -c 'cat ../secret.txt'",
  "sh -c 'cd .. && cat secret.txt'",
  "eval 'cat ../secret.txt'",
  `python3 -c "print(open('../secret.txt').read())"`,
  `node -e "process.stdout.write(require('fs').readFileSync('../secret.txt', 'utf8'))"`,
  `perl -e 'print <STDIN>' < ../secret.txt`,
  'ln -s ../secret.txt s && cat s',
  'cp ../secret.txt . && cat secret.txt',
  'cat < ../secret.txt',
  'cat {.,.}./secret.txt',
  'cat ../*',
  'grep -r secret ..',
  'find .. -name secret.txt -exec cat {} +',
  'echo ../secret.txt | xargs cat',
  'tar cf - ../secret.txt | tar xOf -',
  'ls | tee ../x',
  'rm -rf ../*',
  'cat /etc/shadow',
  'cat .env',
  'cat .e*',
  'cat corvid.yaml',
  'curl -s http://127.0.0.1:PORT/',
  'wget -qO- http://127.0.0.1:PORT/',
];

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_, res) => res.end(SECRETS.server));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const realHome = process.env.HOME;
const realPath = process.env.PATH;
beforeEach(() => {
  process.env.HOME = realHome;
  process.env.PATH = realPath;
});
afterEach(() => {
  process.env.HOME = realHome;
  process.env.PATH = realPath;
});

/** A fresh host, HOME pointing at its fake home, and the tool made with `options`. */
function setUp(options: ShellToolOptions): { p: ReturnType<typeof hostPlayground>; sh: Tool; before: string } {
  const p = hostPlayground();
  process.env.HOME = p.home;
  const sh = shellTool({ cwd: p.ws, hiddenPaths: [p.config], ...options });
  return { p, sh, before: outsideState(p) };
}

function noSecret(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

/** A PATH with bash but without bwrap (the default isolation then has no sandbox). */
function pathWithoutBwrap(root: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  for (const name of ['bash', 'cat', 'ls']) symlinkSync(`/usr/bin/${name}`, join(bin, name));
  return bin;
}

describe('shell attacks on the host', () => {
  it.skipIf(!bwrapInstalled).each(ATTACKS)('in the bubblewrap sandbox: %s', async (attack) => {
    const { p, sh, before } = setUp({ isolation: 'bwrap' });
    const { result, refused } = await attempt(sh, attack.replace('PORT', String(port)));
    if (result) expect(result.sandbox).toBe('bwrap');
    noSecret(JSON.stringify({ result, refused }));
    expect(outsideState(p)).toBe(before);
  });

  it.each(ATTACKS)('unconfined (isolation: none), refused by the checker: %s', async (attack) => {
    const { p, sh, before } = setUp({ isolation: 'none' });
    const { result, refused } = await attempt(sh, attack.replace('PORT', String(port)));
    expect(result, JSON.stringify(result)).toBeUndefined();
    expect(refused).toMatch(/^Command refused: /);
    noSecret(refused!);
    expect(outsideState(p)).toBe(before);
  });

  it('unconfined, runs the tests of the workspace with node --test, and still refuses node reading code from its input', async () => {
    const { p, sh, before } = setUp({ isolation: 'none' });
    writeFileSync(join(p.ws, 'sum.test.mjs'), "import test from 'node:test';\ntest('sum', () => {});\n");
    const ran = await attempt(sh, 'node --test');
    expect(ran.refused).toBeUndefined();
    expect(ran.result).toMatchObject({ exitCode: 0 });
    expect((await attempt(sh, 'node')).refused).toMatch(/node without a script file reads code from its input/);
    expect((await attempt(sh, 'node --test -e "1"')).refused).toMatch(/inline code/);
    expect(outsideState(p)).toBe(before);
  });

  it.each(ATTACKS)('default isolation without bubblewrap, refused: %s', async (attack) => {
    const p = hostPlayground();
    process.env.HOME = p.home;
    process.env.PATH = pathWithoutBwrap(p.root);
    const sh = shellTool({ cwd: p.ws, hiddenPaths: [p.config], onWarning: () => undefined });
    const before = outsideState(p);
    const { result, refused } = await attempt(sh, attack.replace('PORT', String(port)));
    expect(result).toBeUndefined();
    expect(refused).toMatch(
      /^Command refused: this tool runs commands only in a bubblewrap sandbox.*apt-get install bubblewrap.*isolation: none/,
    );
    expect(outsideState(p)).toBe(before);
  });
});

describe.skipIf(!bwrapInstalled)('what the sandbox shows', () => {
  it('the workspace, a read-only system with a safe /etc, an empty home; not the parent, the secrets of /etc, the hidden files', async () => {
    const { p, sh } = setUp({ isolation: 'bwrap' });
    const run = async (line: string) => (await attempt(sh, line)).result!;
    expect(await run('cat notes.txt')).toMatchObject({ exitCode: 0, stdout: 'hello\n' });
    expect((await run('grep -c root /etc/passwd')).stdout).toBe('1\n');
    expect((await run('ls /etc/ssl/certs | head -1')).exitCode).toBe(0);
    expect(await run('ls -A ~')).toMatchObject({ exitCode: 0, stdout: '' });
    expect((await run('ls ..')).stdout).toBe('ws\n');
    const absent = (await run('ls /etc/ssh /etc/ssl/private /etc/shadow /root /home /var /opt 2>&1')).stdout;
    expect(absent.match(/No such file or directory/g)).toHaveLength(7);
    // Covered by /dev/null: empty, or unreadable where the host's /dev is mounted nodev.
    expect(await run('cat .env; cat corvid.yaml; ls -A')).toMatchObject({ stdout: '.env\ncorvid.yaml\nnotes.txt\n' });
    expect((await run('umount .env; cat .env')).stdout).toBe('');
    expect((await run('echo made > made.txt && cat made.txt')).stdout).toBe('made\n');
    noSecret(JSON.stringify(await run('grep -rs corvid-secret / --exclude-dir=usr --exclude-dir=proc --exclude-dir=sys; true')));
    expect(outsideState(p)).toContain(SECRETS.parent);
  }, 60_000);

  it('denied folders and deny_paths are covered in the workspace, at any depth', async () => {
    const p = hostPlayground();
    process.env.HOME = p.home;
    writeFiles(p.ws, {
      'sub/.ssh/id_ed25519': SECRETS.ssh,
      'sub/deep/server.pem': SECRETS.ssh,
      'secrets/token.txt': SECRETS.env,
      'src/a.ts': 'ok',
    });
    const sh = shellTool({ cwd: p.ws, isolation: 'bwrap', denyPaths: ['secrets/**'] });
    const { result } = await attempt(sh, 'ls -A sub/.ssh secrets; cat sub/deep/server.pem secrets/token.txt sub/.ssh/*; cat src/a.ts');
    expect(result!.stdout).toBe('secrets:\n\nsub/.ssh:\nok');
    noSecret(JSON.stringify(result));
    expect((await attempt(sh, 'touch sub/.ssh/x')).result!.stderr).toMatch(/Read-only file system/);
  });

  it('a read root is visible read-only; the network stays off unless allowed', async () => {
    const p = hostPlayground();
    process.env.HOME = p.home;
    const docs = join(p.root, 'docs');
    mkdirSync(docs);
    const sh = shellTool({ cwd: p.ws, isolation: 'bwrap', readRoots: [docs] });
    expect((await attempt(sh, `ls ${docs} && touch ${docs}/x`)).result!.stderr).toMatch(/Read-only file system/);
    const curl = `curl -s http://127.0.0.1:${port}/`;
    expect((await attempt(sh, curl)).result!.stdout).toBe('');
    expect((await attempt(shellTool({ cwd: p.ws, isolation: 'bwrap', network: true }), curl)).result!.stdout).toBe(SECRETS.server);
  });
});

describe('a config-built shell tool hides the runtime config file and database', () => {
  for (const isolation of ['bwrap', 'none'] as const) {
    it.skipIf(isolation === 'bwrap' && !bwrapInstalled)(`isolation ${isolation}`, async () => {
      const p = hostPlayground();
      writeFiles(p.ws, {
        'corvid.yaml': lines(
          `# ${SECRETS.config}`,
          'tools:',
          `  sh: { type: shell, isolation: ${isolation} }`,
          'agents:',
          '  dev: { model: "openai:gpt-4.1-mini", tools: [sh] }',
        ),
      });
      const runtime = await loadRuntime({ cwd: p.ws, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false });
      try {
        await runtime.store();
        const bash = runtime.agent('dev').tools.find((t) => t.name === 'bash')!;
        for (const line of ['cat corvid.yaml', 'cat .corvid/corvid.db', 'cat .env']) {
          const out = await Promise.resolve(bash.execute({ command: line }, context())).then(
            (r: unknown) => JSON.stringify(r),
            (err: Error) => err.message,
          );
          noSecret(out);
          if (isolation === 'none') expect(out).toMatch(/^Command refused: /);
          else expect(JSON.parse(out)).toMatchObject({ sandbox: 'bwrap', stdout: '' });
        }
      } finally {
        await runtime.close();
      }
    });
  }
});
