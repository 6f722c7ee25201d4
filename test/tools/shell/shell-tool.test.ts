import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { shellToolEntrySchema, shellToolOptions } from '../../../src/config/tool-kinds/shell-tool-entry.js';
import { Agent } from '../../../src/index.js';
import { loadRuntime } from '../../../src/runtime/index.js';
import { ScriptedModel } from '../../../src/testing/index.js';
import { PathPolicy } from '../../../src/tools/path-policy.js';
import { CommandPattern, CommandPolicy, shellTool } from '../../../src/tools/shell/index.js';
import { lines, writeFiles } from '../../config/temp-dir.js';
import { attempt, bwrapInstalled, context, playground } from './support.js';

function policy(ws: string, rules: { allow?: string[]; deny?: string[]; allowSubstitution?: boolean }) {
  const p = new CommandPolicy({ cwd: ws, paths: new PathPolicy({ roots: [{ path: ws, mode: 'read-write' }] }), ...rules });
  return async (line: string) =>
    p.check(line).then(
      () => 'ok',
      (e: Error) => e.message,
    );
}

describe('shell tool: rules on the parsed line', () => {
  it('"npm run *" matches `npm run build`, not `npm run build; rm -rf /`; each simple command is matched on its own', async () => {
    const check = policy(playground().ws, {
      allow: ['npm test', 'npm run *', 'git status', 'git diff*', 'ls*', 'cat *'],
      deny: ['rm -rf *'],
    });
    expect(await check('npm run build')).toBe('ok');
    expect(await check('npm run build; rm -rf /')).toMatch(/`rm -rf \/` is denied by the rule "rm -rf \*"/);
    expect(await check('npm test && git status | cat notes.txt')).toBe('ok');
    expect(await check('npm test --watch')).toMatch(/`npm test --watch` is not an allowed command/);
    expect(await check('git diff --stat HEAD~1')).toBe('ok');
    expect(await check('git push')).toMatch(/not an allowed command/);
    expect(await check('if git status; then ls -la; fi')).toBe('ok');
    expect(await check('(ls) && { cat a; }')).toBe('ok');
  });

  it('deny wins over allow; without an allow list everything not denied runs', async () => {
    const ws = playground().ws;
    expect(await policy(ws, { allow: ['rm *'], deny: ['rm -rf *'] })('rm -rf x')).toMatch(/denied/);
    expect(await policy(ws, { allow: ['rm *'], deny: ['rm -rf *'] })('rm x')).toBe('ok');
    expect(await policy(ws, { deny: ['curl*'] })('git log --oneline')).toBe('ok');
  });

  it('patterns: * spans words, other text is literal, quoted words keep their boundaries, expansions only match *', () => {
    const p = new CommandPattern('git  diff*');
    expect(p.matches('git diff')).toBe(true);
    expect(p.matches('git diff --stat')).toBe(true);
    expect(p.matches('git difftool')).toBe(true);
    expect(p.matches('git dif')).toBe(false);
    expect(new CommandPattern('echo a.b').matches('echo aXb')).toBe(false);
  });

  it('substitution can be allowed; its commands are checked too', async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, deny: ['rm *'], allowSubstitution: true, isolation: 'none' });
    expect((await attempt(sh, 'echo "[$(echo inner)]"')).result?.stdout).toBe('[inner]\n');
    expect((await attempt(sh, 'echo $(rm -rf x)')).refused).toMatch(/denied/);
  });

  it('redirections may write inside the workspace, not out of it, not through a symlink out of it', async () => {
    const p = playground();
    symlinkSync(p.outside, join(p.ws, 'link'));
    mkdirSync(join(p.ws, 'sub'));
    const sh = shellTool({ cwd: p.ws, isolation: 'none' });
    expect((await attempt(sh, 'echo hi > sub/out.txt 2>/dev/null && cat sub/out.txt')).result?.stdout).toBe('hi\n');
    expect((await attempt(sh, 'echo hi > link/secret.txt')).refused).toMatch(/writes outside the workspace/);
    expect((await attempt(sh, 'ls 2>&1 >&2')).result?.exitCode).toBe(0);
  });
});

