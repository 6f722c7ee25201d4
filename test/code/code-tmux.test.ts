/**
 * `corvid code`'s full-screen UI end to end in a real terminal: tmux runs the built CLI in a temporary git project
 * against the fake LLM server; the tests type with `send-keys`, read the screen with `capture-pane`, and save the
 * screens as text snapshots in test-artifacts/code/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, CLI } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, FIXED, fixTaskScript, makeProject } from './code-project.js';
import { processState, Terminal, tmuxMissing } from './tmux-terminal.js';

const missing = tmuxMissing();
if (missing) console.warn(`skipping the tmux tests of corvid code: ${missing}`);

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;
let term: Terminal | undefined;

beforeAll(() => {
  if (!missing) assertBuilt();
});
afterEach(async () => {
  term?.close();
  await server?.close();
  project?.cleanup();
  term = undefined;
  server = undefined;
  project = undefined;
});

const PROMPT = 'Ask, /command, !shell, @file';
const mathJs = (p: CodeProject): string => readFileSync(join(p.dir, 'src', 'math.js'), 'utf8');

/** Starts the project, the fake model and `corvid code <args>` in a terminal of the given size. */
async function start(script: FakeReply[], args: string[] = [], size: { columns?: number; rows?: number } = {}): Promise<Terminal> {
  server = await startFakeLlmServer(script);
  project = makeProject(server.url);
  term = Terminal.start({ command: [process.execPath, CLI, 'code', ...args], cwd: project.dir, env: project.env, ...size });
  // The prompt comes first, then the status line once the session has opened.
  await term.waitFor((s) => s.includes(PROMPT) && !s.includes('starting…'), { timeoutMs: 60_000, what: 'the open session' });
  return term;
}

/** Ids of the processes whose command line is exactly `argv` (e.g. a tool's `sleep`). */
function processesRunning(argv: string[]): number[] {
  const want = argv.join('\0');
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0$/, '') === want) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** Whether process `pid` still runs (a zombie — ended, not yet reaped by tmux — does not). */
function alive(pid: number): boolean {
  const state = processState(pid);
  return state !== undefined && state !== 'Z';
}

/** Every tool call the model sent has its result in the messages of a later request (what real APIs require). */
function toolCallsAnswered(messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>): boolean {
  const results = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  return messages.every((m) => (m.tool_calls ?? []).every((c) => results.has(c.id)));
}

