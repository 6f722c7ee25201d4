import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { CodeSession } from '../../../src/code/code-session-types.js';
import { PendingCodeSession } from '../../../src/code/pending-code-session.js';
import { runTui } from '../../../src/code/tui/run-tui.js';
import { FakeCodeSession } from './fake-session.js';
import { createFakeTerminal } from './fake-terminal.js';

// Ink draws frames as they come only outside CI (see app-render.test.ts).
beforeAll(() => {
  vi.stubEnv('CI', 'false');
  vi.stubEnv('CONTINUOUS_INTEGRATION', 'false');
});

/** A session whose opening the test finishes (or fails) when it wants. */
function gated(): { opening: Promise<CodeSession>; open: (s: CodeSession) => void; fail: (e: Error) => void } {
  let open!: (s: CodeSession) => void;
  let fail!: (e: Error) => void;
  const opening = new Promise<CodeSession>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { opening, open, fail };
}

function start(session: CodeSession) {
  const term = createFakeTerminal({ columns: 80, rows: 24 });
  const done = runTui({ session, stdin: term.stdin, stdout: term.stdout, frameMs: 1, patchConsole: false });
  return { term, done };
}

describe('the UI before its session has opened', { timeout: 90_000 }, () => {
  it('shows the prompt and "starting…", queues a message typed meanwhile and sends it once the session opens', async () => {
    const gate = gated();
    const pending = new PendingCodeSession({ opening: gate.opening, cwd: '/project', mode: 'auto-edit' });
    const { term, done } = start(pending);
    const first = await term.until((s) => s.includes('Ask, /command') && s.includes('starting…'));
    expect(first).toContain('⏵ auto-edit │ starting…');
    term.type('hello before ready');
    await term.until((s) => s.includes('hello before ready'));
    term.type('\r');
    await term.until((s) => s.includes('1 message queued'));

    const real = new FakeCodeSession({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'an earlier question' }] }],
      status: { mode: 'auto-edit' },
    });
    gate.open(real);
    const answered = await term.until((s) => s.includes('You said: hello before ready') && /⏵ auto-edit │ openai/.test(s));
    expect(answered).toContain('❯ an earlier question');
    expect(answered).toContain('❯ hello before ready');
    expect(answered).not.toContain('starting…');
    expect(answered).toMatch(/⏵ auto-edit │ openai:gpt-4\.1/);
    expect(real.calls.filter((c) => c.method === 'send').map((c) => c.args[0])).toEqual(['hello before ready']);
    term.type('/exit\r');
    await done;
    await pending.close();
    expect(pending.state).toBe('closed');
  });

  it('erases itself and exits when the session cannot open; `opened` rejects with the reason', async () => {
    const gate = gated();
    const pending = new PendingCodeSession({ opening: gate.opening, cwd: '/project' });
    const { term, done } = start(pending);
    await term.until((s) => s.includes('starting…'));
    gate.fail(new Error('unknown model "nope"'));
    await done;
    expect(pending.state).toBe('failed');
    await expect(pending.opened).rejects.toThrow('unknown model "nope"');
    expect(term.screen()).not.toContain('Ask, /command');
  });

  it('Ctrl-C before the session opens exits at once; the session is closed when it opens', async () => {
    const gate = gated();
    const pending = new PendingCodeSession({ opening: gate.opening, cwd: '/project' });
    const { term, done } = start(pending);
    await term.until((s) => s.includes('starting…'));
    term.type('\u0003');
    await done;
    await pending.close();
    const real = new FakeCodeSession();
    gate.open(real);
    await vi.waitFor(() => expect(real.calls.map((c) => c.method)).toContain('close'));
    expect(pending.state).toBe('closed');
  });
});
