import { spawn } from 'node:child_process';

import { OutputCapture } from './output-capture.js';

/** Options for `runProcess`. */
export interface RunProcessOptions {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Time limit; then the process group gets SIGTERM, and SIGKILL after `killGraceMs`. */
  timeoutMs: number;
  killGraceMs: number;
  /** Bytes of each stream kept (head and tail). */
  maxOutputBytes: number;
  /** Once both streams together pass this many bytes, reading stops and the process group is killed. */
  stopReadingAtBytes: number;
  /** Cancels the command (same escalation as the timeout). */
  signal?: AbortSignal;
}

/** How a process ended and what it printed. */
export interface ProcessOutcome {
  /** Exit code, `null` when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (`SIGTERM`, `SIGKILL` …), `null` when it exited. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Ended by the time limit. */
  timedOut: boolean;
  /** Killed because it printed far more than the cap. */
  outputLimitExceeded: boolean;
  /** Cancelled through `signal`. */
  aborted: boolean;
  /** Part of stdout or stderr was elided. */
  truncated: boolean;
  durationMs: number;
}

/** How long to wait for the pipes to close once the process exited (a child that left its group may hold them). */
const DRAIN_MS = 300;

/**
 * Runs a program in a new process group (detached spawn), so that a timeout, a cancellation or
 * a flood of output ends it with everything it started: SIGTERM to the group, then SIGKILL
 * after a grace. Members of the group still alive when the program exits are killed too.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessOutcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(options.file, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new OutputCapture(options.maxOutputBytes);
    const stderr = new OutputCapture(options.maxOutputBytes);
    const state = { timedOut: false, outputLimitExceeded: false, aborted: false, terminating: false };
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* the group is gone */
      }
    };
    const terminate = () => {
      if (state.terminating) return;
      state.terminating = true;
      killGroup('SIGTERM');
      graceTimer = setTimeout(() => killGroup('SIGKILL'), options.killGraceMs);
      graceTimer.unref();
    };
    const timer = setTimeout(() => {
      state.timedOut = true;
      terminate();
    }, options.timeoutMs);
    const onAbort = () => {
      state.aborted = true;
      terminate();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const onData = (capture: OutputCapture) => (chunk: Buffer) => {
      capture.push(chunk);
      if (stdout.totalBytes + stderr.totalBytes > options.stopReadingAtBytes && !state.outputLimitExceeded) {
        state.outputLimitExceeded = true;
        child.stdout.destroy();
        child.stderr.destroy();
        terminate();
      }
    };
    child.stdout.on('data', onData(stdout));
    child.stderr.on('data', onData(stderr));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const finish = () => {
      if (settled || exit === undefined) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        ...state,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the command left running in its group goes with it.
      killGroup('SIGKILL');
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, DRAIN_MS).unref();
    });
    child.on('close', finish);
  });
}
