import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent } from '../../../src/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { shellTool } from '../../../src/tools/shell/index.js';
import { attempt, bwrapInstalled, canaryIntact, playground, processesGone } from './support.js';

/**
 * An attacker's attempts. The tool is set up the weak way (a deny list only, unconfined) unless
 * a case says otherwise: every attempt must be refused with a message, or run without effect.
 */
const DENY = ['rm *', 'curl*', 'sudo*', 'wget*'];

const REFUSED_LINES: Array<[string, string, RegExp]> = [
  ['sequence ;', 'ls; rm -rf ../outside', /denied by the rule "rm \*"/],
  ['and-list &&', 'ls && rm -rf ../outside', /denied/],
  ['or-list ||', 'false || rm -rf ../outside', /denied/],
  ['pipeline |', 'ls | rm -rf ../outside', /denied/],
  ['newline', 'ls\nrm -rf ../outside', /denied/],
  ['command substitution $()', 'echo $(rm -rf ../outside)', /command substitution .* is not allowed/],
  ['backticks', 'echo `rm -rf ../outside`', /command substitution/],
  ['process substitution', 'cat <(rm -rf ../outside)', /command substitution/],
  ['substitution inside ${}', 'echo ${X:-$(rm -rf ../outside)}', /not supported/],
  ['eval', 'eval "rm -rf ../outside"', /denied/],
  ['eval of a variable', 'X="rm -rf ../outside"; eval $X', /eval needs literal arguments/],
  ['env X=… cmd', 'env X=1 rm -rf ../outside', /denied/],
  ['command / exec / nohup / timeout wrappers', 'timeout 5 nice -n 1 nohup command rm -rf ../outside', /denied/],
  ['time -p / setsid / stdbuf / busybox', 'time -p setsid -f stdbuf -o0 busybox rm -rf ../outside', /denied/],
  ['sudo', 'sudo ls', /runs commands as another user/],
  ['xargs', 'echo ../outside | xargs rm -rf', /denied/],
  ['find -exec', 'find .. -name outside -exec rm -rf {} +', /denied/],
  ['bash -c', "bash -c 'rm -rf ../outside'", /denied/],
  ['shell reading a pipe', "echo 'rm -rf ../outside' | sh", /cannot be checked/],
  ['alias', 'alias ls=rm; ls -rf ../outside', /defines aliases/],
  ['function', 'f() { rm -rf ../outside; }; f', /defining functions is refused/],
  ['fork bomb', ':(){ :|:& };:', /defining functions is refused/],
  ["quote removal r''m", "r''m -rf ../outside", /denied/],
  ['backslash \\rm', '\\rm -rf ../outside', /denied/],
  ['quoted "rm"', '"rm" -rf ../outside', /denied/],
  ['path /bin/rm', '/bin/rm -rf ../outside', /denied/],
  ['$IFS in the name', 'rm${IFS}-rf${IFS}../outside', /command name must be written literally/],
  ['variable as the name', 'X=rm; $X -rf ../outside', /command name must be written literally/],
  ["ANSI-C $'\\x72m'", "$'\\x72m' -rf ../outside", /command name must be written literally/],
  ['brace expansion', '{rm,-rf,../outside}', /command name must be written literally/],
  ['PATH=', 'PATH=/tmp ls', /setting PATH is refused/],
  ['LD_PRELOAD via env', 'env LD_PRELOAD=/tmp/x.so ls', /setting LD_PRELOAD is refused/],
  ['export BASH_ENV', 'export BASH_ENV=/tmp/x', /setting BASH_ENV is refused/],
  ['BASH_CMDS hash entry', 'BASH_CMDS[ls]=/bin/rm; ls -rf ../outside', /setting BASH_CMDS is refused/],
  ['source', '. ./evil.sh', /cannot be checked/],
  ['trap', "trap 'rm -rf ../outside' EXIT", /runs a command given as text later/],
  ['redirection out of the workspace', 'echo pwned > ../outside/secret.txt', /writes outside the workspace/],
  ['append through an absolute path', 'echo pwned >> /etc/passwd', /writes outside the workspace/],
  ['redirection after cd', 'cd .. && echo pwned > outside/secret.txt', /after cd, redirections must use absolute paths/],
  ['/dev/tcp', 'cat < /dev/tcp/127.0.0.1/9', /network redirections/],
  ['background job', 'sleep 100 &', /background jobs/],
  ['here-document', 'bash <<EOF\nrm -rf ../outside\nEOF', /here-documents/],
  ['parse failure', 'echo "unterminated', /does not parse: .*quote/],
  ['NUL byte', 'ls\0; rm -rf ../outside', /NUL byte/],
  ['a huge line', `ls ${'['.repeat(20_000)}`, /longer than 16384 characters/],
];

