/**
 * A `CodeSession` that a front end can draw before the real one has opened (loading the config, the session
 * database, the sandbox probe and the tools take a while): `corvid code`'s UI shows its prompt at once and the user
 * can type while the session opens.
 */
import type { Message } from '../types/message.js';
import { emptyUsage } from '../types/usage.js';
import type { CodeApprovalAnswer, CodeEvent, CodeMode, CodeSession, CodeStatus, CodeTurnResult } from './code-session-types.js';

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
 * rejects with the error.
 * @example
 * const session = new PendingCodeSession({ opening: openCodeSession({ cwd }), cwd });
 * await runTui({ session, stdin: process.stdin, stdout: process.stdout });
 * await (await session.opened).close();
 */
export class PendingCodeSession implements CodeSession {
  /** Resolves with the session once open; rejects with why it could not open. */
  readonly opened: Promise<CodeSession>;
  private inner: CodeSession | undefined;
  private failed = false;
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

  /** Closes the session once it has opened; nothing to do if it failed to open. */
  async close(): Promise<void> {
    const session = await this.opened.catch(() => undefined);
    await session?.close();
  }

  private attach(session: CodeSession): void {
    if (this.failed) return;
    this.inner = session;
    const messages = session.messages();
    for (const listener of this.listeners.keys()) {
      if (messages.length) listener({ type: 'transcript', messages });
      this.listeners.set(listener, session.subscribe(listener));
    }
    if (this.modeChanged && this.mode !== session.status().mode) session.setMode(this.mode);
    this.emit({ type: 'status', status: session.status() });
  }

  private fail(): void {
    this.failed = true;
    this.emit({ type: 'exit' });
  }

  private emit(event: CodeEvent): void {
    for (const listener of this.listeners.keys()) listener(event);
  }
}
