/**
 * What the input box sends besides plain messages, end to end in a real terminal (tmux, 80×24): `@path` mentions
 * completed with Tab (the file's content reaches the model) and `!command` (its output on screen, then in the
 * model's context with the next message).
 */
import { describe, expect, it } from 'vitest';

import { lastUserText, PROMPT, TmuxCodeSession, tmuxCodeSessionSuite } from './tmux-code-session.js';

const missing = tmuxCodeSessionSuite();

let session: TmuxCodeSession | undefined;

describe.skipIf(missing !== undefined)('corvid code input in a real terminal (tmux)', () => {
  it('@src/ma + Tab lists the candidates, completes the mention, and the file reaches the model', { timeout: 180_000 }, async () => {
    session = await TmuxCodeSession.start([{ text: 'add subtracts: src/math.js:2 returns a - b.' }], {
      files: { 'src/main.js': "import { add } from './math.js';\nconsole.log(add(2, 3));\n" },
    });
    const t = session.term;
    t.type('what is wrong in @src/ma');
    t.keys('Tab');
    // Two files start with src/ma: Tab lists them (the common prefix is already typed).
    const listed = await t.waitForText('src/main.js  src/math.js');
    t.snapshot('input-01-candidates');
    expect(listed).toContain('│ ❯ what is wrong in @src/ma');
    // This time Tab comes after the screen shows the typed text (the first may have arrived with the text, in one chunk).
    t.type('t');
    await t.waitForText('│ ❯ what is wrong in @src/mat');
    t.keys('Tab');
    const completed = await t.waitForText('│ ❯ what is wrong in @src/math.js ');
    t.snapshot('input-02-completed');
    expect(completed).not.toContain('src/main.js  src/math.js');
    t.type('?');
    await t.waitForText('@src/math.js ?');
    t.keys('Enter');
    const answer = await session.answered('add subtracts');
    t.snapshot('input-03-answer');
    // The transcript shows the message as typed; the model gets the file's numbered lines with it.
    expect(answer).toContain('❯ what is wrong in @src/math.js ?');
    expect(answer).not.toContain('<file');
    expect(session.requests).toHaveLength(1);
    const sent = lastUserText(session.requests[0]);
    expect(sent.startsWith('what is wrong in @src/math.js ?')).toBe(true);
    expect(sent).toContain('<file path="src/math.js" lines="1-3 of 3">\n1\texport function add(a, b) {\n2\t  return a - b;\n3\t}\n</file>');
    expect(sent).not.toContain('console.log(add(2, 3))');
  });

  it('!command shows its output at once, without the model; the next message carries it to the model', { timeout: 180_000 }, async () => {
    session = await TmuxCodeSession.start([{ text: 'The test fails because add subtracts.' }]);
    const t = session.term;
    t.submit('!node test.js');
    const ran = await t.waitFor((s) => s.includes('FAIL add(2, 3) = -1') && s.includes(PROMPT), { what: 'the command output' });
    t.snapshot('input-04-shell');
    expect(ran).toContain('! node test.js (exit 1)');
    expect(session.requests).toHaveLength(0);

    t.submit('why does it fail?');
    const answer = await session.answered('add subtracts');
    t.snapshot('input-05-shell-then-message');
    expect(answer).toContain('❯ why does it fail?');
    expect(session.requests).toHaveLength(1);
    const sent = lastUserText(session.requests[0]);
    expect(sent).toContain('I ran `node test.js` (exit code 1):');
    expect(sent).toContain('FAIL add(2, 3) = -1');
    expect(sent.endsWith('why does it fail?')).toBe(true);
  });
});
