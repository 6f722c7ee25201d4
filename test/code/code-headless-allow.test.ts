/**
 * Headless `corvid code -p` in a CI container without bubblewrap: `--allow` (and `code.allow` in corvid.yaml)
 * lets the listed command prefixes run in auto-edit mode, other commands are denied with hints that do not name
 * the mode in use, and `--dangerously-run-unsandboxed` allows yolo with a warning on stderr. Real processes, a fake
 * model server.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, FIXED, makeProject } from './code-project.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  server = undefined;
  project = undefined;
});

const bash = (id: string, command: string): FakeReply => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] });
const PWN = `node -e "require('fs').writeFileSync('PWNED','x')"`;

/** The result the model received for tool call `id` (in the last request). */
function resultOf(s: FakeLlmServer, id: string): string {
  const last = s.requests[s.requests.length - 1].body as { messages: Array<{ role: string; tool_call_id?: string; content: unknown }> };
  const m = last.messages.find((x) => x.role === 'tool' && x.tool_call_id === id);
  return m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
}

/** The fix task of a CI job: run the tests, fix, run them again; then a command nobody allowed. */
const ciScript = (): FakeReply[] => [
  bash('t1', 'npm test'),
  { toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }] },
  bash('t2', 'node --test'),
  bash('x1', PWN),
  { text: 'Fixed add; the tests pass.' },
];

describe('corvid code -p in a container without the sandbox', { timeout: 90_000 }, () => {
  it('--allow "npm test" --allow "node --test" runs those in auto-edit mode and denies the rest', async () => {
    server = await startFakeLlmServer(ciScript());
    project = makeProject(server.url);
    const args = [
      'code',
      '-p',
      'fix the failing test',
      '--mode',
      'auto-edit',
      '--no-sandbox',
      '--allow',
      'npm test',
      '--allow',
      'node --test',
    ];
    const r = await runCli(args, { cwd: project.dir, env: project.env, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Fixed add; the tests pass.\n');
    expect(readFileSync(join(project.dir, 'src', 'math.js'), 'utf8')).toBe(FIXED);
    // npm test ran (and failed) before the fix; node --test ran after it and passed.
    expect(JSON.stringify(server.requests[1].body.messages)).toContain('FAIL add(2, 3) = -1');
    expect(resultOf(server, 't2')).toMatch(/"exitCode":\s*0/);
    // node -e was not covered: denied, not run; the hints never suggest the mode in use.
    expect(existsSync(join(project.dir, 'PWNED'))).toBe(false);
    const denial = resultOf(server, 'x1');
    expect(denial).toContain('Denied: corvid code runs headless in auto-edit mode');
    expect(denial).not.toContain('--mode auto-edit');
    expect(denial).toContain('--dangerously-run-unsandboxed');
  });

  it('code.allow in corvid.yaml works like --allow; a bare interpreter is refused as a rule', async () => {
    server = await startFakeLlmServer([bash('t1', 'npm test'), { text: 'It fails: add subtracts.' }]);
    project = makeProject(server.url);
    const yaml = join(project.dir, 'corvid.yaml');
    writeFileSync(yaml, `${readFileSync(yaml, 'utf8')}code:\n  allow:\n    - npm test\n`);
    const r = await runCli(['code', '-p', 'why does the test fail?', '--mode', 'auto-edit', '--no-sandbox'], {
      cwd: project.dir,
      env: project.env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(resultOf(server, 't1')).toContain('FAIL add(2, 3) = -1');

    const bad = await runCli(['code', '-p', 'hi', '--allow', 'node'], { cwd: project.dir, env: project.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--allow "node" is not a command prefix corvid code accepts');
  });

  it('--dangerously-run-unsandboxed allows yolo without bubblewrap and says so on stderr', async () => {
    server = await startFakeLlmServer([bash('t1', 'node test.js'), { text: 'Ran it.' }]);
    project = makeProject(server.url);
    const refused = await runCli(['code', '-p', 'run the tests', '--mode', 'yolo', '--no-sandbox'], { cwd: project.dir, env: project.env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--dangerously-run-unsandboxed');
    const r = await runCli(['code', '-p', 'run the tests', '--mode', 'yolo', '--dangerously-run-unsandboxed'], {
      cwd: project.dir,
      env: project.env,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^corvid code: WARNING: --dangerously-run-unsandboxed: .*unconfined/m);
    expect(resultOf(server, 't1')).toContain('FAIL add(2, 3) = -1');
  });
});
