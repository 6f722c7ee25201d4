/**
 * Tall output in a real terminal (tmux, 80×24): a new file taller than the approval box is elided once, and `v`
 * prints it whole above the prompt before approving; a long shell output shows its last lines, and Ctrl-O (the
 * expanded view) shows all of it.
 */
import { describe, expect, it } from 'vitest';

import { TmuxCodeSession, tmuxCodeSessionSuite, toolResultText } from './tmux-code-session.js';

const missing = tmuxCodeSessionSuite();

const content = Array.from({ length: 60 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n') + '\n';

describe.skipIf(missing !== undefined)('corvid code: tall diffs and outputs in a real terminal (tmux)', () => {
  it('v shows the whole new file before approving; Ctrl-O shows a whole shell output', { timeout: 240_000 }, async () => {
    const session = await TmuxCodeSession.start([
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'src/big.js', content } }] },
      { toolCalls: [{ id: 'b1', name: 'bash', arguments: { command: 'seq 1 40' } }] },
      { text: 'Wrote big.js and counted.' },
    ]);
    const t = session.term;
    // The welcome line names the folder, model, mode and sandbox, and /help.
    const start = await t.waitForText('/help for commands');
    expect(start).toContain('corvid code · /');
    expect(start.replace(/\s+/g, ' ')).toMatch(/default mode · sandbox (on|off)/);
    t.submit('write a big file');
    const box = await t.waitForText('Allow write_file?');
    t.snapshot('expand-01-tall-approval');
    // One elision, in the box's style, and the key to see the rest.
    expect(box).toMatch(/… \d+ more lines \(v shows all\) …/);
    expect(box).not.toMatch(/more lines\)$/m);
    expect(box).toContain('v view all');
    expect(box).not.toContain('line30 = 30');
    t.type('v');
    await t.waitFor((s) => s.includes('line30 = 30') || t.history().includes('+export const line30 = 30;'), {
      what: 'the whole preview',
    });
    expect(t.history()).toContain('+export const line30 = 30;');
    // Still waiting for the answer.
    expect(t.screen()).toContain('Allow write_file?');
    t.type('y');

    await t.waitForText('Allow bash?');
    t.type('y');
    const done = await session.answered('Wrote big.js and counted.');
    t.snapshot('expand-02-shell-tail');
    expect(done).toMatch(/… 32 lines above \(Ctrl-O shows all\)/);
    expect(done).not.toMatch(/^\s+5$/m);
    expect(session.read('src/big.js')).toBe(content);
    // The model got the whole output, not the last lines.
    expect(toolResultText(session.requests[2], 'b1')).toContain('"stdout":"1\\n2\\n3\\n4\\n5\\n');
    t.keys('C-o');
    const expanded = await t.waitFor((s) => /^\s+5$/m.test(s), { from: 'history', what: 'the whole output after Ctrl-O' });
    t.snapshot('expand-03-expanded');
    expect(expanded).toMatch(/^\s+1$/m);
    expect(expanded).toMatch(/^\s+40$/m);
  });
});
