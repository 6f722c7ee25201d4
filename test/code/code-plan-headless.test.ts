/**
 * Plan mode and the todo list headless (`corvid code -p`): `--mode plan` lets the model read but refuses edits,
 * prints the plan it offers with exit_plan_mode and exits; `todo_write` reaches `--json` as a `todos` event. Real
 * processes, a fake model server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, makeProject } from './code-project.js';
import { lastUserText, messagesOf, textOf, toolResultText } from './tmux-code-session.js';

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
const PLAN = '## Plan\n\n1. In src/math.js:2, return a + b instead of a - b.\n2. Run `node test.js` and check it passes.';

describe('corvid code -p --mode plan', { timeout: 90_000 }, () => {
  it('reads, refuses the edit, prints the plan it offered and exits 0 with the file unchanged', async () => {
    server = await startFakeLlmServer([
      call('r1', 'read_file', { path: 'src/math.js' }),
      call('e1', 'edit_file', { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' }),
      call('p1', 'exit_plan_mode', { plan: PLAN }),
      { text: 'Plan ready.' },
    ]);
    project = makeProject(server.url);
    const r = await runCli(['code', '-p', 'fix the add bug', '--mode', 'plan', '--no-sandbox'], {
      cwd: project.dir,
      env: project.env,
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${PLAN}\n`);
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
    const requests = server.requests;
    expect(requests).toHaveLength(4);
    // The model was told it plans, and offered the plan tool and the todo tool.
    const system = textOf(messagesOf(requests[0]).find((m) => m.role === 'system'));
    expect(system).toContain('Mode: plan.');
    const tools = (requests[0].body as { tools: Array<{ function: { name: string } }> }).tools.map((t) => t.function.name);
    expect(tools).toEqual(expect.arrayContaining(['exit_plan_mode', 'todo_write', 'read_file', 'edit_file']));
    expect(toolResultText(requests[1], 'r1')).toContain('a - b');
    expect(toolResultText(requests[2], 'e1')).toContain('the session is in plan mode, so edit_file may not run yet');
    expect(toolResultText(requests[3], 'p1')).toContain('This run is headless: the plan is printed for the user');
  });

  it('todo_write reaches --json as a todos event with the whole list', async () => {
    const todos = [
      { content: 'Read src/math.js', status: 'completed' },
      { content: 'Fix add', status: 'in_progress' },
      { content: 'Run the tests', status: 'pending' },
    ];
    server = await startFakeLlmServer([call('t1', 'todo_write', { todos }), { text: 'Working on it.' }]);
    project = makeProject(server.url);
    const r = await runCli(['code', '-p', 'fix add', '--json', '--no-sandbox'], { cwd: project.dir, env: project.env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; todos?: unknown });
    expect(events.filter((e) => e.type === 'todos')).toEqual([{ type: 'todos', todos }]);
    expect(toolResultText(server.requests[1], 't1')).toContain('Todo list updated: 1/3 completed; in progress: Fix add');
    expect(lastUserText(server.requests[0])).toBe('fix add');
  });
});
