import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, cliEnv, fakeModel, runCli, tempDir, writeConfig } from '../../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../support/fake-llm-server.js';

let server: FakeLlmServer | undefined;
let tmp: { dir: string; cleanup(): void } | undefined;
beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  server = undefined;
  tmp?.cleanup();
});

function project(url: string): { dir: string; opts: { cwd: string; env: NodeJS.ProcessEnv } } {
  tmp = tempDir('corvid-shell-cli-');
  mkdirSync(join(tmp.dir, 'project'));
  writeFileSync(join(tmp.dir, 'project', 'notes.txt'), 'hello\n');
  writeConfig(
    tmp.dir,
    `models:\n${fakeModel(url)}tools:\n  sh:\n    type: shell\n    cwd: ./project\n    allow: ["cat *", "echo *", "ls*"]\n    deny: ["rm -rf *"]\n    timeout: 10s\n    isolation: none\nagents:\n  dev:\n    model: fake\n    tools: [sh]\n    require_approval: [bash]\n`,
  );
  return { dir: tmp.dir, opts: { cwd: tmp.dir, env: cliEnv(tmp.dir) } };
}

describe('corvid run with a shell tool entry', () => {
  it('a command pauses showing itself, approving runs it; the result carries the command, folder and exit code', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo made > made.txt && cat made.txt' }, id: 'c1' }] },
      { text: 'Made it.' },
    ]);
    const { dir, opts } = project(server.url);
    const paused = await runCli(['run', '--session', 'dev', '-q', 'Make a file'], opts);
    expect(paused.code, paused.stderr).toBe(3);
    expect(paused.stderr).toContain('$ echo made > made.txt && cat made.txt');
    expect(existsSync(join(dir, 'project', 'made.txt'))).toBe(false);

    const id = /(apr_\S+)/.exec(paused.stderr)![1];
    const approved = await runCli(['approvals', 'approve', id], opts);
    expect(approved, approved.stderr).toMatchObject({ code: 0, stdout: 'Made it.\n' });
    expect(readFileSync(join(dir, 'project', 'made.txt'), 'utf8')).toBe('made\n');
    const result = server.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1);
    expect(result.content).toContain('"command":"echo made > made.txt && cat made.txt"');
    expect(result.content).toContain('"exitCode":0');
    expect(result.content).toContain(`"cwd":${JSON.stringify(join(dir, 'project'))}`);
  });

  it('an approved command the rules refuse still does not run; the model is told why', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'ls && rm -rf ../project' }, id: 'c1' }] },
      { text: 'Understood.' },
    ]);
    const { dir, opts } = project(server.url);
    const paused = await runCli(['run', '--session', 'dev', '-q', 'Clean up'], opts);
    expect(paused.code, paused.stderr).toBe(3);
    expect(paused.stderr).toContain('Command refused: `rm -rf ../project` is denied by the rule "rm -rf *"');
    const id = /(apr_\S+)/.exec(paused.stderr)![1];
    const approved = await runCli(['approvals', 'approve', id], opts);
    expect(approved, approved.stderr).toMatchObject({ code: 0, stdout: 'Understood.\n' });
    expect(existsSync(join(dir, 'project', 'notes.txt'))).toBe(true);
    const result = server.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1);
    expect(result.content).toContain('Command refused: `rm -rf ../project` is denied');
  });
});
