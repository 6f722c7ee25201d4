import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/storage/index.js';
import { assertBuilt, cliEnv, fakeModel, ROOT, runCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';

const FILES = join(ROOT, 'examples', 'approvals', 'files.mjs');
let server: FakeLlmServer | undefined;
let tmp: { dir: string; cleanup(): void };
let opts: { cwd: string; env: NodeJS.ProcessEnv };

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  server = undefined;
  tmp?.cleanup();
});

async function setup(script: FakeScript): Promise<FakeLlmServer> {
  tmp = tempDir('corvid-durable-cli-');
  opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };
  server = await startFakeLlmServer(script);
  mkdirSync(join(tmp.dir, 'sandbox'));
  for (const f of ['a.txt', 'b.txt']) writeFileSync(join(tmp.dir, 'sandbox', f), 'x');
  writeConfig(
    tmp.dir,
    `models:\n${fakeModel(server.url)}tools:\n  files:\n    module: ${FILES}\nagents:\n  clerk:\n    model: fake\n    instructions: Be brief.\n    tools: [files]\n    require_approval:\n      delete_file: "Delete {path}?"\n`,
  );
  return server;
}

type Body = { messages: Array<{ role: string; content: unknown }> };
const contents = (body: Body) =>
  body.messages.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`);

describe('corvid chat --session', () => {
  it('continues the conversation in a new process', async () => {
    const s = await setup([{ text: 'Hi Ann.' }, { text: 'You are Ann.' }]);
    const first = await runCli(['chat', '--session', 'ann'], { ...opts, input: 'I am Ann\n' });
    expect(first).toMatchObject({ code: 0, stdout: 'Hi Ann.\n' });
    expect(first.stderr).toContain('new session ann');
    const second = await runCli(['chat', '--session', 'ann'], { ...opts, input: 'Who am I?\n' });
    expect(second).toMatchObject({ code: 0, stdout: 'You are Ann.\n' });
    expect(second.stderr).toContain('resumed session ann (2 messages)');
    expect(contents(s.requests[1].body as Body).slice(1)).toEqual([
      expect.stringMatching(/^user: .*I am Ann/),
      expect.stringMatching(/^assistant: .*Hi Ann\./),
      expect.stringMatching(/^user: .*Who am I\?/),
    ]);
    expect(existsSync(join(tmp.dir, '.corvid', 'corvid.db'))).toBe(true);
  });
});

describe('storage.resume: auto', () => {
  it("corvid chat --session first resumes the session's interrupted run, then chats", async () => {
    const s = await setup([{ text: 'Resumed answer.' }, { text: 'Next answer.' }]);
    writeFileSync(
      join(tmp.dir, 'corvid.yaml'),
      `${'storage:\n  resume: auto\n'}models:\n${fakeModel(s.url)}agents:\n  clerk:\n    model: fake\n`,
    );
    // A run that died right after it started: its checkpoint holds the input, not yet in the session.
    const store = await openStore({ driver: 'sqlite', path: join(tmp.dir, '.corvid', 'corvid.db') });
    await store.sessions.create({ id: 'desk', agent: 'clerk' });
    const user = { role: 'user' as const, content: [{ type: 'text' as const, text: 'What happened?' }] };
    await store.checkpoints.save({
      runId: 'run_interrupted',
      sessionId: 'desk',
      agent: 'clerk',
      status: 'running',
      state: {
        v: 1,
        rootAgent: 'clerk',
        agent: 'clerk',
        input: 'What happened?',
        step: 0,
        usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 0 },
        sessionLastSeq: 0,
        pending: [user],
        startedAt: new Date().toISOString(),
      },
    });
    await store.close();

    const r = await runCli(['chat', '--session', 'desk'], { ...opts, input: 'And now?\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('resuming interrupted run run_interrupted');
    expect(r.stderr).toContain('Resumed answer.');
    expect(r.stdout).toBe('Next answer.\n');
    expect(contents(s.requests[1].body as Body)).toEqual([
      expect.stringMatching(/^user: .*What happened\?/),
      expect.stringMatching(/^assistant: .*Resumed answer\./),
      expect.stringMatching(/^user: .*And now\?/),
    ]);
    const after = await openStore({ driver: 'sqlite', path: join(tmp.dir, '.corvid', 'corvid.db') });
    expect((await after.checkpoints.getRun('run_interrupted'))?.status).toBe('completed');
    await after.close();
  });
});

describe('approvals from the CLI', () => {
  it('run --session pauses (exit 3); approve in another process resumes it and prints the answer', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'a.txt' }, id: 'call_1' }] },
      { text: 'Deleted a.txt.' },
    ]);
    const paused = await runCli(['run', '--session', 'job', '-q', 'Delete a.txt'], opts);
    expect(paused.code, paused.stderr).toBe(3);
    expect(paused.stdout).toBe('');
    const id = /(apr_\S+) {2}Delete a\.txt\?/.exec(paused.stderr)?.[1];
    expect(id, paused.stderr).toBeDefined();
    expect(existsSync(join(tmp.dir, 'sandbox', 'a.txt'))).toBe(true);

    const list = await runCli(['approvals', 'list', '--json'], opts);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ id, toolName: 'delete_file', prompt: 'Delete a.txt?', sessionId: 'job', status: 'pending' }),
    ]);
    const runs = JSON.parse((await runCli(['runs', 'list', '--json'], opts)).stdout);
    expect(runs).toEqual([expect.objectContaining({ status: 'paused', agent: 'clerk', sessionId: 'job' })]);

    const approved = await runCli(['approvals', 'approve', id!, '--reason', 'ok'], opts);
    expect(approved, approved.stderr).toMatchObject({ code: 0, stdout: 'Deleted a.txt.\n' });
    expect(existsSync(join(tmp.dir, 'sandbox', 'a.txt'))).toBe(false);
    expect(s.requests).toHaveLength(2);
    expect(JSON.parse((await runCli(['runs', 'list', '--json'], opts)).stdout)).toEqual([
      expect.objectContaining({ runId: runs[0].runId, status: 'completed' }),
    ]);
    // Answering twice is refused clearly.
    const again = await runCli(['approvals', 'approve', id!], opts);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already|no longer pending|answered/i);
  });

  it('a session with a paused run refuses a second turn up front; the paused run still completes when approved', async () => {
    const s = await setup([
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'a.txt' }, id: 'call_1' }] },
      { text: 'Deleted a.txt.' },
      { text: 'Nothing else to delete.' },
    ]);
    const paused = await runCli(['run', '--session', 'job', '-q', 'Delete a.txt'], opts);
    expect(paused.code, paused.stderr).toBe(3);
    const id = /(apr_\S+)/.exec(paused.stderr)![1];
    const runId = JSON.parse((await runCli(['runs', 'list', '--json'], opts)).stdout)[0].runId as string;

    const second = await runCli(['run', '--session', 'job', '-q', 'Delete b.txt'], opts);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Session "job" has a run waiting for approval (run "${runId}"): answer its approvals first`);
    expect(s.requests).toHaveLength(1); // the refused turn never reached the model
    expect(existsSync(join(tmp.dir, 'sandbox', 'b.txt'))).toBe(true);

    const approved = await runCli(['approvals', 'approve', id], opts);
    expect(approved, approved.stderr).toMatchObject({ code: 0, stdout: 'Deleted a.txt.\n' });
    // Once it completed, the session takes the next turn.
    const next = await runCli(['run', '--session', 'job', '-q', 'Anything else?'], opts);
    expect(next, next.stderr).toMatchObject({ code: 0, stdout: 'Nothing else to delete.\n' });
  });

  it('deny --reason: the model sees the reason; --no-resume leaves the run for runs resume', async () => {
    const s = await setup([{ toolCalls: [{ name: 'delete_file', arguments: { path: 'b.txt' }, id: 'call_1' }] }, { text: 'Kept b.txt.' }]);
    const paused = await runCli(['run', '--session', 'job2', '-q', 'Delete b.txt'], opts);
    const id = /(apr_\S+)/.exec(paused.stderr)![1];
    const denied = await runCli(['approvals', 'deny', id, '--reason', 'b.txt is the audit log', '--no-resume'], opts);
    expect(denied.code).toBe(0);
    expect(denied.stderr).toContain('corvid runs resume run_');
    const runId = /corvid runs resume (run_\S+)/.exec(denied.stderr)![1];
    const resumed = await runCli(['runs', 'resume', runId], opts);
    expect(resumed).toMatchObject({ code: 0, stdout: 'Kept b.txt.\n' });
    expect(existsSync(join(tmp.dir, 'sandbox', 'b.txt'))).toBe(true);
    const toolMessage = (s.requests[1].body as Body).messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('b.txt is the audit log');
  });

  it('bad input: unknown ids and a denial without a reason get clear messages', async () => {
    await setup([]);
    const unknownRun = await runCli(['runs', 'resume', 'run_nope'], opts);
    expect(unknownRun.code).toBe(1);
    expect(unknownRun.stderr).toContain('Unknown run "run_nope"');
    const unknownApproval = await runCli(['approvals', 'approve', 'apr_nope'], opts);
    expect(unknownApproval.code).toBe(1);
    expect(unknownApproval.stderr).toMatch(/apr_nope/);
    const noReason = await runCli(['approvals', 'deny', 'apr_x'], opts);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('needs --reason');
    const badStatus = await runCli(['runs', 'list', '--status', 'done'], opts);
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toContain('--status must be running, paused, completed, failed');
    expect((await runCli(['runs', 'list'], opts)).stderr).toContain('No runs in ');
  });
});
