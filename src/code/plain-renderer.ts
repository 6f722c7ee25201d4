import type { AgentEvent } from '../types/events.js';
import { hookLine, todoLines } from './code-event-text.js';
import type { CodeEvent, CodeStatus } from './code-session-types.js';

/** Lines of a tool's output shown in plain mode. */
const TAIL_LINES = 12;

/** A short description of a tool call: `read_file src/a.ts`, `$ npm test`. */
export function describeToolCall(toolName: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  if (toolName === 'bash' && typeof i.command === 'string') return `$ ${i.command}`;
  const main = i.pattern ?? i.path ?? i.url ?? i.query;
  if (typeof main === 'string') {
    const where = typeof i.path === 'string' && main !== i.path ? ` in ${i.path}` : '';
    return `${toolName} ${main}${where}`;
  }
  const json = JSON.stringify(input) ?? '';
  return `${toolName} ${json.length > 100 ? `${json.slice(0, 97)}...` : json}`;
}

/** The last `n` lines of a text, with a note of how many were left out. */
export function tail(text: string, n = TAIL_LINES): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  if (lines.length <= n) return lines.join('\n');
  return [`… (${lines.length - n} more lines)`, ...lines.slice(-n)].join('\n');
}

/** One line about a tool's result. */
export function describeToolResult(toolName: string, output: unknown, isError: boolean): string {
  if (isError) {
    const message = typeof output === 'string' ? output : ((output as { message?: string } | undefined)?.message ?? JSON.stringify(output));
    return `  ✗ ${String(message).split('\n')[0]}`;
  }
  const o = (output ?? {}) as Record<string, unknown>;
  if (toolName === 'bash' && 'exitCode' in o) {
    const text = [o.stdout, o.stderr].filter((s) => typeof s === 'string' && s !== '').join('\n');
    return `  exit ${String(o.exitCode ?? o.signal)}${text ? `\n${indent(tail(text))}` : ''}`;
  }
  if (typeof o.diff === 'string' && o.diff !== '') return indent(o.diff.replace(/\n+$/, ''));
  if (o.action === 'created' && typeof o.bytes === 'number') return `  created (${o.bytes} bytes)`;
  if (typeof o.totalLines === 'number') return `  ${typeof o.lines === 'string' ? `lines ${o.lines} of ` : ''}${o.totalLines} lines`;
  if (typeof o.matches === 'number') return `  ${o.matches} matches in ${String(o.files)} files`;
  if (Array.isArray(o.files)) return `  ${o.files.length} files`;
  if (Array.isArray(o.entries)) return `  ${o.entries.length} entries`;
  return '  done';
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** The status as one line: model, mode, tokens, cost, context. */
export function statusLine(s: CodeStatus): string {
  const cost = s.costUsd !== undefined ? ` · $${s.costUsd.toFixed(4)}` : '';
  return `${s.model} · ${s.mode} mode${s.sandbox ? ' · sandbox' : ''} · ${s.usage.totalTokens} tokens${cost} · context ${s.contextPercent}%`;
}

/**
 * Renders `CodeEvent`s as plain lines (no colours, no cursor movement) for pipes and dumb
 * terminals: streamed text as it comes, one line per tool call, a short result, diffs and
 * command output trimmed to their last lines.
 */
export class PlainRenderer {
  private readonly write: (text: string) => void;
  private midLine = false;
  /** The preview of the last approval shown (an approved edit's diff is not printed twice). */
  private shownPreview = '';

  constructor(write: (text: string) => void) {
    this.write = write;
  }

  private line(text: string): void {
    this.endLine();
    this.write(`${text}\n`);
  }

  endLine(): void {
    if (this.midLine) this.write('\n');
    this.midLine = false;
  }

  render(event: CodeEvent): void {
    switch (event.type) {
      case 'turn_start':
      case 'status':
      case 'approval_answered':
        return;
      case 'agent':
        return this.agent(event.event);
      case 'approval':
        this.shownPreview = event.approval.preview;
        if (event.approval.kind === 'plan') return this.line(`? Approve this plan?\n${indent(event.approval.preview)}`);
        return this.line(`? ${event.approval.toolName} needs approval:\n${indent(event.approval.preview)}`);
      case 'turn_end': {
        const r = event.result;
        if (r.status === 'failed') this.line(`✗ ${r.error ?? 'failed'}`);
        else if (r.status === 'cancelled') this.line('✗ cancelled');
        else this.endLine();
        if (r.changedFiles.length > 0) this.line(`changed: ${r.changedFiles.join(', ')}`);
        return;
      }
      case 'notice':
        return this.line(event.level === 'info' ? event.text : `${event.level}: ${event.text}`);
      case 'shell':
        return this.line(`$ ${event.command}\n${event.output ? `${tail(event.output, 40)}\n` : ''}exit ${event.exitCode ?? 'none'}`);
      case 'transcript':
        return this.line(`(${event.messages.length} messages in the conversation)`);
      case 'todos':
        return event.todos.length ? this.line(`todos:\n${todoLines(event.todos)}`) : undefined;
      case 'hook':
        return this.line(hookLine(event.hook));
      case 'exit':
        return this.endLine();
      default: {
        const never: never = event;
        return never;
      }
    }
  }

  private agent(e: AgentEvent): void {
    const nested = e.path.length > 1 ? '  '.repeat(e.path.length - 1) : '';
    switch (e.type) {
      case 'text_delta':
        if (e.path.length > 1) return;
        this.write(e.delta);
        this.midLine = !e.delta.endsWith('\n');
        return;
      case 'tool_call':
        return this.line(`${nested}● ${describeToolCall(e.toolName, e.input)}`);
      case 'tool_result': {
        const diff = (e.output as { diff?: unknown } | undefined)?.diff;
        if (!e.isError && typeof diff === 'string' && diff !== '' && this.shownPreview.includes(diff.trim())) {
          this.shownPreview = '';
          return this.line(`${nested}  applied`);
        }
        return this.line(`${nested}${describeToolResult(e.toolName, e.output, e.isError)}`);
      }
      case 'context_compacted':
        return this.line(
          `(context compacted, ${e.strategy}: ${e.tokensBefore} → ${e.tokensAfter} tokens${e.summaryError ? `; the summary failed: ${e.summaryError}` : ''})`,
        );
      case 'retry':
        return this.line(`(retrying: ${e.error.message})`);
      case 'handoff':
        return this.line(`→ ${e.to}`);
      default:
        return;
    }
  }
}
