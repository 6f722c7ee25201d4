import type { Agent } from '../core/agent.js';
import { estimateTokens } from '../core/context-budget.js';
import type { RunOptions } from '../core/run-options.js';
import type { RunStream } from '../core/run-stream.js';
import { modelEndpoint } from '../models/model-endpoint.js';
import type { AgentEvent } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { ModelConfig } from '../types/model.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import type { ApprovalGate } from './approval-gate.js';
import { runSlashCommand } from './code-commands.js';
import type { CodeHooks } from './code-hooks.js';
import { modelLabel, resolveCodeModel } from './code-model.js';
import { costOf, modelFacts } from './code-prices.js';
import type { CodeRuntime } from './code-runtime.js';
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
import { completePath } from './complete-path.js';
import { CustomCommandStore } from './custom-command-store.js';
import { type CustomCommand, type CustomCommands, expandCommand, splitSlashLine } from './custom-commands.js';
import { attachMentions, type MentionRead } from './file-mentions.js';
import type { FileSnapshots } from './file-snapshots.js';
import { recordInterruptedCalls } from './interrupted-calls.js';
import { NextMessageNotes } from './next-message-notes.js';
import { runWithStopHooks, submitPrompt } from './prompt-hooks.js';
import { lastTodos } from './todo-write-tool.js';
import { userToolContext } from './user-tool-context.js';

/** Everything the engine is built from (see `openCodeSession`). */
export interface CodeEngineParts {
  sessionId: string;
  cwd: string;
  runtime: CodeRuntime;
  store: Store;
  /** Close the store with the session (it was opened for it). */
  ownsStore: boolean;
  agent: Agent;
  /** The tools as the agent has them (wrapped), by name. */
  tools: ReadonlyMap<string, Tool>;
  /** The unwrapped shell tool, for `!command`. */
  shell: Tool;
  gate: ApprovalGate;
  snapshots: FileSnapshots;
  model: ModelConfig;
  sandbox: boolean;
  /** `yolo` is allowed without the sandbox (`--dangerously-run-unsandboxed`). */
  unsandboxedYolo?: boolean;
  env: NodeJS.ProcessEnv;
  /** Turns already in the session (a resumed one). */
  turns: number;
  messages: Message[];
  usage: Usage;
  /** The hooks of `code.hooks` (user_prompt_submit and stop run here; tool hooks wrap the tools). */
  hooks?: CodeHooks;
  /** The custom slash commands read when the session opened. */
  customCommands?: CustomCommands;
}

/**
 * One `corvid code` session: runs turns of its agent in a stored session, turns the agent's
 * events into `CodeEvent`s, and holds the mode, approvals, snapshots and usage. Front ends talk
 * to it through the `CodeSession` interface.
 */
export class CodeSessionEngine implements CodeSession {
  private sessionId: string;
  readonly cwd: string;
  readonly runtime: CodeRuntime;
  readonly store: Store;
  readonly gate: ApprovalGate;
  readonly snapshots: FileSnapshots;
  readonly env: NodeJS.ProcessEnv;
  readonly sandbox: boolean;
  agent: Agent;
  model: ModelConfig;
  private readonly parts: CodeEngineParts;
  private readonly listeners = new Set<(event: CodeEvent) => void>();
  private transcript: Message[];
  /** Usage of the session (every turn, failed and cancelled ones included). */
  usage: Usage;
  private turns: number;
  private running: AbortController | undefined;
  /** Prompt tokens of the last model call (the best measure of how full the context is). */
  private lastPromptTokens = 0;
  /** What the model reads with the next message: `!command` output, what `/undo` reverted. */
  private readonly notes = new NextMessageNotes();
  /**
   * Top-level tool calls of the running turn. On cancel, those without a stored result are recorded as interrupted
   * (a call stopped by the cancellation may still return, e.g. a killed command, but its step is not stored).
   */
  private openCalls = new Map<string, { toolName: string; input: unknown }>();
  private closed = false;
  /** Notices from opening the session, given to the first listener. */
  private startupNotices: string[] = [];
  private readonly custom: CustomCommandStore;
  private todoList: CodeTodo[] = [];
  /** The session's last run, when a crash or kill interrupted it (`/resume` continues it). */
  interrupted: { runId: string; input: string } | undefined;

