/**
 * `code.hooks` of corvid.yaml, headless (`corvid code -p`): a pre_tool_use hook exiting 2 blocks write_file (the file
 * is not written, the model reads the hook's reason), a post_tool_use hook reads the call and its result as JSON on
 * stdin, a user_prompt_submit hook adds context to the prompt, a stop hook sends the model back to work once; and
 * `corvid validate` refuses a wrong hooks section. Real processes, real shell hooks, a fake model server.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';
import { lastUserText, toolResultText } from './tmux-code-session.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

const call = (id: string, name: string, args: unknown): FakeReply => ({ toolCalls: [{ id, name, arguments: args }] });

const HOOKS = `code:
  hooks:
    pre_tool_use:
      - matcher: write_file|edit_file
        command: 'echo "new files need a ticket (hook)" >&2; exit 2'
    post_tool_use:
      - matcher: read_file
        command: cat > post-hook.json
    user_prompt_submit:
      - command: 'echo "Branch: main"'
    stop:
      - command: 'if [ -f .stopped ]; then exit 0; fi; touch .stopped; echo "run node test.js first" >&2; exit 2'
        timeout: 10
`;

describe('corvid code hooks (code.hooks)', { timeout: 90_000 }, () => {
  it('pre_tool_use blocks write_file with its reason; post_tool_use, user_prompt_submit and stop run', async () => {
    server = await startFakeLlmServer([
      call('w1', 'write_file', { path: 'NOTES.md', content: 'notes\n' }),
      call('r1', 'read_file', { path: 'src/math.js' }),
      { text: 'Done.' },
      { text: 'Ran the tests: they fail.' },
    ]);
    project = makeProject(server.url);
    const yaml = join(project.dir, 'corvid.yaml');
    writeFileSync(yaml, `${readFileSync(yaml, 'utf8')}${HOOKS}`);
    const r = await runCli(['code', '-p', 'write notes', '--mode', 'auto-edit', '--no-sandbox', '--verbose'], {
      cwd: project.dir,
      env: project.env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Ran the tests: they fail.\n');
    // Blocked: not written, and the model read why.
    expect(existsSync(join(project.dir, 'NOTES.md'))).toBe(false);
    expect(toolResultText(server.requests[1], 'w1')).toContain('Blocked by a pre_tool_use hook: new files need a ticket (hook)');
    // The hook runs are shown (--verbose prints the steps on stderr).
    expect(r.stderr).toContain('⚓ pre_tool_use hook (write_file) blocked');
    expect(r.stderr).toContain('new files need a ticket (hook)');
    // user_prompt_submit: its output is added to the prompt.
    expect(lastUserText(server.requests[0])).toBe('write notes\n\nBranch: main');
    // post_tool_use read the call and its result.
    const post = JSON.parse(readFileSync(join(project.dir, 'post-hook.json'), 'utf8')) as Record<string, unknown>;
    expect(post).toMatchObject({ hook_event_name: 'post_tool_use', tool_name: 'read_file', tool_input: { path: 'src/math.js' } });
    expect(JSON.stringify(post.tool_response)).toContain('a - b');
    // stop: the first stop was blocked and the model went on, reading why; the second one passed.
    expect(server.requests).toHaveLength(4);
    expect(lastUserText(server.requests[3])).toBe('A stop hook says the work is not finished: run node test.js first');
  });

  it('corvid validate refuses an unknown hook event and a matcher that is no regular expression', async () => {
    server = await startFakeLlmServer([]);
    project = makeProject(server.url);
    const yaml = join(project.dir, 'corvid.yaml');
    const base = readFileSync(yaml, 'utf8');
    writeFileSync(yaml, `${base}code:\n  hooks:\n    before_tool:\n      - command: "true"\n`);
    const unknown = await runCli(['validate'], { cwd: project.dir, env: project.env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr + unknown.stdout).toMatch(/code\.hooks.*before_tool|before_tool.*code\.hooks/);
    writeFileSync(yaml, `${base}code:\n  hooks:\n    pre_tool_use:\n      - matcher: "write_file("\n        command: "true"\n`);
    const bad = await runCli(['validate'], { cwd: project.dir, env: project.env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr + bad.stdout).toContain('must be a regular expression');
    writeFileSync(yaml, `${base}${HOOKS}`);
    const good = await runCli(['validate'], { cwd: project.dir, env: project.env });
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
  });
});
