/** A node child process for the crash tests, with its stdout read line by line (no fixed sleeps). */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A child process whose stdout lines are collected and can be waited for. */
export interface ChildRun {
  lines: string[];
  /** Resolves with the first line starting with `prefix` (rejects if the child exits first). */
  waitFor(prefix: string): Promise<string>;
  /** Resolves with the first `n` lines starting with `prefix`, once there are that many (rejects if the child exits first). */
  waitForCount(prefix: string, n: number): Promise<string[]>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  child: ChildProcess;
  stderr: () => string;
}

/** Starts `node <script>` with `env` added to this process's environment, reading its stdout line by line. */
export function startNodeChild(script: string, env: Record<string, string>): ChildRun {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const waiters: Array<{ prefix: string; n: number; resolve: (l: string[]) => void; reject: (e: Error) => void }> = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const matching = (prefix: string) => lines.filter((l) => l.startsWith(prefix));
  const rl = createInterface({ input: child.stdout! });
  rl.on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      const found = matching(w.prefix);
      if (found.length >= w.n) (waiters.splice(waiters.indexOf(w), 1), w.resolve(found.slice(0, w.n)));
    }
  });
  rl.on('close', () => {
    for (const w of waiters.splice(0)) w.reject(new Error(`child exited before ${w.n} × "${w.prefix}": ${lines.join(' | ')} ${err}`));
  });
  const waitForCount = (prefix: string, n: number): Promise<string[]> => {
    const found = matching(prefix);
    if (found.length >= n) return Promise.resolve(found.slice(0, n));
    return new Promise((resolve, reject) => waiters.push({ prefix, n, resolve, reject }));
  };
  return {
    lines,
    child,
    exited,
    stderr: () => err,
    waitFor: async (prefix) => (await waitForCount(prefix, 1))[0],
    waitForCount,
  };
}
