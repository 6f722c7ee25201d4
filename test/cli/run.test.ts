import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { closedPort, type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, fakeModel, runCli, spawnCli, STACK_LINE, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir();
const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };
let server: FakeLlmServer | undefined;

/** Writes the config: `boss` delegates to `geo` (an agent tool); both use the model at `url`. */
function configure(url: string): void {
  writeConfig(
    tmp.dir,
    `models:\n${fakeModel(url)}
agents:
  boss:
    model: fake
    instructions: You delegate geography questions.
    agent_tools: [geo]
  geo:
    model: fake
    instructions: You know capitals.
`,
  );
}

async function serve(script: FakeScript): Promise<FakeLlmServer> {
  server = await startFakeLlmServer(script);
  configure(server.url);
  return server;
}

/**
 * "Capital of Peru?" asked of boss, recorded: boss thinks "Ask geo." and calls ask_geo, geo answers
 * "Lima.", boss answers "It is Lima.". Replayed with no model server (the config names a closed port):
 * a call the cassette does not have fails the run.
 */
const DELEGATION = ['--cassette', join(import.meta.dirname, '..', 'fixtures', 'cassettes', 'cli-run-delegation.cassette.json'), '--replay'];

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

/** The user texts of a Chat Completions request. */
const userTexts = (body: { messages: Array<{ role: string; content: unknown }> }): string[] =>
  body.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

