/**
 * The terminal UI's model of the transcript: `CodeEvent`s in, finished items (printed once) and the live part
 * (streaming text and reasoning, running tools, pending approvals, status) out. Pure and synchronous; the React
 * layer re-renders from it on a coalesced tick.
 */
import type { AgentEvent } from '../../types/events.js';
import type { Message } from '../../types/message.js';
import { hookLine } from '../code-event-text.js';
import type { CodeApproval, CodeEvent, CodeStatus, CodeTodo, CodeTurnResult } from '../code-session-types.js';
import { MarkdownStream } from './markdown-stream.js';
import type { ToolCallView } from './tool-display.js';

/** One finished transcript entry. `depth` indents nested agents' output. */
export type TranscriptItem = { id: number } & (
  | { kind: 'user'; text: string }
  | { kind: 'markdown'; text: string; depth: number }
  | { kind: 'reasoning'; text: string; depth: number }
  | { kind: 'tool'; call: ToolCallView; depth: number }
  | { kind: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  | { kind: 'shell'; command: string; exitCode: number | null; output: string }
  | { kind: 'event'; text: string; depth: number }
  | { kind: 'turn_end'; result: CodeTurnResult }
);

/** A call that has not returned yet. */
export interface RunningTool {
  toolCallId: string;
  call: ToolCallView;
  depth: number;
  startedAt: number;
}

/** Distributes `Omit` over the item union. */
type NewItem = TranscriptItem extends infer T ? (T extends TranscriptItem ? Omit<T, 'id'> : never) : never;

/** Transcript state, updated in place by `apply`. */
export class TranscriptModel {
  /** Finished items, append-only (until `transcript` replaces them: see `epoch`). */
  items: TranscriptItem[] = [];
  /** Bumped when the finished items were replaced (clear, resume, reasoning toggle): the screen is redrawn. */
  epoch = 0;
  liveReasoning = '';
  running: RunningTool[] = [];
  approvals: CodeApproval[] = [];
  /** The model's todo list (`todo_write`). */
  todos: CodeTodo[] = [];
  status: CodeStatus | undefined;
  exited = false;
  private stream = new MarkdownStream();
  private streamDepth = 0;
  private streamRun = '';
  private reasoningDepth = 0;
  private sawDelta = false;
  private nextId = 1;
  private welcomed = false;

  /** The streaming answer's unfinished tail, and how deep its agent is. */
  get liveText(): { text: string; depth: number } {
    return { text: this.stream.live, depth: this.streamDepth };
  }

  /** A turn is running. */
  get busy(): boolean {
    return this.status?.busy ?? false;
  }

  /** Applies one session event. */
  apply(event: CodeEvent): void {
    switch (event.type) {
      case 'turn_start':
        if (!event.resumed) this.push({ kind: 'user', text: event.input });
        break;
      case 'agent':
        this.applyAgent(event.event);
        break;
      case 'approval':
        // A plan is printed in the transcript, where it can be read whole; the prompt under it asks.
        if (event.approval.kind === 'plan') {
          this.flushLive();
          this.push({ kind: 'markdown', text: event.approval.preview, depth: 0 });
        }
        this.approvals.push(event.approval);
        break;
      case 'todos':
        this.todos = event.todos;
        break;
      case 'hook':
        this.flushLive();
        this.push({
          kind: 'notice',
          level: event.hook.blocked ? 'warning' : event.hook.exitCode === 0 ? 'info' : 'error',
          text: hookLine(event.hook),
        });
        break;
      case 'approval_answered':
        this.approvals = this.approvals.filter((a) => a.id !== event.id);
        break;
      case 'turn_end':
        this.endTurn(event.result);
        break;
      case 'notice':
        this.flushLive();
        this.push({ kind: 'notice', level: event.level, text: event.text });
        break;
      case 'shell':
        this.push({ kind: 'shell', command: event.command, exitCode: event.exitCode, output: event.output });
        break;
      case 'status':
        this.status = event.status;
        this.welcome();
        break;
      case 'transcript':
        this.replace(event.messages);
        break;
      case 'exit':
        this.exited = true;
        break;
      default: {
        const never: never = event;
        void never;
      }
    }
  }

  /**
   * Replaces the finished items with a stored conversation (resume, clear). The screen is redrawn only when items
   * were shown (not for the transcript of a session that opens after the UI is drawn).
   */
  replace(messages: readonly Message[]): void {
    const shown = this.items.length > 0;
    this.items = [];
    this.running = [];
    this.approvals = [];
    this.stream = new MarkdownStream();
    this.liveReasoning = '';
    for (const item of itemsFromMessages(messages)) this.push(item);
    if (shown) this.epoch++;
  }

  /** Once the session is open: a first line naming the folder, model, mode and sandbox, and `/help`. */
  welcome(): void {
    const s = this.status;
    if (this.welcomed || s === undefined || s.starting) return;
    this.welcomed = true;
    this.push({ kind: 'notice', level: 'info', text: welcomeLine(s) });
  }

  /** Asks for a redraw of every finished item (e.g. reasoning shown or hidden). */
  redraw(): void {
    this.items = [...this.items];
    this.epoch++;
  }

  private push(item: NewItem): void {
    this.items.push({ ...item, id: this.nextId++ } as TranscriptItem);
  }

  private applyAgent(e: AgentEvent): void {
    const depth = Math.max(0, e.path.length - 1);
    switch (e.type) {
      case 'text_delta':
        this.flushReasoning();
        if (e.runId !== this.streamRun) this.flushText();
        this.streamRun = e.runId;
        this.streamDepth = depth;
        this.sawDelta = true;
        for (const chunk of this.stream.push(e.delta)) this.push({ kind: 'markdown', text: chunk, depth });
        break;
      case 'reasoning_delta':
        this.flushText();
        this.reasoningDepth = depth;
        this.liveReasoning += e.delta;
        break;
      case 'step_start':
        this.sawDelta = false;
        break;
      case 'step_end':
        this.flushLive();
        if (!this.sawDelta && e.text.trim() !== '') this.push({ kind: 'markdown', text: e.text, depth });
        break;
      case 'tool_call':
        this.flushLive();
        this.running.push({ toolCallId: e.toolCallId, call: { toolName: e.toolName, input: e.input }, depth, startedAt: Date.now() });
        break;
      case 'tool_result': {
        const i = this.running.findIndex((r) => r.toolCallId === e.toolCallId);
        const call = i >= 0 ? this.running.splice(i, 1)[0].call : { toolName: e.toolName, input: undefined };
        this.flushLive();
        this.push({ kind: 'tool', call: { ...call, result: { output: e.output, isError: e.isError, durationMs: e.durationMs } }, depth });
        break;
      }
      case 'retry':
        this.push({ kind: 'event', text: `↻ retry ${e.attempt} in ${Math.round(e.delayMs / 100) / 10}s: ${e.error.message}`, depth });
        break;
      case 'warning':
        this.push({ kind: 'event', text: `⚠ ${e.message}`, depth });
        break;
      case 'context_compacted':
        this.flushLive();
        this.push({
          kind: 'event',
          text: `⊜ context compacted (${e.strategy}): ${e.removedMessages} messages, ${e.tokensBefore} → ${e.tokensAfter} tokens${e.summaryError ? ` (the summary failed: ${e.summaryError})` : ''}`,
          depth,
        });
        break;
      case 'handoff':
        this.flushLive();
        this.push({ kind: 'event', text: `→ handoff: ${e.from} → ${e.to}`, depth });
        break;
      case 'task_start':
        this.flushLive();
        this.push({ kind: 'event', text: `▸ ${e.task}${e.target !== e.task ? ` (${e.target})` : ''}`, depth });
        break;
      case 'error':
        this.flushLive();
        if (depth > 0) this.push({ kind: 'event', text: `✗ ${e.agent}: ${e.error.message}`, depth });
        break;
      default:
        break;
    }
  }

  private endTurn(result: CodeTurnResult): void {
    this.flushLive();
    for (const r of this.running) {
      const output = result.status === 'cancelled' ? 'cancelled' : 'did not finish';
      this.push({ kind: 'tool', call: { ...r.call, result: { output, isError: true } }, depth: r.depth });
    }
    this.running = [];
    this.approvals = [];
    this.push({ kind: 'turn_end', result });
  }

  private flushLive(): void {
    this.flushReasoning();
    this.flushText();
  }

  private flushText(): void {
    const rest = this.stream.end();
    if (rest) this.push({ kind: 'markdown', text: rest, depth: this.streamDepth });
  }

  private flushReasoning(): void {
    const text = this.liveReasoning.trim();
    this.liveReasoning = '';
    if (text) this.push({ kind: 'reasoning', text, depth: this.reasoningDepth });
  }
}

/** The welcome line: `corvid code · ~/calc · openai:gpt-4.1 · default mode · sandbox on · /help for commands`. */
export function welcomeLine(s: CodeStatus): string {
  const home = process.env.HOME;
  const folder = home && (s.cwd === home || s.cwd.startsWith(`${home}/`)) ? `~${s.cwd.slice(home.length)}` : s.cwd;
  const sandbox = s.sandbox ? 'sandbox on' : 'sandbox off';
  return `corvid code · ${folder} · ${s.model} · ${s.mode} mode · ${sandbox} · /help for commands, Shift+Tab for modes`;
}

/** Transcript items for a stored conversation: user texts, answers, reasoning, and tool calls with their results. */
export function itemsFromMessages(messages: readonly Message[]): NewItem[] {
  const results = new Map<string, { output: unknown; isError: boolean }>();
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      if (part.type !== 'tool-result') continue;
      const o = part.output;
      const isError = o.type === 'error-text' || o.type === 'error-json' || o.type === 'execution-denied';
      results.set(part.toolCallId, { output: 'value' in o ? o.value : (o.reason ?? 'denied'), isError });
    }
  }
  const out: NewItem[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      if (text) out.push({ kind: 'user', text });
    } else if (m.role === 'assistant') {
      for (const part of m.content) {
        if (part.type === 'text' && part.text.trim()) out.push({ kind: 'markdown', text: part.text, depth: 0 });
        else if (part.type === 'reasoning' && part.text.trim()) out.push({ kind: 'reasoning', text: part.text, depth: 0 });
        else if (part.type === 'tool-call') {
          const input = typeof part.input === 'string' ? safeJson(part.input) : part.input;
          out.push({ kind: 'tool', call: { toolName: part.toolName, input, result: results.get(part.toolCallId) }, depth: 0 });
        }
      }
    }
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
