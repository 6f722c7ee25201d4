import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { CodeEvent, CodeSession } from '../../src/code/code-session-types.js';
import { openCodeSession, type OpenCodeSessionOptions, sandboxWorks } from '../../src/code/open-code-session.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, FIXED, makeProject } from './code-project.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;
const sessions: CodeSession[] = [];

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

async function open(script: FakeReply[], options: OpenCodeSessionOptions = {}): Promise<{ session: CodeSession; events: CodeEvent[] }> {
  server ??= await startFakeLlmServer(script);
  project ??= makeProject(server.url);
  const session = await openCodeSession({ cwd: project.dir, env: project.env, ...options });
  sessions.push(session);
  const events: CodeEvent[] = [];
  session.subscribe((e) => {
    events.push(e);
    // Approve every edit and command (the tests that deny answer themselves).
    if (e.type === 'approval' && options.headless !== true) session.answerApproval(e.approval.id, { approved: true });
  });
  return { session, events };
}

/** Resolves once `condition()` holds (checked every 20 ms; fails after 10 s). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const notices = (events: CodeEvent[]): string[] => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));
const call = (name: string, args: unknown, id = `c_${Math.random().toString(36).slice(2, 8)}`): FakeReply => ({
  toolCalls: [{ id, name, arguments: args }],
});

describe('openCodeSession', { timeout: 60_000 }, () => {
  it('/undo restores the last turn (a new file is removed again), also after the session is reopened; /diff shows the session', async () => {
    const { session, events } = await open(
      [
        call('edit_file', { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' }),
        { text: 'fixed' },
        call('write_file', { path: 'src/util.js', content: 'export const one = 1;\n' }),
        call('edit_file', { path: 'src/math.js', old_string: 'a + b', new_string: '(a + b) * one' }),
        { text: 'added util' },
      ],
      { mode: 'default' },
    );
    const first = await session.send('fix add');
    expect(first).toMatchObject({ status: 'completed', text: 'fixed', changedFiles: ['src/math.js'] });
    const second = await session.send('use a util');
    expect(second.changedFiles.sort()).toEqual(['src/math.js', 'src/util.js']);
    expect(events.filter((e) => e.type === 'approval').map((e) => (e.type === 'approval' ? e.approval.preview : ''))[0]).toContain(
      '+  return a + b;',
    );

    await session.command('/diff');
    const diff = notices(events).at(-1)!;
    expect(diff).toContain('+++ b/src/math.js');
    expect(diff).toContain('+  return (a + b) * one;');
    expect(diff).toContain('src/util.js (new)');
    const id = session.id;
    await session.close();

    // Reopened (--resume): the snapshots came with the session.
    const again = await open([], { resume: id });
    expect(again.session.messages().filter((m) => m.role === 'user')).toHaveLength(2);
    await again.session.command('/undo');
    expect(notices(again.events).at(-1)).toMatch(
      /Undid turn 2: 2 files\n {2}restored src\/math\.js\n {2}removed src\/util\.js \(it was new\)/,
    );
    expect(readFileSync(join(project!.dir, 'src', 'math.js'), 'utf8')).toBe(FIXED);
    expect(existsSync(join(project!.dir, 'src', 'util.js'))).toBe(false);
    await again.session.command('/undo');
    expect(readFileSync(join(project!.dir, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
    await again.session.command('/undo');
    expect(notices(again.events).at(-1)).toMatch(/Nothing to undo/);
  });

  it('cancel() stops a running command; the session stays consistent and the next turn works', async () => {
    if (!(await sandboxWorks(process.cwd()))) console.log('note: bubblewrap does not work here; the command runs unconfined');
    const { session, events } = await open(
      [call('bash', { command: 'echo started > started.txt; sleep 30' }), { text: 'second turn answered' }],
      {
        mode: 'auto-edit',
      },
    );
    const turn = session.send('wait a while');
    // The command is running once its first effect is visible.
    await until(() => existsSync(join(project!.dir, 'started.txt')));
    const t0 = Date.now();
    session.cancel();
    const result = await turn;
    expect(result.status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(session.status().busy).toBe(false);
    const next = await session.send('are you there?');
    expect(next).toMatchObject({ status: 'completed', text: 'second turn answered' });
    // The stored conversation has both inputs and no tool call without its result.
    const stored = session.messages();
    expect(stored.filter((m) => m.role === 'user')).toHaveLength(2);
    const calls = stored.flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call') : []));
    const results = stored.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(calls.length).toBe(results.length);
    expect(events.some((e) => e.type === 'turn_end' && e.result.status === 'cancelled')).toBe(true);
  });

  it('modes: ask refuses edits, a mode switch takes effect on the next call, yolo is refused without the sandbox', async () => {
    const { session, events } = await open(
      [
        call('write_file', { path: 'notes.txt', content: 'x' }),
        { text: 'could not write' },
        call('write_file', { path: 'notes.txt', content: 'y' }),
        { text: 'wrote it' },
      ],
      { mode: 'ask', sandbox: false },
    );
    await session.send('write notes');
    expect(existsSync(join(project!.dir, 'notes.txt'))).toBe(false);
    session.setMode('yolo');
    expect(session.status().mode).toBe('ask');
    expect(notices(events).at(-1)).toMatch(/yolo mode needs the shell sandbox/);
    session.setMode('auto-edit');
    await session.send('write notes now');
    expect(readFileSync(join(project!.dir, 'notes.txt'), 'utf8')).toBe('y');
    await expect(openCodeSession({ cwd: project!.dir, env: project!.env, mode: 'yolo', sandbox: false })).rejects.toThrow(
      /yolo mode .* needs the shell sandbox: drop --no-sandbox/,
    );
  });

  it('lists and resumes sessions of the folder, completes @paths, reports cost and status', async () => {
    const { session, events } = await open([{ text: 'hello', usage: { input: 1000, output: 100 } }], {});
    await session.send('first session');
    const firstId = session.id;
    await session.command('/clear');
    expect(session.id).not.toBe(firstId);
    expect(events).toContainEqual({ type: 'transcript', messages: [] });
    await session.command('/sessions');
    expect(notices(events).at(-1)).toContain(`${firstId}  `);
    expect(notices(events).at(-1)).toContain('first session');
    await session.command('/resume');
    expect(session.id).toBe(firstId);
    expect(session.messages()).toHaveLength(2);
    expect(session.status().usage.totalTokens).toBe(1100);
    expect(await session.completePath('src/m')).toEqual(['src/math.js']);
    expect(await session.completePath('')).toEqual(expect.arrayContaining(['src/', 'test.js', 'AGENTS.md']));
    expect(await session.completePath('../')).toEqual([]);
    await session.command('/model openai:gpt-4.1-mini');
    expect(session.status()).toMatchObject({ model: 'openai:gpt-4.1-mini', costUsd: (1000 * 0.4 + 100 * 1.6) / 1e6 });
    await session.command('/nope');
    expect(notices(events).at(-1)).toMatch(/Unknown command "\/nope"/);
  });

  it('without corvid.yaml, takes the model from CORVID_MODEL in the folder .env', async () => {
    server = await startFakeLlmServer([{ text: 'hi from .env' }]);
    project = makeProject(server.url);
    const { rmSync } = await import('node:fs');
    rmSync(join(project.dir, 'corvid.yaml'));
    await expect(openCodeSession({ cwd: project.dir, env: project.env })).rejects.toThrow(/corvid code has no model to use/);
    writeFileSync(join(project.dir, '.env'), `CORVID_MODEL=openai-compatible:test\nCORVID_BASE_URL=${server.url}/v1\n`);
    const session = await openCodeSession({ cwd: project.dir, env: project.env });
    sessions.push(session);
    expect(session.status().model).toBe('openai-compatible:test');
    const r = await session.send('hello');
    expect(r.error).toBeUndefined();
    expect(r).toMatchObject({ status: 'completed', text: 'hi from .env' });
  });

  it('without a config or a key, says how to choose a model', async () => {
    server = await startFakeLlmServer([]);
    project = makeProject(server.url);
    writeFileSync(join(project.dir, 'corvid.yaml'), 'agents: {}\n');
    await expect(openCodeSession({ cwd: project.dir, env: project.env })).rejects.toThrow(/corvid code has no model to use[\s\S]*--model/);
  });

  it('/compact continues in a session holding a summary and the recent turns; /init writes AGENTS.md', async () => {
    const replies: FakeReply[] = [];
    for (let i = 1; i <= 4; i++) replies.push({ text: `answer ${i} ${'lorem ipsum '.repeat(40)}` });
    replies.push({ text: 'SUMMARY: the user asked four questions about the calculator.' });
    replies.push({ text: 'I will not write files.' });
    const { session, events } = await open(replies, {});
    for (let i = 1; i <= 4; i++) await session.send(`question ${i}`);
    const before = session.id;
    await session.command('/compact');
    expect(notices(events).at(-1)).toMatch(/^Compacted \d+ messages .*summarize\); continuing in session ses_/);
    expect(session.id).not.toBe(before);
    const kept = session.messages();
    expect(JSON.stringify(kept[0])).toContain('SUMMARY: the user asked four questions');
    expect(JSON.stringify(kept.at(-1))).toContain('answer 4');
    expect(kept.length).toBeLessThan(8);

    await rmAgents();
    await session.command('/init');
    expect(notices(events).at(-1)).toMatch(/The model did not write AGENTS\.md; wrote a template to fill in/);
    expect(readFileSync(join(project!.dir, 'AGENTS.md'), 'utf8')).toContain('- `npm run test`');
  });
});

describe('openCodeSession context', { timeout: 60_000 }, () => {
  it("compacts a long session automatically before the model's context_window: older turns are summarised by the model", async () => {
    const answer = (i: number): FakeReply => ({ text: `answer ${i} ${'lorem ipsum '.repeat(300)}` });
    let n = 0;
    server = await startFakeLlmServer((req) => {
      const body = JSON.stringify(req.body);
      if (body.includes('Summarise the conversation below')) return { text: 'SUMMARY: four questions about the calculator.' };
      return answer(++n);
    });
    project = makeProject(server.url);
    const yaml = readFileSync(join(project.dir, 'corvid.yaml'), 'utf8').replace(
      '      max_retries: 0\n',
      '      max_retries: 0\n    context_window: 6000\n',
    );
    writeFileSync(join(project.dir, 'corvid.yaml'), yaml);
    const session = await openCodeSession({ cwd: project.dir, env: project.env });
    sessions.push(session);
    const events: CodeEvent[] = [];
    session.subscribe((e) => events.push(e));
    for (let i = 1; i <= 8; i++) await session.send(`question ${i}`);
    const compacted = events.flatMap((e) => (e.type === 'agent' && e.event.type === 'context_compacted' ? [e.event] : []));
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]).toMatchObject({ strategy: 'summarize' });
    expect(compacted[0]!.tokensAfter).toBeLessThanOrEqual(4800);
    const last = JSON.stringify(server.requests.at(-1)!.body);
    expect(last).toContain('SUMMARY: four questions about the calculator.');
    expect(last).toContain('question 8');
    expect(last).not.toContain('question 1"');
  });
});

describe('openCodeSession with a corvid.yaml agent', { timeout: 60_000 }, () => {
  it('--agent adds the agent instructions and tools; --model overrides its model', async () => {
    server = await startFakeLlmServer([{ text: 'Bonjour.' }]);
    project = makeProject(server.url);
    const yaml = readFileSync(join(project.dir, 'corvid.yaml'), 'utf8').replace('defaults:\n  model: fake\n', '');
    writeFileSync(
      join(project.dir, 'corvid.yaml'),
      `${yaml}  other:\n    provider: openai-compatible\n    base_url: ${server.url}/v1\n    model: other-model\n` +
        `agents:\n  reviewer:\n    model: fake\n    instructions: Always answer in French.\n`,
    );
    const session = await openCodeSession({ cwd: project.dir, env: project.env, agent: 'reviewer', model: 'other' });
    sessions.push(session);
    expect(session.status().model).toBe('openai-compatible:other-model');
    await session.send('hello');
    const body = server.requests[0].body as {
      model: string;
      messages: Array<{ role: string; content: string }>;
      tools: Array<{ function: { name: string } }>;
    };
    expect(body.model).toBe('other-model');
    expect(body.messages[0].content).toContain('You are corvid code');
    expect(body.messages[0].content).toContain('Always answer in French.');
    expect(body.tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['read_file', 'edit_file', 'bash']));
    await expect(openCodeSession({ cwd: project.dir, env: project.env, agent: 'nobody' })).rejects.toThrow(/nobody/);
  });
});

async function rmAgents(): Promise<void> {
  const { rm } = await import('node:fs/promises');
  await rm(join(project!.dir, 'AGENTS.md'));
}
