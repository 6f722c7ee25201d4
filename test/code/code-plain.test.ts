import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, FIXED, makeProject } from './code-project.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

const editReply = {
  toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }],
};

describe('corvid code with piped stdin (plain mode)', { timeout: 60_000 }, () => {
  it('asks before an edit, takes "y" from the next line, and /diff and /undo work on the result', async () => {
    server = await startFakeLlmServer([editReply, { text: 'Done: add now adds.' }]);
    project = makeProject(server.url);
    const input = ['fix add', 'y', '/diff', '/undo', '/diff', '/exit', 'never sent'].join('\n');
    const r = await runCli(['code'], { cwd: project.dir, env: project.env, input, timeoutMs: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain('? edit_file needs approval:');
    expect(out).toContain('-  return a - b;');
    expect(out).toContain('Done: add now adds.');
    // /diff: the session's change as a unified diff, then /undo restores the file.
    expect(out).toMatch(/--- a\/src\/math\.js[\s\S]*\+ {2}return a \+ b;/);
    expect(out).toContain('Undid turn 1: 1 file');
    expect(out).toContain('No changes by the agent in this session.');
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
    expect(server.requests).toHaveLength(2);
  });

  it('a denial with a reason reaches the model and the file stays as it was', async () => {
    server = await startFakeLlmServer([editReply, { text: 'Understood, leaving it.' }]);
    project = makeProject(server.url);
    const r = await runCli(['code'], { cwd: project.dir, env: project.env, input: 'fix add\nn keep the subtraction\n', timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Understood, leaving it.');
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
    expect(JSON.stringify(server.requests[1].body.messages)).toContain('The user said no: keep the subtraction');
  });

  it('runs !commands in the project folder and shows them to the model with the next message', async () => {
    server = await startFakeLlmServer([{ text: 'The test fails because add subtracts.' }]);
    project = makeProject(server.url);
    const r = await runCli(['code'], { cwd: project.dir, env: project.env, input: '!node test.js\nwhy?\n', timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ node test.js');
    expect(r.stdout).toContain('FAIL add(2, 3) = -1');
    expect(r.stdout).toContain('exit 1');
    expect(JSON.stringify(server.requests[0].body.messages)).toContain('I ran `node test.js` (exit code 1)');
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).not.toBe(FIXED);
  });
});
