/**
 * Headless `corvid code -p --json` ended by SIGTERM (a cancelled CI job): the turn ends as cancelled and the NDJSON
 * stream still ends with its `turn_end`. A real process over a fake model server that is slow to answer.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { assertBuilt, runCli, spawnCli } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';

let server: FakeLlmServer | undefined;
let project: CodeProject | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await server?.close();
  project?.cleanup();
  server = project = undefined;
});

describe('corvid code -p --json and SIGTERM', { timeout: 60_000 }, () => {
  it('--help says the terminal UI is bundled (nothing to install)', async () => {
    const r = await runCli(['code', '--help'], { cwd: process.cwd(), env: process.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('full-screen UI (bundled with');
    expect(r.stdout).not.toContain('ink react');
  });

  it('writes a final turn_end (cancelled) and exits 143', async () => {
    server = await startFakeLlmServer([{ text: 'too late', delayMs: 30_000 }]);
    project = makeProject(server.url);
    const p = spawnCli(['code', '-p', 'take your time', '--json'], { cwd: project.dir, env: project.env });
    await p.waitFor('"type":"turn_start"', { timeoutMs: 30_000 });
    p.child.kill('SIGTERM');
    const code = await p.exit(20_000);
    expect(code).toBe(143);
    const events = p.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; result?: { status: string } });
    // The turn's end is the last event but the status update that follows it.
    expect(events.filter((e) => e.type !== 'status').at(-1)).toMatchObject({ type: 'turn_end', result: { status: 'cancelled' } });
  });
});
