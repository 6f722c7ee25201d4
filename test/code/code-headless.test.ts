import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { BUGGY, type CodeProject, FIXED, fixTaskScript, makeProject } from './code-project.js';

/** yolo mode needs a working bubblewrap sandbox. */
const sandbox = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', 'true']).status === 0;
if (!sandbox) console.log('skipping the yolo test: bubblewrap is not installed or cannot start a sandbox here');

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

/** The text of the tool results the model was sent in its last request. */
function toolResultsSent(s: FakeLlmServer): string {
  const last = s.requests[s.requests.length - 1].body as { messages: Array<{ role: string; content: unknown }> };
  return last.messages
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

describe('corvid code -p (headless)', { timeout: 60_000 }, () => {
  it.skipIf(!sandbox)('runs the whole task in yolo mode: read, grep, edit, failing tests, edit, green tests, answer', async () => {
    server = await startFakeLlmServer(fixTaskScript());
    project = makeProject(server.url);
    const r = await runCli(['code', '-p', 'Fix the failing test', '--mode', 'yolo'], {
      cwd: project.dir,
      env: project.env,
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Fixed `add` in src/math.js:2 (it subtracted); `node test.js` passes.\n');
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(FIXED);
    const results = toolResultsSent(server);
    expect(results).toContain('FAIL add(2, 3) = 1');
    expect(results).toContain('ok 1 add');
    // The project instructions reached the model.
    expect(JSON.stringify(server.requests[0].body.messages[0])).toContain('Run the tests with `node test.js`');
  });

  it('auto-edit edits files, and denies shell commands with a reason the model reads', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ id: 'c1', name: 'edit_file', arguments: { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }] },
      { toolCalls: [{ id: 'c2', name: 'bash', arguments: { command: 'node test.js' } }] },
      { text: 'Edited; could not run the tests.' },
    ]);
    project = makeProject(server.url);
    const r = await runCli(['code', '-p', 'fix it', '--mode', 'auto-edit'], { cwd: project.dir, env: project.env, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Edited; could not run the tests.\n');
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(FIXED);
    expect(toolResultsSent(server)).toMatch(/Denied: corvid code runs headless in auto-edit mode/);
  });

  it('default mode denies edits in headless runs; ask mode refuses them outright', async () => {
    for (const mode of ['default', 'ask']) {
      server = await startFakeLlmServer([
        { toolCalls: [{ id: 'c1', name: 'write_file', arguments: { path: 'src/math.js', content: 'gone' } }] },
        { text: 'I could not edit.' },
      ]);
      project = makeProject(server.url);
      const r = await runCli(['code', '-p', 'rewrite math.js', '--mode', mode], { cwd: project.dir, env: project.env, timeoutMs: 30_000 });
      expect(r.code).toBe(0);
      expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(BUGGY);
      expect(toolResultsSent(server)).toMatch(
        mode === 'ask' ? /ask mode \(read-only\)/ : /Denied: corvid code runs headless in default mode/,
      );
      await server.close();
      project.cleanup();
    }
    server = undefined;
    project = undefined;
  });

  it('--json prints one JSON object per event; -p - reads the task from stdin', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ id: 'r', name: 'read_file', arguments: { path: 'src/math.js' } }] },
      { text: 'It subtracts.' },
    ]);
    project = makeProject(server.url);
    const r = await runCli(['code', '-p', '-', '--json'], {
      cwd: project.dir,
      env: project.env,
      input: 'what does add do?\n',
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; event?: { type: string }; input?: string; result?: unknown });
    expect(events[0]).toMatchObject({ type: 'turn_start', input: 'what does add do?' });
    expect(events.filter((e) => e.type === 'agent').map((e) => e.event!.type)).toEqual(
      expect.arrayContaining(['run_start', 'tool_call', 'tool_result', 'text_delta', 'answer', 'run_end']),
    );
    expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ result: { status: 'completed', text: 'It subtracts.' } });
  });

  it('exits 1 with a one-line message when the model fails, and 2 on bad usage', async () => {
    server = await startFakeLlmServer([{ status: 401, errorMessage: 'bad key' }]);
    project = makeProject(server.url);
    const r = await runCli(['code', '-p', 'hi'], { cwd: project.dir, env: project.env, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^corvid code: .*(401|bad key|authentication)/i);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const usage = await runCli(['code', '-p', 'hi', '--mode', 'fast'], { cwd: project.dir, env: project.env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--mode must be one of default, auto-edit, plan, yolo, ask');
  });
});