describe('shell tool escapes: refused before anything runs', () => {
  it.skipIf(!bwrapInstalled).each(REFUSED_LINES)('%s (the rules, sandboxed)', async (_, line, message) => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, deny: DENY, isolation: 'bwrap' });
    const { refused } = await attempt(sh, line);
    expect(refused).toMatch(/^Command refused: /);
    expect(refused).toMatch(message);
    expect(canaryIntact(p)).toBe(true);
  });

  it.each(REFUSED_LINES)('%s (unconfined: refused too, by the rules or the argument checks)', async (_, line) => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, deny: DENY, isolation: 'none' });
    const { refused } = await attempt(sh, line);
    expect(refused).toMatch(/^Command refused: /);
    expect(canaryIntact(p)).toBe(true);
  });

  it('an allow list is matched command by command: "npm run *" lets `npm run build` through, not what is chained to it', async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, allow: ['ls*', 'echo *'], isolation: 'none' });
    expect((await attempt(sh, 'ls; rm -rf ../outside')).refused).toMatch(
      /`rm -rf \.\.\/outside` is not an allowed command \(allowed: "ls\*", "echo \*"\)/,
    );
    expect((await attempt(sh, 'echo ok # ; rm -rf ../outside')).result?.stdout).toBe('ok\n');
    expect((await attempt(sh, '"ls -la"')).refused).toMatch(/not an allowed command/);
    expect(canaryIntact(p)).toBe(true);
  });

  it('a refusal reaches the model as an error result and the run goes on', async () => {
    const p = playground();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'bash', input: { command: 'ls && rm -rf ../outside' } },
          { toolName: 'bash', input: { command: 'echo $(id)' } },
        ],
      },
      { text: 'understood' },
    ]);
    const agent = new Agent({ name: 'dev', model, tools: [shellTool({ cwd: p.ws, deny: DENY, isolation: 'none' })] });
    const run = await agent.run('clean up');
    expect(run.text).toBe('understood');
    const results = run.steps[0]!.toolResults;
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    expect(String(results[0]!.output)).toMatch(/Command refused: `rm -rf \.\.\/outside` is denied/);
    expect(canaryIntact(p)).toBe(true);
  });
});

describe('shell tool escapes: at run time', () => {
  it('endless output stops being read and the command is killed', async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, isolation: 'none', maxOutputBytes: 1000, timeoutMs: 20_000 });
    const { result } = await attempt(sh, 'yes corvid-endless');
    expect(result).toMatchObject({ outputLimitExceeded: true, timedOut: false, truncated: true });
    expect(result!.stdout).toMatch(/\[… \d+ bytes, \d+ lines elided …\]/);
    expect(result!.durationMs).toBeLessThan(10_000);
    expect(await processesGone('corvid-endless')).toBe(0);
  });

  it('a command that ignores SIGTERM is killed after the grace', async () => {
    const p = playground();
    writeFileSync(
      join(p.ws, 'corvid-stubborn.js'),
      'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); console.log("stubborn")',
    );
    // The time limit leaves node time to start and install its handler on a busy machine.
    const sh = shellTool({ cwd: p.ws, isolation: 'none', timeoutMs: 3000, killGraceMs: 300 });
    const { result } = await attempt(sh, 'node corvid-stubborn.js');
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(await processesGone('corvid-stubborn')).toBe(0);
  });

  for (const isolation of ['none', 'bwrap'] as const) {
    it.skipIf(isolation === 'bwrap' && !bwrapInstalled)(
      `a process swarm dies with its group at the time limit (isolation ${isolation})`,
      async () => {
        const p = playground();
        const sh = shellTool({ cwd: p.ws, isolation, timeoutMs: 1000, killGraceMs: 200, allowBackground: true });
        const { result } = await attempt(sh, 'i=0; while [ $i -lt 100 ]; do sleep 41.517 & i=$((i+1)); done; wait');
        expect(result).toMatchObject({ timedOut: true });
        expect(await processesGone('41.517')).toBe(0);
      },
    );
  }

  it("the parent's secrets are not in the environment", async () => {
    const p = playground();
    process.env.OPENAI_API_KEY = 'sk-corvid-test-secret';
    process.env.GITHUB_TOKEN = 'ghp-corvid-test-secret';
    try {
      const sh = shellTool({ cwd: p.ws, isolation: 'none', passEnv: ['HOSTNAME'] });
      const { result } = await attempt(sh, 'env; echo "[$OPENAI_API_KEY]"');
      expect(result!.stdout).not.toContain('corvid-test-secret');
      expect(result!.stdout).toContain('[]');
      expect(() => shellTool({ cwd: p.ws, passEnv: ['OPENAI_API_KEY'] })).toThrow(/looks like a secret/);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.GITHUB_TOKEN;
    }
  });
});

