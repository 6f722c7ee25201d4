/**
 * Plan mode, the todo list and custom commands through the session API (`openCodeSession`, a fake model server):
 * an approved plan goes back to the mode the session was in before plan mode, the todo list comes back with a
 * resumed session, and an unknown command names the ones it may have meant.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { CodeEvent, CodeSession } from '../../src/code/code-session-types.js';
import { openCodeSession } from '../../src/code/open-code-session.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, FIXED, makeProject } from './code-project.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;
const sessions: CodeSession[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

const call = (id: string, name: string, args: unknown): FakeReply => ({ toolCalls: [{ id, name, arguments: args }] });

async function open(options: { resume?: string } = {}): Promise<{ session: CodeSession; events: CodeEvent[] }> {
  const session = await openCodeSession({ cwd: project!.dir, env: project!.env, sandbox: false, ...options });
  sessions.push(session);
  const events: CodeEvent[] = [];
  session.subscribe((e) => events.push(e));
  return { session, events };
}

describe('plan mode, todos and custom commands (session API)', { timeout: 60_000 }, () => {
  it('an approved plan (y) goes back to the mode before plan mode, and the model carries it out', async () => {
    server = await startFakeLlmServer([
      call('p1', 'exit_plan_mode', { plan: 'Fix add in src/math.js.' }),
      call('e1', 'edit_file', { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' }),
      { text: 'Done.' },
    ]);
    project = makeProject(server.url);
    const { session, events } = await open();
    session.setMode('auto-edit');
    await session.command('/plan');
    expect(session.status().mode).toBe('plan');
    session.subscribe((e) => {
      if (e.type === 'approval' && e.approval.kind === 'plan') session.answerApproval(e.approval.id, { approved: true });
    });
    const result = await session.send('fix add');
    expect(result.status).toBe('completed');
    expect(session.status().mode).toBe('auto-edit');
    expect(
      events.some((e) => e.type === 'approval' && e.approval.kind === 'plan' && e.approval.preview === 'Fix add in src/math.js.'),
    ).toBe(true);
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(FIXED);
  });

  it('the todo list comes back with a resumed session; an unknown command names near ones', async () => {
    const todos = [
      { content: 'Fix add', status: 'completed' },
      { content: 'Run the tests', status: 'in_progress' },
    ];
    server = await startFakeLlmServer([call('t1', 'todo_write', { todos }), { text: 'Half done.' }]);
    project = makeProject(server.url);
    mkdirSync(join(project.dir, '.corvid', 'commands'), { recursive: true });
    writeFileSync(join(project.dir, '.corvid', 'commands', 'review.md'), 'Review $ARGUMENTS.');
    const first = await open();
    await first.session.send('fix add and run the tests');
    expect(first.session.todos()).toEqual(todos);
    const id = first.session.id;
    await first.session.close();
    const again = await open({ resume: id });
    expect(again.session.todos()).toEqual(todos);
    expect(again.session.customCommands()).toEqual([{ name: 'review', scope: 'project' }]);
    await again.session.command('/revu');
    const notice = again.events.find((e) => e.type === 'notice' && e.level === 'error');
    expect(notice).toMatchObject({ text: expect.stringContaining('Unknown command "/revu". Did you mean /resume, /review?') });
  });
});
