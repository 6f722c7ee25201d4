import { Conversation } from '../core/conversation.js';
import type { RunOptions } from '../core/run-options.js';
import type { RunStream } from '../core/run-stream.js';
import type { Runnable } from '../core/runnable.js';
import type { Runtime } from '../runtime/load-runtime.js';
import type { ApprovalDecision, ApprovalRequest } from '../types/durable-options.js';
import type { RunResult } from '../types/result.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import type { Colors } from './colors.js';
import type { EventRenderer } from './event-renderer.js';
import { formatUsage } from './format.js';
import { formatError } from './format-error.js';

/** How one chat turn ended. */
export type TurnOutcome =
  | { status: 'completed'; result: RunResult; usage: Usage }
  | {
      status: 'failed' | 'aborted';
      error: unknown;
      usage: Usage;
      /** Whether the failure arrived as a top-level `error` event (a renderer has shown it). */
      reported: boolean;
    };

/** Where the session prints messages. */
export interface ChatIo {
  /** Writes a line of normal output. */
  print(text: string): void;
  /** Writes a line (already styled) where errors go. */
  printError(text: string): void;
  colors: Colors;
  debug: boolean;
  /** Asks the user a question and resolves with the line typed (undefined: nobody can answer). For inline approvals. */
  ask?: (question: string) => Promise<string | undefined>;
}

/** Options of a chat bound to a stored session (`corvid chat --session`). */
export interface ChatSessionOptions {
  /** Session id: the conversation is loaded from and saved to the runtime's store. */
  sessionId?: string;
}

export const CHAT_COMMANDS_HELP = `Commands:
  /help            List these commands
  /reset           Start a new conversation
  /usage           Token usage of this conversation and of the session
  /reload          Reload the config file and keep the conversation
  /agent [name]    List the agents, or switch to another one (new conversation)
  /exit            Quit (also Ctrl-D)`;

/** A short description of an agent's model (or, for workflow agents, its kind) for banners. */
export function describeModel(agent: Runnable): string {
  if (agent.kind !== 'llm') return `${agent.kind}: ${agent.subAgents.map((a) => a.name).join(', ')}`;
  const m = (agent as { options?: { model?: unknown } }).options?.model;
  if (m === undefined) return 'default model';
  if (typeof m === 'string') return m;
  const o = m as { provider?: string; model?: string; modelId?: string };
  return `${o.provider ?? '?'}:${o.model ?? o.modelId ?? '?'}`;
}

/**
 * The state of `corvid chat`: the runtime, the current agent and conversation, the usage of the
 * whole session, and the slash commands. One turn runs at a time.
 */
export class ChatSession {
  readonly runtime: Runtime;
  conversation: Conversation;
  /** Usage of every turn of this session, failed and cancelled ones included. */
  readonly sessionUsage: Usage = emptyUsage();
  private current: RunStream | undefined;
  readonly io: ChatIo;
  /** The stored session this chat continues, when there is one. */
  sessionId: string | undefined;
  /** Tools the user approved for the rest of the chat (`always`). */
  readonly alwaysApproved = new Set<string>();

  constructor(runtime: Runtime, agentName: string | undefined, io: ChatIo, options: ChatSessionOptions = {}) {
    this.runtime = runtime;
    this.io = io;
    this.conversation = new Conversation(runtime.agent<Runnable>(agentName));
    this.sessionId = options.sessionId;
  }

  /** Decides an approval inline: asks `prompt [y/n/always]`; `n <reason>` gives the model a reason. */
  async approve(request: ApprovalRequest): Promise<ApprovalDecision> {
    if (this.alwaysApproved.has(request.toolName)) return { approved: true };
    const line = await this.io.ask!(`${request.prompt} [y]es / [n]o / [a]lways: `);
    if (line === undefined) return { approved: false, reason: 'Nobody answered the approval request.' };
    const answer = line.trim();
    const word = answer.toLowerCase();
    if (word === 'a' || word === 'always') {
      this.alwaysApproved.add(request.toolName);
      return { approved: true, always: true };
    }
    if (word === 'y' || word === 'yes') return { approved: true };
    const reason = answer.replace(/^(no|n)\b[\s,:.-]*/i, '').trim();
    return { approved: false, reason: reason || 'The user said no.' };
  }

  /** The options of one turn: inline approvals when the chat can ask, the session when there is one. */
  private turnOptions(): RunOptions {
    const options: RunOptions = {};
    if (this.io.ask) options.onApproval = (r) => this.approve(r);
    if (this.sessionId !== undefined) options.session = this.sessionId;
    return options;
  }

  get agent(): Runnable {
    return this.conversation.agent;
  }

  /** Whether a turn is running. */
  get running(): boolean {
    return this.current !== undefined;
  }

  /** Cancels the running turn; false when none runs. */
  abort(): boolean {
    if (!this.current) return false;
    this.current.abort();
    return true;
  }

