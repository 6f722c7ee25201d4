/**
 * `corvid run` while the model is slow to answer: a status line with a clock and the retry
 * countdown on a terminal's stderr, nothing extra when stderr is a pipe, and a first-byte timeout
 * (first_byte_timeout_ms) that gives up on a silent server long before the request timeout.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeReply, startFakeLlmServer } from '../support/fake-llm-server.js';
import { CLI, cliEnv, runCli, spawnCommand, stripAnsi, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir('corvid-run-wait-');
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A config whose model waits `firstByteMs` for the response to start, with one retry after `retryDelayMs`. */
async function slowFirstReply(firstByteMs: number, retryDelayMs: number, replies: FakeReply[]): Promise<string> {
  // The replies repeat, so that several runs see the same story.
  server = await startFakeLlmServer((_req, i) => replies[i % replies.length]);
  return writeConfig(
    tmp.dir,
    [
      'models:',
      '  slow:',
      '    provider: openai-compatible',
      `    base_url: ${server.url}/v1`,
      '    model: test',
      `    first_byte_timeout_ms: ${firstByteMs}`,
      `    retry: { max_retries: 1, initial_delay_ms: ${retryDelayMs}, max_delay_ms: ${retryDelayMs} }`,
      'agents:',
      '  helper: { model: slow }',
      '',
    ].join('\n'),
  );
}

describe('corvid run waiting for the model', () => {
  it('stderr not a terminal: no status line, no control characters; the retry still succeeds', async () => {
    const config = await slowFirstReply(300, 20, [{ text: 'too late', delayMs: 2000 }, { text: 'Recovered.' }]);
    const r = await runCli(['run', '-c', config, '-q', 'hi'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect(r).toEqual({ code: 0, stdout: 'Recovered.\n', stderr: '' });
    expect(server!.requests).toHaveLength(2);

    const verbose = await runCli(['run', '-c', config, '-q', 'hi', '--verbose'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toBe('Recovered.\n');
    expect(verbose.stderr).toMatch(/↻ retry 1 in [\d.]+ m?s: .*failed \(timeout\): no response within 300 ms/);
    // eslint-disable-next-line no-control-regex
    expect(verbose.stderr).not.toMatch(/[\r\u001b⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
  });

  it('a server that never starts answering: gives up after first_byte_timeout_ms per attempt, one error line', async () => {
    const config = await slowFirstReply(250, 20, [
      { text: 'never', delayMs: 5000 },
      { text: 'never', delayMs: 5000 },
    ]);
    const started = performance.now();
    const r = await runCli(['run', '-c', config, '-q', 'hi'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect(performance.now() - started).toBeLessThan(4000);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: openai-compatible model "test" failed \(timeout\) after 2 attempts: no response within 250 ms/);
  });

  it('on a terminal: a spinner with the elapsed time, then "retrying in …", erased before the answer', async () => {
    const config = await slowFirstReply(1200, 1500, [
      { text: 'too late', delayMs: 5000 },
      { text: 'Recovered.', delayMs: 1000 },
    ]);
    const cmd = `${quote(process.execPath)} ${quote(CLI)} run -c ${quote(config)} -q hi`;
    const p = spawnCommand('script', ['-qfec', cmd, '/dev/null'], {
      cwd: tmp.dir,
      env: cliEnv(tmp.dir, { TERM: 'xterm-256color', COLUMNS: '120' }),
    });
    await p.waitFor(/waiting for the model · \ds/, { timeoutMs: 10_000 });
    await p.waitFor(/retrying in [12]s · openai-compatible model "test" failed \(timeout\): no response within 1200 ms/, {
      timeoutMs: 10_000,
    });
    await p.waitFor(/waiting for the model \(attempt 2\)/, { timeoutMs: 10_000 });
    expect(await p.exit(15_000)).toBe(0);
    const raw = p.stdout;
    expect(raw).toContain('\r\u001b[2K');
    // The last thing on the terminal is the answer, after the status line was erased.
    const afterLastClear = raw.slice(raw.lastIndexOf('\u001b[2K') + '\u001b[2K'.length);
    expect(stripAnsi(afterLastClear).trim()).toBe('Recovered.');
  });
});
