/**
 * A real terminal for end-to-end tests of the full-screen UI: a private tmux server (its own socket, no user
 * configuration) running one command in a pane of a fixed size. Tests type with `send-keys`, read the screen
 * with `capture-pane`, and wait for what a user would see by polling the screen for a condition (never a
 * fixed sleep). Screens can be saved as text snapshots under `test-artifacts/`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT } from '../cli/cli-harness.js';

/** Where the screen snapshots go (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'code');

/** Why the tmux tests cannot run here, or `undefined` when tmux is usable. */
export function tmuxMissing(): string | undefined {
  const r = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return `tmux is not installed (${r.error?.message ?? r.stderr.trim()}): apt-get install tmux`;
  return undefined;
}

/** The state letter of a process (`R`, `S`, `Z` for ended but not reaped, …), or `undefined` once it is gone. */
export function processState(pid: number): string | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

/** Quotes one word for `sh -c`. */
const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Options of `startTerminal`. */
export interface TerminalOptions {
  /** The program and its arguments, e.g. `[process.execPath, CLI, 'code']`. */
  command: string[];
  cwd: string;
  /** The whole environment of the command (nothing else leaks in; TERM is set to xterm-256color unless given). */
  env: NodeJS.ProcessEnv;
  columns?: number;
  rows?: number;
}

/** A tmux pane running a command. */
export class Terminal {
  private readonly socketDir: string;
  private readonly socket: string;
  private closed = false;

  private constructor(
    socketDir: string,
    readonly columns: number,
    readonly rows: number,
  ) {
    this.socketDir = socketDir;
    this.socket = join(socketDir, 'tmux.sock');
  }

  /** Starts a tmux server with one pane of `columns`×`rows` (default 80×24) running `command`. */
  static start(o: TerminalOptions): Terminal {
    const t = new Terminal(mkdtempSync(join(tmpdir(), 'corvid-tmux-')), o.columns ?? 80, o.rows ?? 24);
    // No status bar (the pane is the whole window) and a dead pane stays, to read its last screen and exit status.
    const conf = join(t.socketDir, 'tmux.conf');
    writeFileSync(conf, 'set -g status off\nset -g remain-on-exit on\nset -g history-limit 10000\nset -g escape-time 0\n');
    t.tmux(['-f', conf, 'new-session', '-d', '-s', 'e2e', '-x', String(t.columns), '-y', String(t.rows), t.shell(o)]);
    return t;
  }

  /** The command line tmux runs: `cd`, then `exec env -i …` so the program has exactly the given environment. */
  private shell(o: TerminalOptions): string {
    const env = { TERM: 'xterm-256color', ...o.env };
    const vars = Object.entries(env)
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => shq(`${k}=${v}`));
    return `cd ${shq(o.cwd)} && exec env -i ${vars.join(' ')} ${o.command.map(shq).join(' ')}`;
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, TERM: 'xterm-256color' },
    });
  }

  /** Runs a new command in the pane (the old one is killed if still running). */
  respawn(o: TerminalOptions): void {
    this.tmux(['respawn-pane', '-k', '-t', 'e2e', this.shell(o)]);
  }

  /** Types text literally (one chunk, as a paste or fast typing). */
  type(text: string): void {
    this.tmux(['send-keys', '-t', 'e2e', '-l', text]);
  }

  /** Sends named keys: `Enter`, `C-c`, `Escape`, `BTab`, … */
  keys(...names: string[]): void {
    this.tmux(['send-keys', '-t', 'e2e', ...names]);
  }

  /** Types a line and presses Enter. */
  submit(text: string): void {
    this.type(text);
    this.keys('Enter');
  }

  /** The visible screen as text (trailing spaces trimmed). */
  screen(): string {
    return this.tmux(['capture-pane', '-p', '-t', 'e2e']).replace(/[ \t]+$/gm, '');
  }

  /** The scrollback and the screen (what scrolled up included). */
  history(): string {
    return this.tmux(['capture-pane', '-p', '-S', '-', '-E', '-', '-t', 'e2e']).replace(/[ \t]+$/gm, '');
  }

  /** The visible screen with its colours (ANSI escapes). */
  screenAnsi(): string {
    return this.tmux(['capture-pane', '-p', '-e', '-t', 'e2e']);
  }

  /** The process id of the program in the pane. */
  pid(): number {
    return Number(this.tmux(['display-message', '-p', '-t', 'e2e', '#{pane_pid}']).trim());
  }

  /**
   * `undefined` while the program runs; once it has ended, its exit status (128 + the signal when killed by one).
   * The status is tmux's: it is known once tmux has reaped the program, so the program is really gone.
   */
  exitStatus(): number | undefined {
    const format = '#{pane_dead} #{pane_dead_status} #{pane_dead_signal}';
    const [dead, status, signal] = this.tmux(['display-message', '-p', '-t', 'e2e', format])
      .split(' ')
      .map((s) => s.trim());
    if (dead === '1') {
      if (status) return Number(status);
      if (signal) return 128 + Number(signal);
      // tmux before 3.4 has no pane_dead_signal: read its "Pane is dead (signal 9, …)" line.
      const killed = /Pane is dead \(signal (\d+)/.exec(this.screen());
      if (killed) return 128 + Number(killed[1]);
    }
    // Not ended, or ended without a status yet: the pane is dead once its terminal closes, its status known once
    // tmux has reaped the program.
    this.reapIfZombie();
    return undefined;
  }

  /**
   * tmux sometimes misses the SIGCHLD of its pane's program (seen with tmux 3.3a: the program stays a zombie, the
   * pane without an exit status for minutes, until another SIGCHLD reaches the server). When the program is a zombie, this
   * sends the server a SIGCHLD, on which it reaps every ended child (`waitpid(WNOHANG)` in a loop).
   */
  private reapIfZombie(): void {
    if (processState(this.pid()) !== 'Z') return;
    const server = Number(this.tmux(['display-message', '-p', '#{pid}']).trim());
    if (server > 0) process.kill(server, 'SIGCHLD');
  }

  /**
   * Polls the screen until `predicate` holds and returns that screen; after `timeoutMs` fails with the last screen.
   * `from: 'history'` looks at the scrollback too.
   */
  async waitFor(
    predicate: (screen: string) => boolean,
    options: { timeoutMs?: number; from?: 'screen' | 'history'; what?: string } = {},
  ): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const text = options.from === 'history' ? this.history() : this.screen();
      if (predicate(text)) return text;
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${options.what ?? predicate.toString()}; the terminal shows:\n${text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until the screen contains `text` (a string or a pattern). */
  waitForText(text: string | RegExp, options: { timeoutMs?: number; from?: 'screen' | 'history' } = {}): Promise<string> {
    const test = (s: string): boolean => (typeof text === 'string' ? s.includes(text) : text.test(s));
    return this.waitFor(test, { ...options, what: String(text) });
  }

  /** Saves the screen (and its scrollback) to `test-artifacts/code/tmux-<name>.txt`; returns the screen. */
  snapshot(name: string): string {
    mkdirSync(ARTIFACTS, { recursive: true });
    const screen = this.screen();
    const header = `# ${name} (${this.columns}x${this.rows})\n`;
    writeFileSync(join(ARTIFACTS, `tmux-${name}.txt`), `${header}${screen}\n`);
    writeFileSync(join(ARTIFACTS, `tmux-${name}.ansi`), this.screenAnsi());
    return screen;
  }

  /** Kills the tmux server (and the program) and removes the socket folder. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.tmux(['kill-server']);
    } catch {
      // already gone
    }
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}
