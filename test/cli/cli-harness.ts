/**
 * Helpers for the CLI tests: they spawn the real built binary (`node dist/cli/main.js`, so run
 * `npm run build` first) with a clean environment and a private HOME, and wait for output by
 * watching the child's streams, never with fixed sleeps.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** Fails early, with the fix, when the CLI has not been built. */
export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" before the CLI tests (npm test does it)`);
}

// eslint-disable-next-line no-control-regex
export const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[=>]|\r/g, '');

/** A temporary directory (working directory and HOME of a test), removed by `cleanup()`. */
export function tempDir(prefix = 'corvid-cli-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `corvid.yaml` (or `name`) into `dir` and returns its path. */
export function writeConfig(dir: string, yaml: string, name = 'corvid.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

/** A model entry pointing at the fake server, with retries off (indent: 2 spaces under `models:`). */
export function fakeModel(url: string, name = 'fake'): string {
  return `  ${name}:\n    provider: openai-compatible\n    base_url: ${url}/v1\n    model: test\n    retry:\n      max_retries: 0\n`;
}

/** A clean environment: no API keys or provider settings leak in from the machine running the tests. */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', CORVID_HISTORY_FILE: join(home, 'history'), ...extra };
}

export interface SpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A running child with its output collected and helpers to wait for it. */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters = new Set<() => void>();

  constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => ((this.stdout += d), this.notify()));
    child.stderr.on('data', (d: string) => ((this.stderr += d), this.notify()));
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => child.on('close', (code, signal) => (resolve({ code, signal }), this.notify())));
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Current length of a stream's text, to wait only for output that comes after it. */
  mark(stream: 'stdout' | 'stderr' = 'stdout'): number {
    return this[stream].length;
  }

  /** Resolves with the (ANSI-stripped) text once `pattern` appears after `since`; rejects after `timeoutMs` with the output so far. */
  waitFor(pattern: RegExp | string, options: { stream?: 'stdout' | 'stderr'; since?: number; timeoutMs?: number } = {}): Promise<string> {
    const stream = options.stream ?? 'stdout';
    const since = options.since ?? 0;
    return new Promise((resolve, reject) => {
      let done = false;
      const check = (): void => {
        if (done) return;
        const text = stripAnsi(this[stream].slice(since));
        const hit = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
        if (hit) {
          done = true;
          cleanup();
          resolve(text);
        } else if (this.child.exitCode !== null || this.child.signalCode !== null) {
          // Let 'close' deliver the last output first.
          setImmediate(() => {
            if (done) return;
            const final = stripAnsi(this[stream].slice(since));
            if (typeof pattern === 'string' ? final.includes(pattern) : pattern.test(final)) return check();
            done = true;
            cleanup();
            reject(
              new Error(
                `process exited before ${String(pattern)} appeared on ${stream}:\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`,
              ),
            );
          });
        }
      };
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        cleanup();
        reject(new Error(`timed out waiting for ${String(pattern)} on ${stream}:\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`));
      }, options.timeoutMs ?? 10_000);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Waits for the exit; kills the child and rejects after `timeoutMs`. */
  async exit(timeoutMs = 10_000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`process did not exit within ${timeoutMs} ms:\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`));
      }, timeoutMs);
    });
    try {
      return (await Promise.race([this.exited, timeout])).code;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Starts `node dist/cli/main.js ...args`. */
export function spawnCli(args: string[], options: SpawnOptions): CliProcess {
  assertBuilt();
  return new CliProcess(spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env, stdio: 'pipe' }));
}

/** Starts any command (e.g. `script` for a pseudo-terminal). */
export function spawnCommand(command: string, args: string[], options: SpawnOptions): CliProcess {
  assertBuilt();
  return new CliProcess(spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'pipe' }));
}

/** Runs the CLI to completion with `input` on stdin (closed either way). */
export async function runCli(
  args: string[],
  options: SpawnOptions & { input?: string; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnCli(args, options);
  p.child.stdin.end(options.input ?? '');
  const code = await p.exit(options.timeoutMs ?? 15_000);
  return { code, stdout: p.stdout, stderr: p.stderr };
}

/** Matches lines of a JavaScript stack trace. */
export const STACK_LINE = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

const execFileAsync = promisify(execFile);

/**
 * Runs `corvid <args> -c <dir>/corvid.yaml --no-color` in `dir` (HOME there too, a clean environment) to the end:
 * its exit code and output, whatever the code.
 */
export async function corvidIn(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args, '-c', join(dir, 'corvid.yaml'), '--no-color'], {
      cwd: dir,
      env: cliEnv(dir),
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