describe.skipIf(missing !== undefined)('corvid code in a real terminal (tmux)', () => {
  it('runs the realistic task at 80×24: approvals y / p / a, the answer, /diff, /undo, /exit', { timeout: 180_000 }, async () => {
    const t = await start(fixTaskScript());
    const first = t.snapshot('01-start');
    expect(first).toMatch(/⏵ default │ openai-compatible:test │ 0 in · 0 out │ ctx 0% │ (sandbox|no sandbox)/);

    t.submit('the test fails, fix it');
    const edit = await t.waitForText('Allow edit_file?');
    t.snapshot('02-approve-edit');
    expect(edit).toContain('❯ the test fails, fix it');
    expect(edit).toContain('● Read src/math.js (3 lines)');
    expect(edit).toMatch(/● Grep "add\\\(" in \. \(2 matches in 2 files\)/);
    expect(edit).toContain('-  return a - b;');
    expect(edit).toContain('+  return b - a;');
    expect(edit).toContain('y yes · n no · a always edit_file');
    // Nothing is written before the answer.
    expect(mathJs(project!)).toBe(BUGGY);
    t.type('y');

    const bash = await t.waitForText('Allow bash?');
    t.snapshot('03-approve-bash');
    expect(bash).toContain('$ node test.js');
    expect(bash).toContain('p always `node test.js`');
    t.type('p');
    // The failing run is shown, then the second edit asks again (y on the first one was for that call only).
    const second = await t.waitForText('Allow edit_file?');
    expect(second).toMatch(/● Bash node test\.js \(exit 1 · [\d.]+m?s\)/);
    expect(second).toContain('FAIL add(2, 3) = 1');
    t.type('a');
    // The second `node test.js` runs without asking (the prefix was allowed), and the answer comes.
    const answer = await t.waitFor((s) => s.includes('node test.js passes') && s.includes(PROMPT), {
      timeoutMs: 60_000,
      what: 'the answer',
    });
    t.snapshot('04-answer');
    expect(answer).toMatch(/● Bash node test\.js \(exit 0 · [\d.]+m?s\)/);
    expect(answer).toContain('ok 1 add');
    expect(answer).toContain('✓ changed src/math.js');
    expect(answer).toContain('900 in · 150 out');
    expect(answer).not.toContain('Allow bash?');
    expect(mathJs(project!)).toBe(FIXED);
    expect(server!.requests).toHaveLength(7);

    t.submit('/diff');
    const diff = await t.waitForText('--- a/src/math.js');
    t.snapshot('05-diff');
    expect(diff).toMatch(
      /--- a\/src\/math\.js\n\+\+\+ b\/src\/math\.js\n@@ -1,3 \+1,3 @@\n export function add\(a, b\) \{\n- {2}return a - b;\n\+ {2}return a \+ b;\n \}/,
    );

    t.submit('/undo');
    const undo = await t.waitForText('Undid turn 1: 1 file');
    t.snapshot('06-undo');
    expect(undo).toContain('restored src/math.js');
    // The turn's shell command is named: what it changed is not reverted.
    expect(undo).toContain("not reverted: what the turn's shell command changed (check with git status)\n    $ node test.js");
    expect(mathJs(project!)).toBe(BUGGY);

    const pid = t.pid();
    t.submit('/exit');
    await t.waitFor(() => !alive(pid), { what: 'the exit' });
    await t.waitFor(() => t.exitStatus() !== undefined, { what: 'the exit status' });
    t.snapshot('07-exit');
    expect(t.exitStatus()).toBe(0);
    // Nothing was printed outside the UI (no stack, no warning) in the whole session.
    expect(t.history()).not.toMatch(/Error|Warning|at .+:\d+:\d+/);
  });

  it('sends the reason of a denial to the model (a wide terminal, 120×40)', { timeout: 180_000 }, async () => {
    const editCall: FakeReply = {
      toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }],
    };
    const t = await start([editCall, { text: 'Understood, I leave `add` as it is.' }], [], { columns: 120, rows: 40 });
    t.submit('fix add');
    await t.waitForText('Allow edit_file?');
    t.type('n');
    await t.waitForText('Reason for the model');
    t.type('keep the subtraction');
    const typing = await t.waitForText('keep the subtraction');
    t.snapshot('wide-01-deny-reason');
    expect(typing).toMatch(/Reason for the model \(Enter sends, empty for none\): keep the subtraction/);
    t.keys('Enter');
    const after = await t.waitFor((s) => s.includes('I leave add as it is') && s.includes(PROMPT), {
      timeoutMs: 60_000,
      what: 'the answer',
    });
    t.snapshot('wide-02-denied');
    expect(after).toContain('● Edit src/math.js (denied: keep the subtraction)');
    expect(mathJs(project!)).toBe(BUGGY);
    expect(server!.requests).toHaveLength(2);
    expect(JSON.stringify(server!.requests[1].body.messages)).toContain('The user said no: keep the subtraction');
  });

  it('Ctrl-C while a slow shell command runs stops it, the prompt returns and the session goes on', { timeout: 180_000 }, async () => {
    const sleep = ['sleep', '41.7'];
    const t = await start([
      { toolCalls: [{ id: 's1', name: 'bash', arguments: { command: sleep.join(' ') } }] },
      { text: 'Yes, the sleep was stopped.' },
    ]);
    t.submit('wait a while');
    await t.waitForText('Allow bash?');
    t.type('y');
    await t.waitFor(() => processesRunning(sleep).length > 0, { what: 'the sleep to start' });
    const running = await t.waitForText(/Bash sleep 41\.7/);
    t.snapshot('08-running');
    expect(running).toContain('Working… type to queue a message, Esc to interrupt');
    const pressed = Date.now();
    t.keys('C-c');
    const cancelled = await t.waitFor((s) => s.includes(PROMPT) && /cancel/i.test(s), { what: 'the cancelled turn and the prompt' });
    t.snapshot('09-cancelled');
    expect(Date.now() - pressed).toBeLessThan(20_000);
    expect(cancelled).toContain('Press Ctrl-C again to exit');
    await t.waitFor(() => processesRunning(sleep).length === 0, { what: 'the sleep to be stopped' });
    expect(t.exitStatus()).toBeUndefined();

    // The session goes on: the next message reaches the model with a consistent history.
    t.submit('did it stop?');
    await t.waitForText('Yes, the sleep was stopped.', { timeoutMs: 60_000 });
    expect(server!.requests).toHaveLength(2);
    const messages = server!.requests[1].body.messages;
    expect(JSON.stringify(messages)).toContain('did it stop?');
    expect(toolCallsAnswered(messages)).toBe(true);
  });

  it('kill -9 mid-session, then --resume shows the transcript and finishes the turn', { timeout: 240_000 }, async () => {
    const t = await start([
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'src/math.js' } }] },
      { toolCalls: [{ id: 'b1', name: 'bash', arguments: { command: 'node test.js' } }] },
      { text: 'The test fails: `add` subtracts (src/math.js:2).' },
    ]);
    t.submit('why does the test fail?');
    await t.waitForText('Allow bash?');
    t.snapshot('10-before-kill');
    const pid = t.pid();
    process.kill(pid, 'SIGKILL');
    // Reaped by tmux (its status known), so the killed program is really gone before the next one starts.
    await t.waitFor(() => t.exitStatus() !== undefined, { what: 'the killed process to be reaped' });
    expect(t.exitStatus()).toBe(137);
    expect(processState(pid)).toBeUndefined();
    expect(server!.requests).toHaveLength(2);

    t.respawn({ command: [process.execPath, CLI, 'code', '--resume'], cwd: project!.dir, env: project!.env });
    const resumed = await t.waitFor((s) => s.includes(PROMPT) && s.includes('was interrupted'), {
      timeoutMs: 60_000,
      what: 'the resumed session',
    });
    t.snapshot('11-resumed');
    expect(resumed).toContain('❯ why does the test fail?');
    expect(resumed).toContain('● Read src/math.js (3 lines)');
    expect(resumed).toContain('The last turn ("why does the test fail?") was interrupted');

    t.submit('/resume');
    await t.waitForText('Allow bash?');
    t.type('y');
    const done = await t.waitFor((s) => s.includes('add subtracts') && s.includes(PROMPT), { timeoutMs: 60_000, what: 'the answer' });
    t.snapshot('12-resumed-answer');
    expect(done).toContain('FAIL add(2, 3) = -1');
    // The question is shown once: the continued turn does not repeat it.
    expect(done.split('❯ why does the test fail?')).toHaveLength(2);
    // The read was not asked for again: the run went on from its checkpoint.
    expect(server!.requests).toHaveLength(3);
  });
});
