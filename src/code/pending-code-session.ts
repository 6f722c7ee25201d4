/**
 * A `CodeSession` that a front end can draw before the real one has opened (loading the config, the session
 * database, the sandbox probe and the tools take a while): `corvid code`'s UI shows its prompt at once and the user
 * can type while the session opens.
 */
import type { Message } from '../types/message.js';
import { emptyUsage } from '../types/usage.js';
import type {
  CodeApprovalAnswer,
  CodeCustomCommand,
  CodeEvent,
  CodeMode,
  CodeSession,
  CodeStatus,
  CodeTodo,
  CodeTurnResult,
} from './code-session-types.js';

/** Options of `PendingCodeSession`. */
export interface PendingCodeSessionOptions {
  /** The session being opened. */
  opening: Promise<CodeSession>;
  /** Shown in the status until the session is open. */
  cwd: string;
  /** The mode asked for (shown until the session is open). Default `default`. */
  mode?: CodeMode;
}

/**
 * Stands for a session that is still opening, then forwards everything to it.
 *
 * Until it opens, `status()` has `starting: true`; `send`, `command`, `runShell` and `completePath` wait for it;
 * a mode set meanwhile is applied when it opens. Once open, listeners receive the session's events, preceded by
 * its transcript (a resumed session) and its status. If it fails to open, listeners receive `exit`, and `opened`
 * rejects with the error (and `state` is `failed`).
 * @example
 * const session = new PendingCodeSession({ opening: openCodeSession({ cwd }), cwd });
 * await runTui({ session, stdin: process.stdin, stdout: process.stdout });
 * await session.close();
 */
export class PendingCodeSession implements CodeSession {
  /** Resolves with the session once open; rejects with why it could not open. */
  readonly opened: Promise<CodeSession>;
  private inner: CodeSession | undefined;
  private current: 'opening' | 'open' | 'failed' | 'closed' = 'opening';
  private mode: CodeMode;
  private modeChanged = false;
  private readonly listeners = new Map<(event: CodeEvent) => void, () => void>();

  constructor(private readonly options: PendingCodeSessionOptions) {
    this.mode = options.mode ?? 'default';
    this.opened = options.opening;
    options.opening.then(
      (session) => this.attach(session),
      () => this.fail(),
    );
  }

  /** `opening`, `open`, `failed` (see `opened` for why), or `closed` (by `close()`, possibly before it opened). */
  get state(): 'opening' | 'open' | 'failed' | 'closed' {
    return this.current;
  }

  /** The session's id (empty until it is open). */
  get id(): string {
    return this.inner?.id ?? '';
  }

  status(): CodeStatus {
    if (this.inner) return this.inner.status();
    const usage = emptyUsage();
    return {
      sessionId: '',
      model: '',
      mode: this.mode,
      usage,
      contextPercent: 0,
      busy: false,
      sandbox: false,
      cwd: this.options.cwd,
      starting: true,
    };
  }

  messages(): Message[] {
    return this.inner?.messages() ?? [];
  }

  subscribe(listener: (event: CodeEvent) => void): () => void {
    if (this.inner) return this.inner.subscribe(listener);
    this.listeners.set(listener, () => undefined);
    return () => {
      this.listeners.get(listener)?.();
      this.listeners.delete(listener);
    };
  }

  async send(input: string): Promise<CodeTurnResult> {
    return (await this.opened).send(input);
  }

  async command(line: string): Promise<void> {
    return (await this.opened).command(line);
  }

  async runShell(command: string): Promise<{ exitCode: number | null; output: string }> {
    return (await this.opened).runShell(command);
  }

  answerApproval(id: string, answer: CodeApprovalAnswer): void {
    this.inner?.answerApproval(id, answer);
  }

  cancel(): void {
    this.inner?.cancel();
  }

  setMode(mode: CodeMode): void {
    if (this.inner) return this.inner.setMode(mode);
    this.mode = mode;
    this.modeChanged = true;
    this.emit({ type: 'status', status: this.status() });
  }

  async completePath(prefix: string): Promise<string[]> {
    return (await this.opened).completePath(prefix);
  }

  customCommands(): CodeCustomCommand[] {
    return this.inner?.customCommands() ?? [];
  }

  todos(): CodeTodo[] {
    return this.inner?.todos() ?? [];
  }

  /**
   * Closes the session. Does not wait for a session still opening (the user quit before it opened): that one is
   * closed as soon as it opens, and an error opening it is ignored.
   */
  async close(): Promise<void> {
    const state = this.current;
    this.current = 'closed';
    if (state === 'open') await this.inner?.close();
  }

  private attach(session: CodeSession): void {
    if (this.current === 'closed') return void session.close().catch(() => undefined);
    this.current = 'open';
    this.inner = session;
    const messages = session.messages();
    for (const listener of this.listeners.keys()) {
      if (messages.length) listener({ type: 'transcript', messages });
      const todos = session.todos();
      if (todos.length) listener({ type: 'todos', todos });
      this.listeners.set(listener, session.subscribe(listener));
    }
    if (this.modeChanged && this.mode !== session.status().mode) session.setMode(this.mode);
    this.emit({ type: 'status', status: session.status() });
  }

  private fail(): void {
    if (this.current === 'closed') return;
    this.current = 'failed';
    this.emit({ type: 'exit' });
  }

  private emit(event: CodeEvent): void {
    for (const listener of this.listeners.keys()) listener(event);
  }
}
