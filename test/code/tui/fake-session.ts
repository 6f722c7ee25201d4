/**
 * A scripted `CodeSession` for the terminal UI's tests, benchmark and demo: `send` runs a script that emits the
 * events a real session would (agent events, approvals waiting for `answerApproval`, …). Type-only imports from
 * src, so esbuild can turn this file into plain JS on its own (bench/code-render.mjs does).
 */
import type {
  CodeApproval,
  CodeApprovalAnswer,
  CodeCustomCommand,
  CodeEvent,
  CodeMode,
  CodeSession,
  CodeStatus,
  CodeTodo,
  CodeTurnResult,
} from '../../../src/code/code-session-types.js';
import type { AgentEvent } from '../../../src/types/events.js';
import type { Message } from '../../../src/types/message.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An agent event without the fields every event carries. */
export type AgentEventBody = DistributiveOmit<AgentEvent, 'runId' | 'agent' | 'path'> &
  Partial<Pick<AgentEvent, 'runId' | 'agent' | 'path'>>;

/** What a script gets to drive one turn. */
export interface TurnContext {
  input: string;
  signal: AbortSignal;
  /** Emits an agent event (runId, agent and path default to the top-level coder). */
  agent(event: AgentEventBody): void;
  /** Emits an approval and waits for the answer. */
  approve(approval: Omit<CodeApproval, 'id'>): Promise<CodeApprovalAnswer>;
  /** Resolves after `ms`, or rejects when the turn is cancelled. */
  wait(ms: number): Promise<void>;
  session: FakeCodeSession;
}

/** A turn script: returns the final answer, or throws to fail the turn. */
export type TurnScript = (ctx: TurnContext) => Promise<string | void>;

/** Options of `FakeCodeSession`. */
export interface FakeSessionOptions {
  script?: TurnScript;
  messages?: Message[];
  status?: Partial<CodeStatus>;
  /** Paths `completePath` chooses from. */
  paths?: string[];
}

/** A `CodeSession` whose turns are scripted. Records the calls the front end made. */
export class FakeCodeSession implements CodeSession {
  readonly id = 'fake-session';
  readonly calls: { method: string; args: unknown[] }[] = [];
  private readonly listeners = new Set<(e: CodeEvent) => void>();
  private current: CodeStatus;
  private turn = 0;
  private controller: AbortController | undefined;
  private readonly pending = new Map<string, (a: CodeApprovalAnswer) => void>();
  private nextApproval = 1;

  constructor(private readonly options: FakeSessionOptions = {}) {
    this.current = {
      sessionId: this.id,
      model: 'openai:gpt-4.1',
      mode: 'default',
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 0 },
      costUsd: 0,
      contextPercent: 0,
      busy: false,
      sandbox: true,
      cwd: '/project',
      ...options.status,
    };
  }

  status(): CodeStatus {
    return { ...this.current };
  }
  messages(): Message[] {
    return this.options.messages ?? [];
  }
  subscribe(listener: (event: CodeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Sends an event to every listener. */
  emit(event: CodeEvent): void {
    for (const l of this.listeners) l(event);
  }
  /** Changes the status and emits it. */
  update(status: Partial<CodeStatus>): void {
    this.current = { ...this.current, ...status };
    this.emit({ type: 'status', status: this.status() });
  }

  async send(input: string): Promise<CodeTurnResult> {
    this.calls.push({ method: 'send', args: [input] });
    const turn = ++this.turn;
    const controller = (this.controller = new AbortController());
    this.emit({ type: 'turn_start', turn, input });
    this.update({ busy: true });
    let result: CodeTurnResult;
    try {
      const text = await (this.options.script ?? echoScript)(this.context(input, controller.signal));
      result = { status: 'completed', text: text ?? undefined, usage: this.current.usage, changedFiles: [] };
    } catch (err) {
      const cancelled = controller.signal.aborted;
      result = cancelled
        ? { status: 'cancelled', usage: this.current.usage, changedFiles: [] }
        : { status: 'failed', error: err instanceof Error ? err.message : String(err), usage: this.current.usage, changedFiles: [] };
    }
    this.controller = undefined;
    this.emit({ type: 'turn_end', turn, result });
    this.update({ busy: false });
    return result;
  }

  async command(line: string): Promise<void> {
    this.calls.push({ method: 'command', args: [line] });
    const [name, arg] = line.slice(1).split(/\s+/);
    if (name === 'exit') return this.emit({ type: 'exit' });
    if (name === 'mode' && arg) return this.setMode(arg as CodeMode);
    if (name === 'clear') return this.emit({ type: 'transcript', messages: [] });
    this.emit({ type: 'notice', level: 'info', text: `ran ${line}` });
  }

  async runShell(command: string): Promise<{ exitCode: number | null; output: string }> {
    this.calls.push({ method: 'runShell', args: [command] });
    const output = `output of ${command}\n`;
    this.emit({ type: 'shell', command, exitCode: 0, output });
    return { exitCode: 0, output };
  }

  answerApproval(id: string, answer: CodeApprovalAnswer): void {
    this.calls.push({ method: 'answerApproval', args: [id, answer] });
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    this.emit({ type: 'approval_answered', id, approved: answer.approved });
    resolve(answer);
  }

  cancel(): void {
    this.calls.push({ method: 'cancel', args: [] });
    this.controller?.abort(new Error('cancelled'));
  }

  setMode(mode: CodeMode): void {
    this.calls.push({ method: 'setMode', args: [mode] });
    this.update({ mode });
  }

  customCommands(): CodeCustomCommand[] {
    return [];
  }

  todos(): CodeTodo[] {
    return [];
  }

  async completePath(prefix: string): Promise<string[]> {
    return (this.options.paths ?? []).filter((p) => p.startsWith(prefix));
  }

  async close(): Promise<void> {
    this.calls.push({ method: 'close', args: [] });
  }

  private context(input: string, signal: AbortSignal): TurnContext {
    return {
      input,
      signal,
      session: this,
      agent: (event) => this.emit({ type: 'agent', event: { runId: 'run-1', agent: 'coder', path: ['coder'], ...event } as AgentEvent }),
      approve: (approval) => {
        const id = `ap-${this.nextApproval++}`;
        const answered = new Promise<CodeApprovalAnswer>((resolve, reject) => {
          this.pending.set(id, resolve);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
        this.emit({ type: 'approval', approval: { id, ...approval } });
        return answered;
      },
      wait: (ms) =>
        new Promise<void>((resolve, reject) => {
          if (signal.aborted) return reject(signal.reason);
          const onAbort = () => (clearTimeout(timer), reject(signal.reason));
          const timer = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve()), ms);
          signal.addEventListener('abort', onAbort, { once: true });
        }),
    };
  }
}

/** The default script: answers with the input. */
export const echoScript: TurnScript = async (ctx) => {
  const text = `You said: ${ctx.input}`;
  ctx.agent({ type: 'step_start', step: 1, maxSteps: 10 });
  ctx.agent({ type: 'text_delta', step: 1, delta: text });
  return text;
};
