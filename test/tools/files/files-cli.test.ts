import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  tmp = tempDir('corvid-files-cli-');
  mkdirSync(join(tmp.dir, 'project', 'src'), { recursive: true });
  writeFileSync(join(tmp.dir, 'project', 'src', 'app.js'), 'export const port = 3000;\n');
  writeFileSync(join(tmp.dir, 'outside.txt'), 'not yours\n');
  writeConfig(
    tmp.dir,
    `models:\n${fakeModel(url)}tools:\n  workspace:\n    type: files\n    root: ./project\n    deny: [".env"]\nagents:\n  coder:\n    model: fake\n    tools: [workspace]\n    require_approval: [write_file, edit_file]\n`,
  );
  return { dir: tmp.dir, opts: { cwd: tmp.dir, env: cliEnv(tmp.dir) } };
}

describe('corvid run with a files tool entry', () => {
  it('refusals reach the model, an edit pauses showing its diff, and approving it applies the edit', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'read_file', arguments: { path: '../outside.txt' }, id: 'c1' }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/app.js', old_string: '3000', new_string: '8080' }, id: 'c2' }] },
      { text: 'Port changed to 8080.' },
    ]);
    const { dir, opts } = project(server.url);
    const paused = await runCli(['run', '--session', 'dev', '-q', 'Use port 8080'], opts);
    expect(paused.code, paused.stderr).toBe(3);
    expect(paused.stderr).toContain('--- a/src/app.js');
    expect(paused.stderr).toContain('-export const port = 3000;');
    expect(paused.stderr).toContain('+export const port = 8080;');
    expect(readFileSync(join(dir, 'project', 'src', 'app.js'), 'utf8')).toBe('export const port = 3000;\n');
    const toolMessage = server.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('"../outside.txt" refused: it leads outside the allowed folders');

    const id = /(apr_\S+)/.exec(paused.stderr)![1];
    const approved = await runCli(['approvals', 'approve', id], opts);
    expect(approved, approved.stderr).toMatchObject({ code: 0, stdout: 'Port changed to 8080.\n' });
    expect(readFileSync(join(dir, 'project', 'src', 'app.js'), 'utf8')).toBe('export const port = 8080;\n');
    const result = server.requests[2].body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1);
    expect(result.content).toContain('"path":"src/app.js"');
    expect(result.content).toContain('+export const port = 8080;');
  });

  it('corvid validate reports a files entry whose root is missing', async () => {
    server = await startFakeLlmServer([]);
    const { dir, opts } = project(server.url);
    writeConfig(
      dir,
      `tools:\n  workspace:\n    type: files\n    root: ./nope\nagents:\n  coder:\n    model: openai:gpt-4.1-mini\n    tools: [workspace]\n`,
    );
    const r = await runCli(['validate'], { ...opts, env: { ...opts.env, OPENAI_API_KEY: 'test' } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/tools\.workspace: cannot set up the files tools: the root folder .*nope does not exist/);
  });
});
