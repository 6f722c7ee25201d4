/**
 * Approval answers end to end in a real terminal (tmux, 80×24): `n` with a reason (the model receives it as the
 * call's result) and `p`, always allowing a command prefix (a later command with that prefix does not ask; one
 * with another prefix does).
 */
import { describe, expect, it } from 'vitest';

import type { FakeReply } from '../support/fake-llm-server.js';
import { TmuxCodeSession, tmuxCodeSessionSuite, toolResultText } from './tmux-code-session.js';

const missing = tmuxCodeSessionSuite();

let session: TmuxCodeSession | undefined;

const bash = (id: string, command: string): FakeReply => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] });

describe.skipIf(missing !== undefined)('corvid code approvals in a real terminal (tmux)', () => {
  it(
    'n + reason reaches the model as the result; p allows the prefix, so only another prefix asks again',
    { timeout: 240_000 },
    async () => {
      session = await TmuxCodeSession.start([
        bash('b1', 'npm test'),
        bash('b2', 'node test.js'),
        bash('b3', 'node test.js --verbose'),
        bash('b4', 'git status --short'),
        { text: 'The test fails: add subtracts (src/math.js:2).' },
      ]);
      const t = session.term;
      t.submit('run the tests');

      // 1. npm test: denied with a reason.
      const first = await t.waitForText('Allow bash?');
      expect(first).toContain('$ npm test');
      t.type('n');
      await t.waitForText('Reason for the model');
      t.type('use node test.js directly');
      // The reason wraps in the box at 80 columns.
      await t.waitForText(/Reason for the model \(Enter sends, empty for none\): use node test\.js\s+(│\s+│\s+)?directly/);
      t.snapshot('approvals-01-reason');
      t.keys('Enter');

      // 2. node test.js: allowed with p (its prefix is `node test.js`).
      const second = await t.waitFor((s) => s.includes('Allow bash?') && s.includes('$ node test.js'), { what: 'the second approval' });
      t.snapshot('approvals-02-prefix');
      expect(second).toContain('● Bash npm test (denied: use node test.js directly)');
      expect(second).toContain('p always `node test.js`');
      // The model got the reason as the result of the denied call.
      expect(session.requests).toHaveLength(2);
      expect(toolResultText(session.requests[1], 'b1')).toContain('The user said no: use node test.js directly');
      t.type('p');

      // 3. node test.js --verbose runs without asking; 4. git status asks (another prefix).
      const third = await t.waitFor((s) => s.includes('Allow bash?') && s.includes('$ git status --short'), {
        what: 'the git status approval',
      });
      t.snapshot('approvals-03-other-prefix');
      expect(third).toContain('$ git status --short');
      expect(t.history()).toMatch(/● Bash node test\.js --verbose \(exit 1 · [\d.]+m?s\)/);
      expect(session.requests).toHaveLength(4);
      expect(toolResultText(session.requests[3], 'b3')).toContain('FAIL add(2, 3) = -1');
      t.type('y');
      const done = await session.answered('add subtracts');
      t.snapshot('approvals-04-answer');
      expect(done).toMatch(/● Bash git status --short \(exit 0/);
      expect(session.requests).toHaveLength(5);
    },
  );
});
