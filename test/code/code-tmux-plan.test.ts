/**
 * Plan mode and the todo panel end to end in a real terminal (tmux): `/plan <task>` plans read-only, the plan is
 * printed with an "Approve this plan?" prompt, `n` + a reason sends the model back to planning, `a` approves it in
 * auto-edit mode and the model carries it out; the todo list stays visible above the input.
 */
import { describe, expect, it } from 'vitest';

import type { FakeReply } from '../support/fake-llm-server.js';
import { FIXED } from './code-project.js';
import { TmuxCodeSession, tmuxCodeSessionSuite, toolResultText } from './tmux-code-session.js';

const missing = tmuxCodeSessionSuite();

const call = (id: string, name: string, args: unknown): FakeReply => ({ toolCalls: [{ id, name, arguments: args }] });
const statusLine = (screen: string): string => screen.trimEnd().split('\n').at(-1) ?? '';
const todos = (...status: string[]) => ({
  todos: ['Read src/math.js', 'Fix add', 'Run the tests'].map((content, i) => ({ content, status: status[i] })),
});

describe.skipIf(missing !== undefined)('corvid code plan mode in a real terminal (tmux)', () => {
  it(
    'plan, reject with a reason, plan again, approve in auto-edit: the model carries it out; todos stay visible',
    { timeout: 240_000 },
    async () => {
      const session = await TmuxCodeSession.start(
        [
          call('t1', 'todo_write', todos('in_progress', 'pending', 'pending')),
          call('r1', 'read_file', { path: 'src/math.js' }),
          call('p1', 'exit_plan_mode', { plan: '1. Replace `a - b` with `a + b` in src/math.js.' }),
          call('p2', 'exit_plan_mode', { plan: '1. Replace `a - b` with `a + b` in src/math.js.\n2. Run node test.js.' }),
          call('e1', 'edit_file', { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' }),
          call('t2', 'todo_write', todos('completed', 'completed', 'pending')),
          { text: 'Fixed add in src/math.js:2; node test.js is left to run.' },
        ],
        { rows: 32 },
      );
      const t = session.term;
      t.submit('/plan fix the add bug');
      await t.waitFor((s) => statusLine(s).startsWith('⏵ plan │'), { what: 'plan mode on the status line' });

      // 1. The plan is printed, with the prompt under it and the todo list above the input.
      const first = await t.waitForText('Approve this plan?');
      t.snapshot('plan-01-plan');
      expect(first).toContain('Replace a - b with a + b in src/math.js.');
      expect(first).toMatch(/Todos 0\/3\s+◐ Read src\/math\.js\s+☐ Fix add\s+☐ Run the tests/);
      expect(session.read('src/math.js')).not.toBe(FIXED);
      t.type('n');
      await t.waitForText('What should change');
      t.type('also run the tests');
      t.keys('Enter');

      // 2. The model got the reason and offers a new plan.
      const second = await t.waitFor((s) => s.includes('Approve this plan?') && s.includes('2. Run node test.js.'), {
        what: 'the second plan',
      });
      t.snapshot('plan-02-second-plan');
      expect(second).toContain('2. Run node test.js.');
      expect(toolResultText(session.requests[3], 'p1')).toContain('The user did not approve the plan: also run the tests');
      expect(statusLine(second)).toMatch(/^⏵ plan │/);

      // 3. `a`: approved in auto-edit: the edit runs without asking.
      t.type('a');
      const done = await session.answered('node test.js is left to run');
      t.snapshot('plan-03-done');
      expect(statusLine(done)).toMatch(/^⏵ auto-edit │/);
      expect(done).not.toContain('Allow edit_file?');
      expect(session.read('src/math.js')).toBe(FIXED);
      expect(toolResultText(session.requests[4], 'p2')).toContain('now in auto-edit mode');
      expect(done).toMatch(/Todos 2\/3\s+☑ Read src\/math\.js\s+☑ Fix add\s+☐ Run the tests/);
    },
  );
});
