/**
 * The engine's handling of what a message carries besides its text, and of shell commands in `/undo`: `@path`
 * mentions attach the files (through `read_file`, so refused paths stay refused), and `/undo` names the shell
 * commands of the turn it undoes (their effects are not recorded, so not reverted).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { CodeEvent, CodeSession } from '../../src/code/code-session-types.js';
import { mentionedPaths } from '../../src/code/file-mentions.js';
import { openCodeSession } from '../../src/code/open-code-session.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, FIXED, makeProject } from './code-project.js';
import { lastUserText } from './tmux-code-session.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;
let session: CodeSession | undefined;

afterEach(async () => {
  await session?.close();
  await server?.close();
  project?.cleanup();
  session = server = project = undefined;
});

/** Opens a session on a fresh project; every approval is answered yes. */
async function open(script: FakeReply[]): Promise<{ session: CodeSession; events: CodeEvent[] }> {
  server = await startFakeLlmServer(script);
  project = makeProject(server.url);
  const s = await openCodeSession({ cwd: project.dir, env: project.env, sandbox: false });
  session = s;
  const events: CodeEvent[] = [];
  s.subscribe((e) => {
    events.push(e);
    if (e.type === 'approval') s.answerApproval(e.approval.id, { approved: true });
  });
  return { session: s, events };
}

const notices = (events: CodeEvent[]): string[] => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));

describe('@path mentions', { timeout: 60_000 }, () => {
  it('finds mentions at word starts, without sentence punctuation, once each', () => {
    expect(mentionedPaths('look at @src/a.ts, then @b.md. Mail me@example.com; @src/a.ts again (@c/d.js)')).toEqual(['src/a.ts', 'b.md']);
    expect(mentionedPaths('@x.ts at the start\nand @y on a new line')).toEqual(['x.ts', 'y']);
  });

  it('attaches mentioned files to what the model receives; unknown names pass, refused files are not sent and the user is told', async () => {
    const { session: s, events } = await open([{ text: 'ok' }]);
    writeFileSync(join(project!.dir, '.env'), 'SECRET=hunter2\n');
    const result = await s.send('compare @src/math.js with @test.js; keep @Component as it is; see @.env');
    expect(result.status).toBe('completed');
    const sent = lastUserText(server!.requests[0]);
    expect(sent.startsWith('compare @src/math.js with @test.js; keep @Component as it is; see @.env\n')).toBe(true);
    expect(sent).toContain('<file path="src/math.js" lines="1-3 of 3">\n1\texport function add(a, b) {\n2\t  return a - b;');
    expect(sent).toContain('<file path="test.js" lines="1-3 of 3">');
    expect(sent).not.toContain('hunter2');
    expect(notices(events).join('\n')).toMatch(/@\.env is not attached: .*\.env/);
    // The transcript keeps the message as typed.
    expect(events.find((e) => e.type === 'turn_start')).toMatchObject({
      input: 'compare @src/math.js with @test.js; keep @Component as it is; see @.env',
    });
  });
});

describe('/undo and shell commands', { timeout: 60_000 }, () => {
  it("names the turn's shell commands as not reverted; a turn with only commands is undone on its own", async () => {
    const call = (id: string, name: string, args: unknown): FakeReply => ({ toolCalls: [{ id, name, arguments: args }] });
    const { session: s, events } = await open([
      call('e1', 'edit_file', { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' }),
      call('b1', 'bash', { command: 'node test.js' }),
      { text: 'fixed and tested' },
      call('b2', 'bash', { command: 'echo made > made.txt' }),
      { text: 'made a file' },
    ]);
    await s.send('fix add and test');
    await s.send('make a file');
    expect(readFileSync(join(project!.dir, 'made.txt'), 'utf8')).toBe('made\n');

    await s.command('/undo files');
    expect(notices(events).at(-1)).toBe(
      "Undid turn 2: no file edits to restore\n  not reverted: what the turn's shell command changed (check with git status)\n    $ echo made > made.txt\n  the conversation is unchanged (/undo conversation removes the turn); the model is told",
    );
    // The shell command's file stays (it was never recorded); the earlier turn is still there to undo.
    expect(readFileSync(join(project!.dir, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(join(project!.dir, 'src', 'math.js'), 'utf8')).toBe(FIXED);

    await s.command('/undo files');
    expect(notices(events).at(-1)).toBe(
      "Undid turn 1: 1 file\n  restored src/math.js\n  not reverted: what the turn's shell command changed (check with git status)\n    $ node test.js\n  the conversation is unchanged (/undo conversation removes the turn); the model is told",
    );
    expect(readFileSync(join(project!.dir, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
    await s.command('/undo files');
    expect(notices(events).at(-1)).toMatch(/^Nothing to undo/);
  });
});