describe.skipIf(!bwrapInstalled)('shell tool escapes: inside the bubblewrap sandbox', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((s) => s.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('commands cannot write outside the workspace (cp, touch, a symlink made in the same line)', async () => {
    const p = playground('/var/tmp');
    const sh = shellTool({ cwd: p.ws, isolation: 'bwrap' });
    const cp = await attempt(sh, `cp notes.txt ${p.outside}/copied`);
    expect(cp.result).toMatchObject({ sandbox: 'bwrap' });
    expect(cp.result!.exitCode).not.toBe(0);
    expect(cp.result!.stderr).toMatch(/No such file or directory/);
    const link = await attempt(sh, `ln -s ${p.outside} link && echo pwned > link/secret.txt`);
    expect(link.result!.exitCode).not.toBe(0);
    const etc = await attempt(sh, 'touch /etc/corvid-pwned');
    expect(etc.result!.exitCode).not.toBe(0);
    expect(existsSync('/etc/corvid-pwned')).toBe(false);
    expect(canaryIntact(p)).toBe(true);
    const inside = await attempt(sh, 'echo made > made.txt && cat made.txt');
    expect(inside.result).toMatchObject({ exitCode: 0, stdout: 'made\n' });
    expect(existsSync(join(p.ws, 'made.txt'))).toBe(true);
  });

  it("writes to /tmp stay in the sandbox's private /tmp", async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, isolation: 'bwrap' });
    const marker = join('/tmp', `corvid-private-${process.pid}`);
    expect((await attempt(sh, `touch ${marker} && ls ${marker}`)).result!.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('no network: a local server answers outside the sandbox, not inside', async () => {
    const p = playground();
    const connect = `node -e 'require("net").connect(${port}, "127.0.0.1").on("data", (d) => { console.log("CONNECTED", String(d).trim()); process.exit(0) }).on("error", (e) => { console.log("FAILED", e.code); process.exit(3) })'`;
    const boxed = await attempt(shellTool({ cwd: p.ws, isolation: 'bwrap' }), connect);
    expect(boxed.result).toMatchObject({ sandbox: 'bwrap', exitCode: 3 });
    expect(boxed.result!.stdout).toMatch(/^FAILED /);
    const allowed = await attempt(shellTool({ cwd: p.ws, isolation: 'bwrap', network: true }), connect);
    expect(allowed.result!.stdout).toBe('CONNECTED hello\n');
  });

  it("the parent's environment cannot be read through /proc", async () => {
    const p = playground();
    process.env.ANTHROPIC_API_KEY = 'sk-corvid-proc-secret';
    try {
      const sh = shellTool({ cwd: p.ws, isolation: 'bwrap' });
      const { result } = await attempt(sh, 'cat /proc/[0-9]*/environ | tr "\\0" "\\n"; ls /proc | grep -c "^[0-9]"');
      expect(result!.stdout).not.toContain('corvid-proc-secret');
      expect(Number(result!.stdout.trim().split('\n').at(-1))).toBeLessThan(10);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });
});