  /** Runs one user turn, rendering its events when a renderer is given. Never throws. */
  async turn(text: string, renderer?: EventRenderer): Promise<TurnOutcome> {
    const usage = emptyUsage();
    let reported = false;
    let stream: RunStream;
    try {
      const options = this.turnOptions();
      // A session turn runs on the stored conversation (from the session's active agent).
      stream = this.sessionId !== undefined ? this.conversation.agent.stream(text, options) : this.conversation.stream(text, options);
    } catch (error) {
      return { status: 'failed', error, usage, reported };
    }
    this.current = stream;
    try {
      for await (const e of stream) {
        if (e.path.length === 1 && e.type === 'run_end') Object.assign(usage, e.usage);
        if (e.path.length === 1 && e.type === 'error') reported = true;
        renderer?.render(e);
      }
      const result = await stream.result;
      if (this.sessionId !== undefined) {
        addUsage(this.conversation.usage, result.usage);
        this.conversation.activeAgent = result.activeAgent ?? result.agent;
      }
      return { status: 'completed', result, usage };
    } catch (error) {
      const aborted = (error as { code?: string })?.code === 'run_aborted';
      return { status: aborted ? 'aborted' : 'failed', error, usage, reported };
    } finally {
      addUsage(this.sessionUsage, usage);
      this.current = undefined;
      renderer?.endLine();
    }
  }

  /** Runs a `/command`; resolves `'exit'` when the chat should end. */
  async command(line: string): Promise<'exit' | 'continue'> {
    const [name = '', ...args] = line.slice(1).trim().split(/\s+/);
    const { print, colors: c } = this.io;
    switch (name.toLowerCase()) {
      case 'help':
      case '?':
        print(CHAT_COMMANDS_HELP);
        break;
      case 'reset':
      case 'new':
        this.conversation.reset();
        if (this.sessionId !== undefined) {
          this.sessionId = `${this.sessionId.replace(/-\d{13}$/, '')}-${Date.now()}`;
          print(c.dim(`New conversation with ${this.agent.name} in session ${this.sessionId}.`));
        } else print(c.dim(`New conversation with ${this.agent.name}.`));
        break;
      case 'usage': {
        const n = this.conversation.messages.length;
        print(
          [
            `conversation: ${formatUsage(this.conversation.usage)} tokens (${n} message${n === 1 ? '' : 's'})`,
            `session:      ${formatUsage(this.sessionUsage)} tokens · ${this.sessionUsage.totalTokens} total`,
          ].join('\n'),
        );
        break;
      }
      case 'reload':
        await this.reload();
        break;
      case 'agent':
      case 'agents':
        if (args[0]) this.switchAgent(args[0]);
        else this.listAgents();
        break;
      case 'exit':
      case 'quit':
      case 'q':
        return 'exit';
      default:
        this.io.printError(c.red(`Unknown command "/${name}". /help lists the commands.`));
    }
    return 'continue';
  }

  private fail(error: unknown): void {
    this.io.printError(formatError(error, { debug: this.io.debug, colors: this.io.colors }).trimEnd());
  }

  /** Reloads the config and continues the same messages on the new agent object. */
  private async reload(): Promise<void> {
    const name = this.agent.name;
    try {
      await this.runtime.reload();
    } catch (error) {
      this.fail(error);
      this.io.print(this.io.colors.dim('Kept the previous configuration.'));
      return;
    }
    let agent: Runnable;
    try {
      agent = this.runtime.agent<Runnable>(name);
    } catch (error) {
      this.fail(error);
      this.io.print(this.io.colors.dim(`Still chatting with the previous "${name}"; /agent <name> switches.`));
      return;
    }
    const next = new Conversation(agent, this.conversation.messages, {
      state: this.conversation.state,
      activeAgent: this.conversation.activeAgent,
    });
    Object.assign(next.usage, this.conversation.usage);
    this.conversation = next;
    const where = this.runtime.configPath ?? 'the defaults';
    this.io.print(this.io.colors.dim(`Reloaded ${where}; continuing with ${agent.name} (${describeModel(agent)}).`));
  }

  private switchAgent(name: string): void {
    try {
      const agent = this.runtime.agent<Runnable>(name);
      this.conversation = new Conversation(agent);
      this.io.print(this.io.colors.dim(`Now chatting with ${agent.name} (${describeModel(agent)}), new conversation.`));
    } catch (error) {
      this.fail(error);
    }
  }

  private listAgents(): void {
    const c = this.io.colors;
    const lines = [...this.runtime.agents.values()].map((a) => {
      const mark = a.name === this.agent.name ? c.green('*') : ' ';
      return `${mark} ${c.bold(a.name)}${a.description ? c.dim(`  ${a.description}`) : ''}`;
    });
    this.io.print(lines.join('\n'));
  }
}
