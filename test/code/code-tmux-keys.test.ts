/**
 * `corvid code`'s keys end to end in a real terminal (tmux, 80×24): Esc interrupting a streaming answer, Shift+Tab
 * cycling the modes, ↑ recalling an earlier message, and multi-line input (`\` + Enter, Alt+Enter). Each test checks
 * the screen and what the fake model received; screens are saved in test-artifacts/code/.
 */
import { describe, expect, it } from 'vitest';

import { BUGGY, FIXED } from './code-project.js';
import { lastUserText, messagesOf, PROMPT, textOf, TmuxCodeSession, tmuxCodeSessionSuite } from './tmux-code-session.js';

const missing = tmuxCodeSessionSuite();

let session: TmuxCodeSession | undefined;

/** The status line (the last line of the screen). */
const statusLine = (screen: string): string => screen.trimEnd().split('\n').at(-1) ?? '';

describe.skipIf(missing !== undefined)('corvid code keys in a real terminal (tmux)', () => {
  it('Esc interrupts a streaming answer: the stream stops, the prompt returns, the next message works', { timeout: 180_000 }, async () => {
    // Three text pieces, 12 s apart: the answer is still streaming when Esc is pressed.
    const long = 'Counting slowly: one two three four five six seven eight nine ten eleven twelve thirteen END-OF-ANSWER';
    session = await TmuxCodeSession.start([{ text: long, chunkDelayMs: 12_000 }, { text: 'Second answer, complete.' }]);
    const t = session.term;
    t.submit('count for me');
    const streaming = await t.waitForText('Counting slowly');
    t.snapshot('keys-01-streaming');
    expect(streaming).toContain('Working… type to queue a message, Esc to interrupt');
    const pressed = Date.now();
    t.keys('Escape');
    const stopped = await t.waitFor((s) => s.includes(PROMPT) && s.includes('⏹ Cancelled'), { what: 'the interrupted turn' });
    t.snapshot('keys-02-interrupted');
    // Well before the rest of the stream would have come.
    expect(Date.now() - pressed).toBeLessThan(12_000);
    expect(stopped).toContain('Counting slowly');
    expect(stopped).not.toContain('END-OF-ANSWER');
    // The request was aborted: the model stops generating (and billing).
    await t.waitFor(() => session!.requests[0].clientClosedAt !== undefined, { what: 'the aborted request' });
    // The role chunk and the first text piece were sent; the other two text pieces never were.
    expect(session.requests[0].eventsSent).toBeLessThan(4);

    t.submit('just say hi');
    const next = await session.answered('Second answer, complete.');
    expect(next).not.toContain('END-OF-ANSWER');
    expect(session.requests).toHaveLength(2);
    expect(lastUserText(session.requests[1])).toBe('just say hi');
  });

  it(
    'Shift+Tab cycles the modes on the status line; the model is told the mode and edits run without asking in auto-edit',
    { timeout: 180_000 },
    async () => {
      session = await TmuxCodeSession.start([
        { toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }] },
        { text: 'Fixed add without asking (auto-edit).' },
      ]);
      const t = session.term;
      const first = statusLine(t.screen());
      expect(first).toMatch(/^⏵ default │/);
      // yolo is in the cycle only when the shell sandbox works (it is refused without it).
      const sandbox = / │ sandbox$/.test(first);
      const cycle = sandbox ? ['auto-edit', 'plan', 'yolo', 'ask', 'default'] : ['auto-edit', 'plan', 'ask', 'default'];
      let previous = 'default';
      for (const mode of cycle) {
        t.keys('BTab');
        // On a loaded machine a key press can be lost while the screen redraws: pressed again only when the
        // status line still shows the previous mode after 10 s (a late one would have moved it on by then).
        const reached = await t
          .waitFor((s) => statusLine(s).startsWith(`⏵ ${mode} │`), { what: `the status line in ${mode} mode`, timeoutMs: 10_000 })
          .catch(() => undefined);
        if (reached === undefined && statusLine(t.screen()).startsWith(`⏵ ${previous} │`)) t.keys('BTab');
        await t.waitFor((s) => statusLine(s).startsWith(`⏵ ${mode} │`), { what: `the status line in ${mode} mode` });
        t.snapshot(`keys-03-mode-${mode}`);
        previous = mode;
      }
      // Back at default; one more Shift+Tab: auto-edit, and the edit is made without an approval prompt.
      t.keys('BTab');
      await t.waitFor((s) => statusLine(s).startsWith('⏵ auto-edit │'), { what: 'auto-edit mode' });
      t.submit('fix add');
      const done = await session.answered('Fixed add without asking');
      t.snapshot('keys-04-auto-edit');
      expect(done).toContain('● Edit src/math.js (+1 -1)');
      expect(done).not.toContain('Allow edit_file?');
      expect(session.read('src/math.js')).toBe(FIXED);
      const system = textOf(messagesOf(session.requests[0]).find((m) => m.role === 'system'));
      expect(system).toContain('Mode: auto-edit.');
    },
  );

  it(
    '↑ recalls the last message; \\ + Enter and Alt+Enter write a multi-line message that reaches the model whole',
    { timeout: 180_000 },
    async () => {
      session = await TmuxCodeSession.start([{ text: 'Answer one.' }, { text: 'Answer two.' }, { text: 'Answer three.' }]);
      const t = session.term;
      t.submit('what does add do?');
      await session.answered('Answer one.');

      t.keys('Up');
      const recalled = await t.waitForText('│ ❯ what does add do?');
      t.snapshot('keys-05-history');
      expect(recalled).toContain('Answer one.');
      t.keys('Enter');
      await session.answered('Answer two.');
      expect(session.requests).toHaveLength(2);
      expect(lastUserText(session.requests[1])).toBe('what does add do?');

      t.type('first line\\');
      t.keys('Enter');
      t.type('second line');
      t.keys('M-Enter');
      t.type('third line');
      const box = await t.waitForText('│   third line');
      t.snapshot('keys-06-multiline');
      expect(box).toMatch(/│ ❯ first line +│\n│ {3}second line +│\n│ {3}third line/);
      // Nothing was sent yet: the line breaks went into the input.
      expect(session.requests).toHaveLength(2);
      t.keys('Enter');
      const sent = await session.answered('Answer three.');
      t.snapshot('keys-07-multiline-sent');
      expect(sent).toMatch(/❯ first line\n {2}second line\n {2}third line/);
      expect(lastUserText(session.requests[2])).toBe('first line\nsecond line\nthird line');
      expect(session.read('src/math.js')).toBe(BUGGY);
    },
  );
});
