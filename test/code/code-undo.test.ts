/**
 * `/undo` reverts the files, the conversation or both, and the model is told what was reverted with the next
 * message; a cancelled tool call stays in the history as "interrupted by the user". A real session over a fake
 * model server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { CodeEvent, CodeSession } from '../../src/code/code-session-types.js';
import { openCodeSession } from '../../src/code/open-code-session.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, FIXED, makeProject } from './code-project.js';
import { lastUserText, messagesOf, textOf } from './tmux-code-session.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;
let session: CodeSession | undefined;

afterEach(async () => {
  await session?.close();
  await server?.close();
  project?.cleanup();
  session = server = project = undefined;
});

async function open(script: FakeReply[]): Promise<{ session: CodeSession; events: CodeEvent[] }> {
  server = await startFakeLlmServer(script);
  project = makeProject(server.url);
  session = await openCodeSession({ cwd: project.dir, env: project.env, mode: 'auto-edit' });
  const events: CodeEvent[] = [];
  const s = session;
  s.subscribe((e) => {
    events.push(e);
    if (e.type === 'approval') s.answerApproval(e.approval.id, { approved: true });
  });
  return { session: s, events };
}

const fix: FakeReply = {
  toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }],
};
const math = (): string => readFileSync(join(project!.dir, 'src', 'math.js'), 'utf8');
const lastNotice = (events: CodeEvent[]): string => events.findLast((e) => e.type === 'notice')?.text ?? '';
const users = (s: CodeSession): number => s.messages().filter((m) => m.role === 'user').length;

describe('/undo and interrupted calls', { timeout: 60_000 }, () => {
  it('/undo (both) restores the files and removes the turn; the model is told with the next message', async () => {
    const { session: s, events } = await open([fix, { text: 'Fixed add.' }, { text: 'OK.' }]);
    await s.send('fix add');
    expect(math()).toBe(FIXED);
    await s.command('/undo');
    expect(math()).toBe(BUGGY);
    expect(users(s)).toBe(0);
    expect(lastNotice(events)).toMatch(
      /^Undid turn 1: 1 file\n {2}restored src\/math\.js\n {2}removed turn 1 \("fix add"\) from the conversation/,
    );
    await s.send('what now?');
    const sent = lastUserText(server!.requests.at(-1)!);
    expect(sent).toContain('I undid your last turn (my message "fix add")');
    expect(sent).toContain('these files are back to their content before it: src/math.js');
    expect(sent).toContain('what now?');
    // The removed turn is not in what the model receives.
    expect(messagesOf(server!.requests.at(-1)!).some((m) => textOf(m) === 'Fixed add.')).toBe(false);
  });

  it('/undo files keeps the conversation and says the results shown are out of date; /undo conversation keeps the files', async () => {
    const { session: s, events } = await open([
      fix,
      { text: 'Fixed add.' },
      { text: 'Noted.' },
      fix,
      { text: 'Fixed again.' },
      { text: 'OK.' },
    ]);
    await s.send('fix add');
    await s.command('/undo files');
    expect(math()).toBe(BUGGY);
    expect(users(s)).toBe(1);
    expect(lastNotice(events)).toContain('the conversation is unchanged');
    await s.send('look again');
    expect(lastUserText(server!.requests.at(-1)!)).toMatch(
      /I reverted your file changes of turn 1: these files are back to their content before it: src\/math\.js\. The conversation still shows those changes/,
    );

    await s.send('fix it once more');
    expect(math()).toBe(FIXED);
    await s.command('/undo conversation');
    expect(math()).toBe(FIXED);
    expect(users(s)).toBe(2);
    expect(lastNotice(events)).toContain('the files it changed keep its changes: src/math.js');
    await s.send('and now?');
    expect(lastUserText(server!.requests.at(-1)!)).toContain(
      'I removed your last turn (my message "fix it once more") from the conversation. The files it changed were NOT reverted and still hold its changes: src/math.js.',
    );
  });

  it('a cancelled tool call stays in the history as interrupted by the user', async () => {
    const { session: s } = await open([
      { toolCalls: [{ id: 'slow', name: 'bash', arguments: { command: 'touch started.txt && sleep 30' } }] },
      { text: 'I see it was interrupted.' },
    ]);
    const turn = s.send('run the slow thing');
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(project!.dir, 'started.txt'))) {
      if (Date.now() > deadline) throw new Error('the command did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    s.cancel();
    expect((await turn).status).toBe('cancelled');
    await s.send('what happened?');
    const sent = messagesOf(server!.requests.at(-1)!);
    const call = sent.find((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.id === 'slow'));
    expect(call?.tool_calls?.[0].function.name).toBe('bash');
    expect(textOf(sent.find((m) => m.role === 'tool' && m.tool_call_id === 'slow'))).toContain('Interrupted by the user');
  });

  it('/compact that would make the history longer changes nothing: same session, nothing redrawn', async () => {
    const { session: s, events } = await open([
      { text: 'a' },
      { text: 'b' },
      { text: 'c' },
      { text: `Summary: ${'very long '.repeat(400)}` },
    ]);
    for (const q of ['one', 'two', 'three']) await s.send(q);
    const id = s.id;
    await s.command('/compact');
    expect(lastNotice(events)).toMatch(/^Not compacted: the summary \(\d+ tokens\) would not be shorter than the conversation/);
    expect(s.id).toBe(id);
    expect(events.some((e) => e.type === 'transcript')).toBe(false);
    expect(users(s)).toBe(3);
  });
});