  constructor(parts: CodeEngineParts) {
    this.parts = parts;
    this.sessionId = parts.sessionId;
    this.cwd = parts.cwd;
    this.runtime = parts.runtime;
    this.store = parts.store;
    this.gate = parts.gate;
    this.snapshots = parts.snapshots;
    this.env = parts.env;
    this.sandbox = parts.sandbox;
    this.agent = parts.agent;
    this.model = parts.model;
    this.turns = parts.turns;
    this.transcript = parts.messages;
    this.usage = parts.usage;
    this.todoList = lastTodos(parts.messages);
    this.custom = new CustomCommandStore(parts.cwd, parts.env, parts.customCommands, (text) =>
      this.listeners.size > 0 ? this.notice(text, 'warning') : void this.startupNotices.push(text),
    );
  }

  get id(): string {
    return this.sessionId;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  status(): CodeStatus {
    const model = modelLabel(this.model);
    const cost = costOf(model, this.usage);
    const tokens = this.lastPromptTokens > 0 ? this.lastPromptTokens : estimateTokens(this.transcript);
    const host = modelEndpoint(this.model)?.host;
    return {
      sessionId: this.sessionId,
      model,
      ...(host !== undefined ? { modelHost: host } : {}),
      mode: this.gate.mode,
      usage: { ...this.usage },
      ...(cost !== undefined ? { costUsd: cost } : {}),
      contextPercent: Math.min(100, Math.round((tokens / (this.model.contextWindow ?? modelFacts(model).contextWindow)) * 1000) / 10),
      busy: this.busy,
      sandbox: this.sandbox,
      cwd: this.cwd,
    };
  }

  messages(): Message[] {
    return [...this.transcript];
  }

  subscribe(listener: (event: CodeEvent) => void): () => void {
    this.listeners.add(listener);
    const notices = this.startupNotices.splice(0);
    if (notices.length > 0) queueMicrotask(() => notices.forEach((text) => listener({ type: 'notice', level: 'info', text })));
    return () => void this.listeners.delete(listener);
  }

  /** Sends an event to every listener (a listener that throws does not stop the others). */
  emit(event: CodeEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A front end's bug must not break the session.
      }
    }
  }

  notice(text: string, level: 'info' | 'warning' | 'error' = 'info'): void {
    this.emit({ type: 'notice', level, text });
  }

  emitStatus(): void {
    this.emit({ type: 'status', status: this.status() });
  }

  /** Finds whether the session's last run was interrupted (it then says so once a front end listens). */
  async checkInterrupted(): Promise<void> {
    const [last] = await this.store.checkpoints.listRuns({ sessionId: this.sessionId, limit: 1 });
    this.interrupted = undefined;
    if (last?.status === 'running') {
      const state = (await this.store.checkpoints.latest(last.runId))?.state as { input?: unknown } | undefined;
      this.interrupted = { runId: last.runId, input: typeof state?.input === 'string' ? state.input : '' };
    }
    if (this.interrupted) {
      const what = this.interrupted.input.split('\n')[0].slice(0, 60);
      this.startupNotices.push(
        `The last turn ("${what}") was interrupted before it finished: /resume continues it, or send a new message.`,
      );
    }
  }

  /** Runs a turn; a `/name args` line of a custom command sends its prompt (the transcript shows the line). */
  async send(input: string): Promise<CodeTurnResult> {
    if (this.running) return { status: 'failed', error: 'A turn is already running.', usage: emptyUsage(), changedFiles: [] };
    if (input.trim() === '') return { status: 'failed', error: 'Nothing to send.', usage: emptyUsage(), changedFiles: [] };
    const slash = input.trimStart().startsWith('/') ? splitSlashLine(input) : undefined;
    const custom = slash ? (await this.custom.reload()).get(slash.name.toLowerCase()) : undefined;
    if (custom === undefined) return this.sendPrompt(input, input);
    if (custom.model === undefined) return this.sendPrompt(input, expandCommand(custom, slash!.args));
    const before = this.model;
    this.setModel(resolveCodeModel({ model: custom.model, config: this.runtime.config, env: this.env }));
    try {
      return await this.sendPrompt(input, expandCommand(custom, slash!.args));
    } finally {
      this.setModel(before);
    }
  }

  /** Runs a turn on `prompt` (shown as `input`), with the user_prompt_submit and stop hooks. */
  private async sendPrompt(input: string, prompt: string): Promise<CodeTurnResult> {
    this.interrupted = undefined;
    const submitted = await submitPrompt(this.parts.hooks, prompt);
    if ('blocked' in submitted) return (this.notice(submitted.blocked.error!, 'error'), submitted.blocked);
    const turn = ++this.turns;
    const mentions = await attachMentions(submitted.text, { cwd: this.cwd, read: (path) => this.readForUser(path) });
    for (const s of mentions.skipped) this.notice(`@${s.path} is not attached: ${s.reason}`, 'warning');
    return runWithStopHooks(this.parts.hooks, { message: this.notes.take(mentions.text), shown: input }, (message, shown) =>
      this.turn({ turn, input: shown }, (options) =>
        this.agent.stream(message, { ...options, session: this.sessionId, store: this.store }),
      ),
    );
  }

  /** Continues the interrupted run of the session from its last checkpoint (finished tool calls are not run again). */
  async continueInterrupted(): Promise<CodeTurnResult | undefined> {
    const run = this.interrupted;
    if (run === undefined || this.running) return undefined;
    this.interrupted = undefined;
    return this.turn({ turn: Math.max(1, this.turns), input: run.input, resumed: true }, (options) =>
      this.agent.resumeStream(run.runId, { ...options, store: this.store }),
    );
  }

  private async turn(
    { turn, input, resumed }: { turn: number; input: string; resumed?: boolean },
    start: (options: RunOptions) => RunStream,
  ): Promise<CodeTurnResult> {
    const usage = emptyUsage();
    this.snapshots.turn = turn;
    const controller = new AbortController();
    this.running = controller;
    this.emit({ type: 'turn_start', turn, input, ...(resumed ? { resumed } : {}) });
    this.emitStatus();
    this.openCalls.clear();
    const result = await this.runTurn(start, controller, usage);
    if (result.status === 'cancelled')
      await recordInterruptedCalls(this.store, this.sessionId, this.agent.name, this.openCalls).catch(() => undefined);
    this.openCalls.clear();
    result.changedFiles = await this.snapshots.changedIn(turn).catch(() => []);
    addUsage(this.usage, usage);
    this.running = undefined;
    this.transcript = await this.store.sessions.messages(this.sessionId).catch(() => this.transcript);
    await this.touchSession(input).catch(() => undefined);
    this.emit({ type: 'turn_end', turn, result });
    this.emitStatus();
    return result;
  }

  private async runTurn(start: (options: RunOptions) => RunStream, controller: AbortController, usage: Usage): Promise<CodeTurnResult> {
    try {
      const stream = start({ signal: controller.signal, onApproval: (request) => this.gate.decide(request) });
      for await (const event of stream) this.onAgentEvent(event, usage);
      const run = await stream.result;
      return { status: 'completed', text: run.text, usage, changedFiles: [] };
    } catch (error) {
      if (controller.signal.aborted || (error as { code?: string })?.code === 'run_aborted')
        return { status: 'cancelled', error: 'Cancelled.', usage, changedFiles: [] };
      return { status: 'failed', error: oneLine(error), usage, changedFiles: [] };
    }
  }

  private onAgentEvent(event: AgentEvent, usage: Usage): void {
    if (event.path.length === 1 && event.type === 'run_end') Object.assign(usage, event.usage);
    if (event.path.length === 1 && event.type === 'step_end' && event.usage.inputTokens > 0)
      this.lastPromptTokens = event.usage.inputTokens;
    if (event.path.length === 1 && event.type === 'tool_call')
      this.openCalls.set(event.toolCallId, { toolName: event.toolName, input: event.input });
    this.emit({ type: 'agent', event });
    if (event.path.length === 1 && event.type === 'step_end') {
      const running = { ...this.usage };
      addUsage(running, event.usage);
      this.emit({ type: 'status', status: { ...this.status(), usage: running } });
    }
  }

  /** Adds a note the model reads with the next message (e.g. what `/undo` reverted). */
  addModelNote(text: string): void {
    this.notes.addNote(text);
  }

  /** Updates the session's title (its first input) and model in the store. */
  private async touchSession(input: string): Promise<void> {
    const session = await this.store.sessions.get(this.sessionId);
    if (!session) return;
    const metadata: Record<string, unknown> = { ...session.metadata, model: modelLabel(this.model) };
    if (metadata.title === undefined) metadata.title = input.split('\n')[0].slice(0, 80);
    await this.store.sessions.update(this.sessionId, { metadata });
  }

  async command(line: string): Promise<void> {
    try {
      await runSlashCommand(this, line);
    } catch (error) {
      this.notice(oneLine(error), 'error');
    }
  }

  async runShell(command: string): Promise<{ exitCode: number | null; output: string }> {
    try {
      const r = (await this.parts.shell.execute({ command }, userToolContext(this.agent.name, 'shell'))) as {
        exitCode: number | null;
        stdout: string;
        stderr: string;
      };
      const output = [r.stdout, r.stderr].filter((s) => s !== '').join(r.stdout.endsWith('\n') || r.stdout === '' ? '' : '\n');
      this.notes.addShell({ command, exitCode: r.exitCode, output });
      this.emit({ type: 'shell', command, exitCode: r.exitCode, output });
      return { exitCode: r.exitCode, output };
    } catch (error) {
      const output = oneLine(error);
      this.emit({ type: 'shell', command, exitCode: null, output });
      return { exitCode: null, output };
    }
  }

  /** Reads a file the user mentioned (`@path`) with the session's `read_file`, outside the model's turn. */
  private async readForUser(path: string): Promise<MentionRead> {
    const read = this.parts.tools.get('read_file');
    if (read === undefined) throw new Error('this session has no read_file tool');
    return (await read.execute({ path }, userToolContext(this.agent.name, 'mention'))) as MentionRead;
  }

  answerApproval(id: string, answer: CodeApprovalAnswer): void {
    if (this.gate.answer(id, answer)) this.emit({ type: 'approval_answered', id, approved: answer.approved });
  }

  cancel(): void {
    if (!this.running) return;
    for (const id of this.gate.denyAll('The user cancelled the turn.')) this.emit({ type: 'approval_answered', id, approved: false });
    this.running.abort();
  }

  setMode(mode: CodeMode): void {
    if (mode === 'yolo' && !this.sandbox && this.parts.unsandboxedYolo !== true) {
      this.notice(
        'yolo mode needs the shell sandbox (bubblewrap), which is off: install bubblewrap and start without --no-sandbox. The mode is unchanged.',
        'error',
      );
      return;
    }
    this.gate.mode = mode;
    this.emitStatus();
  }

  /** Switches to another stored session (`/clear`, `/resume`, `/compact`); the front end gets its transcript. */
  async switchSession(sessionId: string, options: { turns: number; usage: Usage }): Promise<void> {
    this.sessionId = sessionId;
    this.snapshots.setSession(sessionId);
    this.turns = options.turns;
    this.usage = options.usage;
    this.lastPromptTokens = 0;
    this.notes.clear();
    this.transcript = await this.store.sessions.messages(sessionId);
    this.todoList = lastTodos(this.transcript);
    this.emit({ type: 'todos', todos: this.todos() });
    await this.checkInterrupted();
    this.emit({ type: 'transcript', messages: this.messages() });
    for (const text of this.startupNotices.splice(0)) this.notice(text);
    this.emitStatus();
  }

  /** Changes the model for the following turns. */
  setModel(model: ModelConfig): void {
    this.model = model;
    this.agent.setModel(model);
    this.emitStatus();
  }

  completePath(prefix: string): Promise<string[]> {
    return completePath(this.cwd, prefix);
  }

  customCommands(): CodeCustomCommand[] {
    return this.custom.list();
  }

  /** Reads the custom commands again (a file added or changed since); says once which files are wrong. */
  reloadCustomCommands(): Promise<Map<string, CustomCommand>> {
    return this.custom.reload();
  }

  todos(): CodeTodo[] {
    return this.todoList.map((t) => ({ ...t }));
  }

  /** The model wrote its todo list (`todo_write`). */
  setTodos(todos: CodeTodo[]): void {
    this.todoList = todos;
    this.emit({ type: 'todos', todos: this.todos() });
  }

  /** The approval gate changed the mode (an approved plan). */
  modeChanged(): void {
    this.notice(`Plan approved: ${this.gate.mode} mode.`);
    this.emitStatus();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    await this.runtime.close().catch(() => undefined);
    if (this.parts.ownsStore) await this.store.close().catch(() => undefined);
  }
}

/** An error as one line for a notice or a turn result. */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').filter((l) => l.trim() !== '')[0] ?? 'Unknown error';
}