describe('shell tool: running', () => {
  it('runs in cwd; the result carries the command, cwd, exit code, stdout and stderr', async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, isolation: 'none' });
    const { result } = await attempt(sh, 'cat notes.txt; echo oops >&2; exit 3');
    expect(result).toMatchObject({
      command: 'cat notes.txt; echo oops >&2; exit 3',
      cwd: p.ws,
      exitCode: 3,
      signal: null,
      stdout: 'hello\n',
      stderr: 'oops\n',
      timedOut: false,
      sandbox: 'none',
    });
  });

  it('the environment is scrubbed: only the allowed variables, plus env and passEnv', async () => {
    const p = playground();
    process.env.CORVID_SHELL_VISIBLE = 'yes';
    process.env.CORVID_SHELL_HIDDEN = 'no';
    try {
      const sh = shellTool({ cwd: p.ws, isolation: 'none', env: { GREETING: 'hi' }, passEnv: ['CORVID_SHELL_VISIBLE'] });
      const { result } = await attempt(sh, 'echo "$GREETING $CORVID_SHELL_VISIBLE [$CORVID_SHELL_HIDDEN]"; echo "$PATH" | grep -c bin');
      expect(result!.stdout).toBe('hi yes []\n1\n');
    } finally {
      delete process.env.CORVID_SHELL_VISIBLE;
      delete process.env.CORVID_SHELL_HIDDEN;
    }
  });

  it('keeps the head and the tail of long output and says how much was elided', async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, isolation: 'none', maxOutputBytes: 1000 });
    const { result } = await attempt(sh, 'seq 1 2000');
    expect(result!.outputLimitExceeded).toBe(false);
    expect(result!.truncated).toBe(true);
    expect(result!.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(result!.stdout.endsWith('1999\n2000\n')).toBe(true);
    const m = /\[… (\d+) bytes, (\d+) lines elided …\]/.exec(result!.stdout)!;
    expect(Number(m[1])).toBe(8893 - 1000);
    expect(Number(m[2])).toBe(2000 - (result!.stdout.split('\n').length - 3));
  });

  it('the time limit kills the process group; cancelling the run does too', async () => {
    const p = playground();
    const sh = shellTool({ cwd: p.ws, isolation: 'none', timeoutMs: 300 });
    const { result } = await attempt(sh, 'sleep 5; echo never');
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM', stdout: '' });
    const controller = new AbortController();
    const long = shellTool({ cwd: p.ws, isolation: 'none' }).execute({ command: 'sleep 5' }, context(controller.signal));
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect(await long).toMatchObject({ signal: 'SIGTERM' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('isolation "bwrap" without bubblewrap is an error; "auto" refuses every command, naming the two ways out, and warns once', async () => {
    const p = playground();
    const bin = join(p.root, 'bin');
    mkdirSync(bin);
    symlinkSync('/bin/bash', join(bin, 'bash'));
    const path = process.env.PATH;
    process.env.PATH = bin;
    try {
      expect(() => shellTool({ cwd: p.ws, isolation: 'bwrap' })).toThrow(/isolation "bwrap" needs bubblewrap.*apt-get install bubblewrap/);
      const warnings: string[] = [];
      const sh = shellTool({ cwd: p.ws, onWarning: (m) => warnings.push(m) });
      for (const line of ['echo a > a.txt', 'echo b > b.txt']) {
        const { refused } = await attempt(sh, line);
        expect(refused).toMatch(
          /^Command refused: this tool runs commands only in a bubblewrap sandbox, and bubblewrap is not installed here/,
        );
        expect(refused).toContain('apt-get install bubblewrap');
        expect(refused).toContain('isolation: none');
      }
      expect(existsSync(join(p.ws, 'a.txt'))).toBe(false);
      expect(warnings).toEqual([expect.stringMatching(/bubblewrap is not installed here, so every command is refused/)]);
      expect((await attempt(shellTool({ cwd: p.ws, isolation: 'none' }), 'echo c')).result).toMatchObject({
        stdout: 'c\n',
        sandbox: 'none',
      });
    } finally {
      process.env.PATH = path;
    }
  });

  it.skipIf(!bwrapInstalled)('isolation "auto" uses bubblewrap when it is installed', async () => {
    const p = playground();
    expect((await attempt(shellTool({ cwd: p.ws }), 'echo a')).result).toMatchObject({ stdout: 'a\n', sandbox: 'bwrap' });
  });

  it('requireApproval shows the command to the approver; a denial does not run it', async () => {
    const p = playground();
    const model = new ScriptedModel([
      { toolCalls: [{ toolName: 'bash', input: { command: 'echo ran > ran.txt' } }] },
      { toolCalls: [{ toolName: 'bash', input: { command: 'cat notes.txt' } }] },
      { text: 'done' },
    ]);
    const agent = new Agent({ name: 'dev', model, tools: [shellTool({ cwd: p.ws, isolation: 'none', requireApproval: true })] });
    const asked: string[] = [];
    const run = await agent.run('go', { onApproval: (req) => (asked.push(req.prompt), { approved: req.prompt.includes('cat') }) });
    expect(run.status).toBe('completed');
    expect(asked).toEqual([
      `Allow bash({"command":"echo ran > ran.txt"})?\n$ echo ran > ran.txt\n(in ${p.ws}, unconfined)`,
      `Allow bash({"command":"cat notes.txt"})?\n$ cat notes.txt\n(in ${p.ws}, unconfined)`,
    ]);
    expect(existsSync(join(p.ws, 'ran.txt'))).toBe(false);
    expect(run.steps[1]!.toolResults[0]!.output).toMatchObject({ stdout: 'hello\n', exitCode: 0 });
  });
});

describe('shell tool: YAML entry', () => {
  it('maps snake_case options, resolves cwd against the config folder and parses durations', () => {
    const p = playground();
    const entry = shellToolEntrySchema.parse({
      type: 'shell',
      cwd: './ws',
      read_roots: ['./outside'],
      deny_paths: ['secrets/**'],
      allow: ['npm test'],
      deny: ['rm *'],
      timeout: '60s',
      kill_grace: '500ms',
      isolation: 'none',
      allow_substitution: true,
      pass_env: ['CI'],
    });
    expect(shellToolOptions(entry, { baseDir: p.root, protectedPaths: ['/srv/corvid.yaml'] })).toEqual({
      cwd: p.ws,
      readRoots: [p.outside],
      denyPaths: ['secrets/**'],
      hiddenPaths: ['/srv/corvid.yaml'],
      allow: ['npm test'],
      deny: ['rm *'],
      timeoutMs: 60_000,
      killGraceMs: 500,
      isolation: 'none',
      allowSubstitution: true,
      passEnv: ['CI'],
    });
    expect(shellToolEntrySchema.safeParse({ type: 'shell', isolation: 'docker' }).success).toBe(false);
    expect(shellToolEntrySchema.safeParse({ type: 'shell', alow: [] }).success).toBe(false);
  });

  it('a config with `type: shell` gives agents the bash tool; require_approval: [bash] shows the command', async () => {
    const p = playground();
    writeFiles(p.root, {
      'corvid.yaml': lines(
        'tools:',
        '  sh:',
        '    type: shell',
        '    cwd: ./ws',
        '    allow: ["cat *", "ls*"]',
        '    deny: ["rm -rf *"]',
        '    timeout: 60s',
        '    isolation: none',
        'agents:',
        '  dev:',
        '    model: "openai:gpt-4.1-mini"',
        '    tools: [sh]',
        '    require_approval: [bash]',
      ),
    });
    const runtime = await loadRuntime({ cwd: p.root, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false });
    const agent = runtime.agent('dev');
    expect(agent.tools.map((t) => t.name)).toEqual(['bash']);
    agent.setModel(
      new ScriptedModel([
        {
          toolCalls: [
            { toolName: 'bash', input: { command: 'cat notes.txt' } },
            { toolName: 'bash', input: { command: 'rm -rf notes.txt' } },
          ],
        },
        { text: 'done' },
      ]),
    );
    const asked: string[] = [];
    const run = await agent.run('go', { onApproval: (req) => (asked.push(req.prompt), { approved: true }) });
    // The two calls are asked about concurrently: in either order.
    expect(asked).toHaveLength(2);
    expect(asked.find((a) => a.includes('$ cat notes.txt'))).toContain(`$ cat notes.txt\n(in ${p.ws}, unconfined)`);
    expect(asked.find((a) => a.includes('$ rm -rf'))).toMatch(/\$ rm -rf notes.txt\n.*\nCommand refused: `rm -rf notes.txt` is denied/);
    const [cat, rm] = run.steps[0]!.toolResults;
    expect(cat).toMatchObject({ isError: false, output: { command: 'cat notes.txt', cwd: p.ws, exitCode: 0, stdout: 'hello\n' } });
    expect(rm).toMatchObject({ isError: true });
    await runtime.close();
  });

  it('a shell entry with a bad option is a config error at load time', async () => {
    const p = playground();
    writeFiles(p.root, {
      'corvid.yaml': lines(
        'tools:',
        '  sh: { type: shell, isolation: docker }',
        'agents:',
        '  dev: { model: "openai:gpt-4.1-mini", tools: [sh] }',
      ),
    });
    await expect(loadRuntime({ cwd: p.root, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false })).rejects.toThrow(
      /corvid\.yaml:2:\d+ +tools\.sh\.isolation: .*auto/,
    );
  });

  it('a shell entry whose cwd does not exist fails to load, naming the folder', async () => {
    const p = playground();
    writeFiles(p.root, {
      'corvid.yaml': lines(
        'tools:',
        '  sh: { type: shell, cwd: ./nope }',
        'agents:',
        '  dev: { model: "openai:gpt-4.1-mini", tools: [sh] }',
      ),
    });
    await expect(loadRuntime({ cwd: p.root, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false })).rejects.toThrow(
      /shell tool cwd: folder ".*nope" does not exist/,
    );
  });
});