describe('corvid run', () => {
  it('prints only the answer on stdout', async () => {
    const s = await serve([{ text: 'Lima is the capital of Peru.' }]);
    const r = await runCli(['run', '-q', 'Capital of Peru?', '--agent', 'geo'], opts);
    expect(r).toEqual({ code: 0, stdout: 'Lima is the capital of Peru.\n', stderr: '' });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0].body.messages[0]).toMatchObject({ role: 'system', content: 'You know capitals.' });
    expect(userTexts(s.requests[0].body)).toEqual(['Capital of Peru?']);
  });

  it('uses the default (first) agent and accepts the question as words', async () => {
    const s = await serve([{ text: 'Hello.' }]);
    const r = await runCli(['run', 'say', 'hello'], opts);
    expect(r.stdout).toBe('Hello.\n');
    expect(s.requests[0].body.messages[0].content).toBe('You delegate geography questions.');
    expect(userTexts(s.requests[0].body)).toEqual(['say hello']);
  });

  it('reads the question from stdin with -q -', async () => {
    const s = await serve([{ text: 'Four.' }]);
    const r = await runCli(['run', '-q', '-', '--agent', 'geo'], { ...opts, input: 'What is 2+2?\nAnswer briefly.\n' });
    expect(r).toMatchObject({ code: 0, stdout: 'Four.\n' });
    expect(userTexts(s.requests[0].body)).toEqual(['What is 2+2?\nAnswer briefly.']);
  });

  it('prints every event as NDJSON with --json, nested agent events included', async () => {
    configure(`http://127.0.0.1:${await closedPort()}`);
    const r = await runCli(['run', '-q', 'Capital of Peru?', '--json', ...DELEGATION], opts);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.endsWith('\n')).toBe(true);
    const events = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; path: string[]; [k: string]: unknown });
    const top = events.filter((e) => e.path.length === 1).map((e) => e.type);
    const dedupe = top.filter((t, i) => t !== top[i - 1]);
    expect(dedupe).toEqual([
      'run_start',
      'step_start',
      'reasoning_delta',
      'tool_call',
      'tool_result',
      'step_end',
      'step_start',
      'text_delta',
      'step_end',
      'answer',
      'run_end',
    ]);
    const nested = events.filter((e) => e.path.length === 2);
    expect(nested[0]).toMatchObject({ type: 'run_start', path: ['boss', 'geo'], input: 'Capital of Peru?' });
    expect(nested.at(-1)).toMatchObject({ type: 'run_end', status: 'completed' });
    // The nested run happens between the tool call and its result.
    const idx = (pred: (e: (typeof events)[number]) => boolean) => events.findIndex(pred);
    expect(idx((e) => e.type === 'tool_call')).toBeLessThan(idx((e) => e.path.length === 2));
    expect(idx((e) => e.type === 'tool_result')).toBeGreaterThan(events.findLastIndex((e) => e.path.length === 2));
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ toolName: 'ask_geo', output: 'Lima.', isError: false });
    expect(events.at(-2)).toMatchObject({ type: 'answer', text: 'It is Lima.' });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'completed', steps: 2 });
  });

  it('prints readable steps on stderr with --verbose', async () => {
    configure(`http://127.0.0.1:${await closedPort()}`);
    const r = await runCli(['run', '-q', 'Capital of Peru?', '--verbose', ...DELEGATION], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('It is Lima.\n');
    expect(r.stderr).toMatch(/step 1\/10/);
    expect(r.stderr).toMatch(/thinking Ask geo\./);
    expect(r.stderr).toMatch(/→ ask_geo \{"message":"Capital of Peru\?"\}/);
    expect(r.stderr).toMatch(/ {2}boss > geo step 1\/10/);
    expect(r.stderr).toMatch(/← ask_geo Lima\./);
    expect(r.stderr).toMatch(/2 steps · \d+ in · \d+ out tokens/);
    expect(r.stderr).not.toContain('\u001b[');
    // Another question is not on the cassette: the run fails, saying what differs.
    const miss = await runCli(['run', '-q', 'Capital of Chile?', ...DELEGATION], opts);
    expect(miss.code).toBe(1);
    expect(miss.stderr).toContain('recorded "Capital of Peru?" → now "Capital of Chile?"');
  });

  it('fails with a clean message and exit 1 when the provider fails (no retries)', async () => {
    const s = await serve([{ status: 500, errorMessage: 'The engine exploded.' }]);
    const r = await runCli(['run', '-q', 'hi'], opts);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*HTTP 500.*The engine exploded\./);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(s.requests).toHaveLength(1);
  });

  it('ends the NDJSON with error and run_end on failure', async () => {
    await serve([{ status: 500 }]);
    const r = await runCli(['run', '-q', 'hi', '--json'], opts);
    expect(r.code).toBe(1);
    const events = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; status?: string; error?: { code: string } });
    expect(events.at(-2)).toMatchObject({ type: 'error', error: { code: 'provider_error' } });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'failed' });
    expect(r.stderr).toMatch(/HTTP 500/);
  });

  it('prints the stack only with --debug', async () => {
    await serve([{ status: 500 }, { status: 500 }]);
    const plain = await runCli(['run', '-q', 'hi'], opts);
    expect(plain.stderr).not.toMatch(STACK_LINE);
    const debug = await runCli(['run', '-q', 'hi', '--debug'], opts);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(STACK_LINE);
  });

  it('cancels on SIGINT (Ctrl-C) with exit 130 and an aborted run_end', async () => {
    let arrived!: () => void;
    const slow = new Promise<void>((resolve) => (arrived = resolve));
    await serve(() => (arrived(), { text: 'too late', delayMs: 30_000 }));
    const p = spawnCli(['run', '-q', 'hi', '--json', '--agent', 'geo'], opts);
    await slow;
    p.child.kill('SIGINT');
    expect(await p.exit(5000)).toBe(130);
    const events = p.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; status?: string });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'aborted' });
    expect(p.stderr).toBe('cancelled\n');
  });

  it('cancels mid-stream on SIGTERM from outside: exit 130, an aborted run_end, the provider connection closed', async () => {
    const s = await serve(() => ({ text: 'one two three four five six seven eight', chunkDelayMs: 1000 }));
    const p = spawnCli(['run', '-q', 'hi', '--json', '--agent', 'geo'], opts);
    // Once the first words have streamed out, the run is killed politely.
    await expect.poll(() => p.stdout.includes('text_delta'), { timeout: 10_000 }).toBe(true);
    const killedAt = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exit(5000)).toBe(130);
    expect(Date.now() - killedAt).toBeLessThan(1000);
    const events = p.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; status?: string });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'aborted' });
    expect(p.stderr).toBe('cancelled\n');
    await expect.poll(() => s.requests[0].clientClosedAt, { timeout: 2000 }).toBeDefined();
  });

  it('names the agents when the agent is unknown', async () => {
    await serve([]);
    const r = await runCli(['run', '-q', 'hi', '--agent', 'nobody'], opts);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nobody/);
    expect(r.stderr).toMatch(/boss/);
    expect(r.stderr).toMatch(/geo/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('reports a broken config file with file:line and exit 1, in --json too', async () => {
    const dir = tempDir();
    try {
      writeConfig(dir.dir, 'agents:\n  helper:\n    model: nowhere\n    max_steps: -1\n');
      const r = await runCli(['run', '-q', 'hi'], { cwd: dir.dir, env: cliEnv(dir.dir) });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/corvid\.yaml:3:\d+/);
      expect(r.stderr).toMatch(/corvid\.yaml:4:\d+/);
      expect(r.stderr).not.toMatch(STACK_LINE);

      const json = await runCli(['run', '-q', 'hi', '--json', '-c', 'corvid.yaml'], { cwd: dir.dir, env: cliEnv(dir.dir) });
      expect(json.code).toBe(1);
      const events = json.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string });
      expect(events.map((e) => e.type)).toEqual(['error', 'run_end']);
    } finally {
      dir.cleanup();
    }
  });

  it('reports a missing -c file', async () => {
    const r = await runCli(['run', '-q', 'hi', '-c', 'missing.yaml'], opts);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/missing\.yaml/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });
});
