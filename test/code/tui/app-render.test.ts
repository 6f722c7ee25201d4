import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it, vi } from 'vitest';

import { runTui } from '../../../src/code/tui/run-tui.js';
import { demoScript } from './demo-script.js';
import { FakeCodeSession } from './fake-session.js';
import { createFakeTerminal, type FakeTerminal } from './fake-terminal.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'code');

function saveScreen(name: string, screen: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.txt`), screen + '\n');
}

function start(session: FakeCodeSession, size = { columns: 80, rows: 24 }): { term: FakeTerminal; done: Promise<void> } {
  const term = createFakeTerminal(size);
  const done = runTui({ session, stdin: term.stdin, stdout: term.stdout, frameMs: 1, patchConsole: false });
  return { term, done };
}

// Ink renders only the last frame, at exit, when it thinks it runs in CI (the is-in-ci package reads CI when Ink
// loads); these tests read the frames as they are drawn, as on a developer's terminal.
beforeAll(() => {
  vi.stubEnv('CI', 'false');
  vi.stubEnv('CONTINUOUS_INTEGRATION', 'false');
});

describe('corvid code terminal UI', { timeout: 90_000 }, () => {
  it('runs a scripted task: approvals with diff and command previews, tool lines, markdown answer, status line', async () => {
    const session = new FakeCodeSession({ script: demoScript() });
    const { term, done } = start(session);
    await term.until((s) => s.includes('Ask, /command'));
    term.type('fix the failing test');
    await term.until((s) => s.includes('fix the failing test'));
    term.type('\r');
    const approval = await term.until((s) => s.includes('Allow edit_file?'));
    expect(approval).toContain('+  return xs.reduce((a, b) => a + b, 0);');
    expect(approval).toContain('y yes · n no · a always edit_file');
    saveScreen('approval-edit', approval);
    term.type('y');
    const shell = await term.until((s) => s.includes('Allow bash?'));
    expect(shell).toContain('p always `npm test`');
    term.type('p');
    const end = await term.until((s) => s.includes('All 3 tests pass now.') && s.includes('$0.047'));
    saveScreen('task-done', end);
    expect(end).toContain('❯ fix the failing test');
    expect(end).toContain('● Read src/sum.ts (3 lines)');
    expect(end).toContain('● Grep "sum\\(" in test (3 matches in 1 file)');
    expect(end).toContain('● Edit src/sum.ts (+1 -1)');
    expect(end).toMatch(/● Bash npm test \(exit 1 · 1\.4s\)/);
    expect(end).toContain('✗ empty: expected 0 to be undefined');
    expect(end).toContain('Fixed: sum([]) threw');
    expect(end).toContain('∴ Thought for 2 lines (Ctrl-O to show)');
    expect(end).toMatch(/⏵ default.*openai:gpt-4\.1.*18k in · 1\.3k out · \$0\.047.*ctx 14%.*sandbox/);
    expect(session.calls.filter((c) => c.method === 'answerApproval').map((c) => c.args[1])).toEqual([
      { approved: true },
      { approved: true, always: 'prefix' },
    ]);
    term.type('/exit\r');
    await done;
  });

  it('denies with a reason typed after n', async () => {
    const session = new FakeCodeSession({ script: demoScript() });
    const { term, done } = start(session);
    term.type('go\r');
    await term.until((s) => s.includes('Allow edit_file?'));
    term.type('n');
    await term.until((s) => s.includes('Reason for the model'));
    term.type('keep it');
    term.type('\r');
    await term.until((s) => s.includes('Left src/sum.ts as it is (keep it).'));
    expect(session.calls.find((c) => c.method === 'answerApproval')?.args[1]).toEqual({ approved: false, reason: 'keep it' });
    term.type('\u0003');
    await done;
  });

  it('Shift+Tab cycles modes; Ctrl-C cancels the running turn, a second Ctrl-C exits', async () => {
    const session = new FakeCodeSession({ script: async (ctx) => ctx.wait(60_000) });
    const { term, done } = start(session);
    await term.until((s) => s.includes('⏵ default'));
    term.type('\u001b[Z');
    await term.until((s) => s.includes('⏵ auto-edit'));
    term.type('long task\r');
    await term.until((s) => s.includes('Working… (Esc to interrupt)'));
    term.type('\u0003');
    const cancelled = await term.until((s) => s.includes('⏹ Cancelled') && s.includes('Press Ctrl-C again to exit'));
    saveScreen('cancelled', cancelled);
    term.type('\u0003');
    await done;
    expect(session.calls.map((c) => c.method)).toEqual(['setMode', 'send', 'cancel', 'cancel']);
  });

  it('prints each finished block of a streaming answer once (only the unfinished tail re-renders)', async () => {
    const blocks = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of the answer.`);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const session = new FakeCodeSession({
      script: async (ctx) => {
        for (const b of blocks) ctx.agent({ type: 'text_delta', step: 1, delta: b + '\n\n' });
        ctx.agent({ type: 'text_delta', step: 1, delta: 'Still streaming' });
        await gate;
        return 'ok';
      },
    });
    const { term, done } = start(session);
    term.type('write\r');
    await term.until((s) => s.includes('Still streaming') && s.includes('Paragraph 59'));
    // Each finished paragraph was written once, not re-rendered per frame.
    expect(term.written().split('Paragraph 30 of').length - 1).toBe(1);
    release();
    await term.until((s) => s.includes('Ask, /command'));
    term.type('/exit\r');
    await done;
  });

  it('continues on a new line after a trailing backslash, and ↑ recalls the sent message', async () => {
    const session = new FakeCodeSession();
    const { term, done } = start(session);
    term.type('first line\\\r');
    await term.until((s) => s.includes('│   '));
    term.type('second\r');
    await term.until((s) => s.includes('You said: first line'));
    expect(session.calls[0]).toEqual({ method: 'send', args: ['first line\nsecond'] });
    term.type('\u001b[A');
    await term.until((s) => s.includes('❯ first line') && s.includes('│   second'));
    term.type('\u0003');
    await term.until((s) => s.includes('Press Ctrl-C again to exit'));
    term.type('\u0003');
    await done;
  });
});
