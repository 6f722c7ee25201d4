/**
 * `corvid run` (and `corvid code -p`) while the model is slow to answer: a status line with a
 * clock, the model and its host, and the retry countdown on a terminal's stderr; plain lines
 * when stderr is a pipe (one per retry, one every CORVID_WAIT_NOTICE_SECONDS of waiting); and a
 * first-byte timeout (first_byte_timeout_ms) that gives up on a silent server long before the
 * request timeout.
 */
import { mkdirSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { join } from 'node:path';

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

/** `127.0.0.1:<port>` of the fake server. */
const host = (): string => new URL(server!.url).host;
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A loopback server that accepts connections and reads requests but never answers. */
async function startSilentServer(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const srv = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    port: (srv.address() as AddressInfo).port,
    connections: () => count,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => srv.close(() => resolve()));
    },
  };
}

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
  it('stderr not a terminal: one line for the retry, no control characters; the retry succeeds', async () => {
    const config = await slowFirstReply(300, 20, [{ text: 'too late', delayMs: 2000 }, { text: 'Recovered.' }]);
    const r = await runCli(['run', '-c', config, '-q', 'hi'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'Recovered.\n' });
    // One line, no control characters: the retry, what failed, the model and where.
    expect(r.stderr).toMatch(
      new RegExp(
        `^retry 1 in \\d+ ms \\(openai-compatible:test at ${esc(host())}, waiting 0s\\): openai-compatible model "test" failed \\(timeout\\): no response within 300 ms[^\n]*\n$`,
      ),
    );
    expect(server!.requests).toHaveLength(2);

    const verbose = await runCli(['run', '-c', config, '-q', 'hi', '--verbose'], { cwd: tmp.dir, env: cliEnv(tmp.dir) });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toBe('Recovered.\n');
    expect(verbose.stderr).toMatch(/↻ retry 1 in [\d.]+ m?s: .*failed \(timeout\): no response within 300 ms/);
    expect(verbose.stderr).not.toMatch(/^retry 1 in/m); // --verbose prints the retry once
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
    expect(r.stderr).toMatch(
      /^retry 1 in \d+ ms \(openai-compatible:test at 127\.0\.0\.1:\d+, waiting 0s\): .*no response within 250 ms.*\n/,
    );
    expect(r.stderr).toMatch(/\nerror: openai-compatible model "test" failed \(timeout\) after 2 attempts: no response within 250 ms/);
  });

  for (const command of ['run', 'code'] as const) {
    it(`corvid ${command === 'run' ? 'run' : 'code -p'}, a server that accepts and never answers, stderr a pipe: a line per retry and while waiting, naming model and host`, async () => {
      const silent = await startSilentServer();
      try {
        const dir = join(tmp.dir, `silent-${command}`);
        mkdirSync(dir, { recursive: true });
        const config = writeConfig(
          dir,
          [
            'models:',
            '  slow:',
            '    provider: openai-compatible',
            `    base_url: http://127.0.0.1:${silent.port}/v1`,
            '    model: qwen3',
            '    first_byte_timeout_ms: 1500',
            '    retry: { max_retries: 1, initial_delay_ms: 10, max_delay_ms: 10 }',
            'defaults: { model: slow }',
            'agents:',
            '  helper: { model: slow }',
            '',
          ].join('\n'),
        );
        const args = command === 'run' ? ['run', '-c', config, '-q', 'hi'] : ['code', '-c', config, '-p', 'hi', '--mode', 'ask'];
        const env = cliEnv(dir, { CORVID_WAIT_NOTICE_SECONDS: '0.5', CORVID_HOME: join(dir, '.corvid') });
        const r = await runCli(args, { cwd: dir, env, timeoutMs: 20_000 });
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        const at = `openai-compatible:qwen3 at 127.0.0.1:${silent.port}`;
        const lines = r.stderr.split('\n');
        // Both attempts wait 1.5 s: a line each half second, the retry between them, then the error.
        const retry = lines.findIndex((l) => l.startsWith('retry 1 in '));
        expect(retry, r.stderr).toBeGreaterThan(0);
        expect(lines[retry]).toMatch(
          new RegExp(
            `^retry 1 in \\d+ ms \\(${esc(at)}, waiting \\ds\\): openai-compatible model "qwen3" failed \\(timeout\\): no response within 1500 ms`,
          ),
        );
        expect(lines.slice(0, retry).some((l) => new RegExp(`^waiting for ${esc(at)} · \\ds$`).test(l))).toBe(true);
        expect(lines.slice(retry + 1).some((l) => new RegExp(`^waiting for ${esc(at)} \\(attempt 2\\) · \\ds$`).test(l))).toBe(true);
        expect(r.stderr).toMatch(/failed \(timeout\) after 2 attempts: no response within 1500 ms/);
        expect(silent.connections()).toBeGreaterThanOrEqual(2);
      } finally {
        await silent.close();
      }
    });
  }

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
    await p.waitFor(new RegExp(`waiting for openai-compatible:test at ${host().replace(/\./g, '\\.')} · \\ds`), { timeoutMs: 10_000 });
    await p.waitFor(/retrying in [12]s · openai-compatible model "test" failed \(timeout\): no response within 1200 ms/, {
      timeoutMs: 10_000,
    });
    await p.waitFor(/waiting for openai-compatible:test at [\d.:]+ \(attempt 2\)/, { timeoutMs: 10_000 });
    expect(await p.exit(15_000)).toBe(0);
    const raw = p.stdout;
    expect(raw).toContain('\r\u001b[2K');
    // The last thing on the terminal is the answer, after the status line was erased.
    const afterLastClear = raw.slice(raw.lastIndexOf('\u001b[2K') + '\u001b[2K'.length);
    expect(stripAnsi(afterLastClear).trim()).toBe('Recovered.');
  });
});
