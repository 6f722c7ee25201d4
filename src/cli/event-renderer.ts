import type { AgentEvent } from '../types/events.js';
import type { Colors } from './colors.js';
import { compact, formatDuration, formatUsage } from './format.js';

/** Where the renderer writes. */
export interface TextSink {
  write(text: string): unknown;
}

export interface EventRendererOptions {
  out: TextSink;
  colors: Colors;
  /** Show the top-level `run_start` input (for `run --verbose`; the chat user typed it already). */
  showInput?: boolean;
  /** Render top-level `error` events (off when the caller reports the failure itself). Default true. */
  topLevelErrors?: boolean;
  /** Show step headers for the top-level agent. Default true. */
  showSteps?: boolean;
}

const MAX_VALUE = 200;

/**
 * Turns the event stream into readable, optionally colored text: step headers, dimmed thinking,
 * tool calls with compact arguments, truncated results (errors in red), the streamed answer,
 * dimmed provider warnings (each distinct one once per run), a dim line per knowledge retrieval, and errors. Events of nested agents (path longer than one) are indented and labelled `boss > geo`.
 * Used by `corvid chat` and `corvid run --verbose`.
 */
export class EventRenderer {
  private readonly out: TextSink;
  private readonly c: Colors;
  private readonly options: EventRendererOptions;
  /** Key of the delta stream being written (`text|boss>geo`), so a change starts a new line. */
  private streamKey: string | undefined;
  private atLineStart = true;
  /** Prefix still to be written before the next streamed character (after a newline). */
  private pendingPrefix = '';
  /**
   * Text streamed in the latest step of any agent: when the answer was streamed there (by the
   * top-level agent, a handoff target or a workflow's last part) it is not printed again.
   */
  private lastStepText = '';
  /** Provider warnings shown in the current top-level run (each distinct one once). */
  private warned = new Set<string>();
  /** The top-level `answer` was written out (not only streamed before it). */
  private answerWritten = false;

  constructor(options: EventRendererOptions) {
    this.out = options.out;
    this.c = options.colors;
    this.options = options;
  }

  /** Renders one event. */
  render(e: AgentEvent): void {
    const c = this.c;
    const nested = e.path.length > 1;
    const indent = '  '.repeat(Math.max(0, e.path.length - 1));
    const label = nested ? `${c.magenta(e.path.join(' > '))} ` : '';
    switch (e.type) {
      case 'run_start':
        if (!nested) this.warned.clear();
        if (e.resumed) this.line(`${indent}${label}${c.dim(`resuming run ${e.runId}`)}`);
        if (nested) this.line(`${indent}${label}${c.dim('◀')} ${compact(e.input, MAX_VALUE)}`);
        else if (this.options.showInput) this.line(`${c.cyan(c.bold(`${e.agent} ◀`))} ${e.input}`);
        break;
      case 'step_start':
        this.lastStepText = '';
        if (nested || this.options.showSteps !== false) this.line(`${indent}${label}${c.dim(`step ${e.step}/${e.maxSteps}`)}`);
        break;
      case 'reasoning_delta':
        this.stream(`r|${e.path.join('>')}`, `${indent}${label}${c.dim(c.italic('thinking '))}`, indent, e.delta, (t) =>
          c.dim(c.italic(t)),
        );
        break;
      case 'text_delta':
        this.lastStepText += e.delta;
        this.stream(`t|${e.path.join('>')}`, `${indent}${label}`, indent, e.delta, (t) => t);
        break;
      case 'tool_call':
        this.line(`${indent}${label}${c.yellow('→')} ${c.bold(e.toolName)} ${c.dim(compact(e.input, MAX_VALUE))}`);
        break;
      case 'tool_result': {
        const text = compact(e.output, MAX_VALUE);
        const time = c.dim(`(${formatDuration(e.durationMs)})`);
        if (e.isError) this.line(`${indent}${label}${c.red('✗')} ${c.bold(e.toolName)} ${c.red(text)} ${time}`);
        else this.line(`${indent}${label}${c.green('←')} ${c.bold(e.toolName)} ${text} ${time}`);
        break;
      }
      case 'step_end':
        this.endLine();
        break;
      case 'retry':
        this.line(
          `${indent}${label}${c.yellow(`↻ retry ${e.attempt} in ${formatDuration(e.delayMs)}: ${compact(e.error.message, MAX_VALUE)}`)}`,
        );
        break;
      case 'warning': {
        const key = `${e.model}|${e.message}`;
        if (this.warned.has(key)) break;
        this.warned.add(key);
        this.line(`${indent}${label}${c.dim(`warning: ${e.model}: ${compact(e.message, MAX_VALUE)}`)}`);
        break;
      }
      case 'context_compacted':
        this.line(
          `${indent}${label}${c.dim(`context compacted (${e.strategy}): ${e.removedMessages} messages removed, ~${e.tokensBefore} → ~${e.tokensAfter} tokens${e.summaryError ? ` (the summary failed: ${e.summaryError})` : ''}`)}`,
        );
        break;
      case 'handoff':
        this.line(`${indent}${label}${c.cyan('⇢')} ${c.bold(e.from)} hands over to ${c.bold(e.to)}`);
        break;
      case 'task_start': {
        const extra =
          e.iteration !== undefined ? ` (iteration ${e.iteration})` : e.dependsOn?.length ? ` (after ${e.dependsOn.join(', ')})` : '';
        const what = e.task === e.target ? c.bold(e.task) : `${c.bold(e.task)} ${c.dim(`→ ${e.target}`)}`;
        this.line(`${indent}${label}${c.cyan('▶')} ${what}${c.dim(extra)}`);
        break;
      }
      case 'task_end': {
        const time = c.dim(`(${formatDuration(e.durationMs)})`);
        if (e.status === 'completed') this.line(`${indent}${label}${c.green('✓')} ${c.bold(e.task)} ${time}`);
        else if (e.status === 'skipped') this.line(`${indent}${label}${c.dim(`– ${e.task} skipped`)}`);
        else if (e.status === 'aborted') this.line(`${indent}${label}${c.yellow(`✗ ${e.task} cancelled`)}`);
        else
          this.line(`${indent}${label}${c.red('✗')} ${c.bold(e.task)} ${c.red(compact(e.error?.message ?? 'failed', MAX_VALUE))} ${time}`);
        break;
      }
      case 'route':
        this.line(`${indent}${label}${c.cyan('↦')} route ${c.bold(e.route)} ${c.dim(`(${e.matchedBy}) → ${e.target}`)}`);
        break;
      case 'mcp_notification': {
        const what =
          e.kind === 'progress'
            ? `${e.progress}${e.total !== undefined ? `/${e.total}` : ''}${e.message ? ` ${e.message}` : ''}`
            : `${e.level ?? 'log'}: ${e.message ?? ''}`;
        this.line(`${indent}${label}${c.dim(`  ${e.server}${e.kind === 'progress' ? ' ⋯' : ''} ${compact(what, MAX_VALUE)}`)}`);
        break;
      }
      case 'retrieval': {
        const n = e.hits.length;
        const what = `${e.via === 'inject' ? 'added' : 'retrieved'} ${n} chunk${n === 1 ? '' : 's'} from ${e.knowledge}`;
        this.line(
          `${indent}${label}${c.dim(`${what} in ${formatDuration(e.timings.totalMs)}${e.via === 'inject' ? ' to the context' : ''}`)}`,
        );
        break;
      }
      case 'approval_required':
        this.line(`${indent}${label}${c.yellow('⏸')} ${c.bold(e.toolName)} needs approval: ${e.prompt} ${c.dim(`(${e.approvalId})`)}`);
        break;
      case 'guardrail': {
        const what = e.toolName !== undefined ? `${e.stage} ${e.toolName}` : e.stage;
        const reason = e.reason ? `: ${compact(e.reason, MAX_VALUE)}` : '';
        if (e.passed) this.line(`${indent}${label}${c.dim(`guardrail ${e.guardrail} (${what}) passed`)}`);
        else if (e.mode === 'check') this.line(`${indent}${label}${c.yellow(`guardrail ${e.guardrail} (${what}) failed${reason}`)}`);
        else this.line(`${indent}${label}${c.red(`⛔ guardrail ${e.guardrail} (${what}) tripped${reason}`)}`);
        break;
      }
      case 'answer':
        this.answerWritten = !nested && this.lastStepText === '' && e.text !== '';
        if (this.answerWritten) this.stream(`t|${e.path.join('>')}`, '', '', e.text, (t) => t);
        this.endLine();
        break;
      case 'error':
        if (nested || this.options.topLevelErrors !== false) {
          if (e.error.code === 'run_aborted') this.line(`${indent}${label}${c.yellow('cancelled')}`);
          else this.line(`${indent}${label}${c.red(c.bold('error:'))} ${c.red(e.error.message)}`);
        }
        break;
      case 'run_end':
        if (nested) {
          this.line(
            `${indent}${label}${c.dim(`${e.status} · ${e.steps} step${e.steps === 1 ? '' : 's'} · ${formatUsage(e.usage)} tokens`)}`,
          );
        } else if (e.status === 'paused') this.line(c.yellow('paused: waiting for approval (corvid approvals list)'));
        // A question (ask_user) after text the model wrote in the same step: the question still shows.
        else if (e.needsInput !== undefined && !this.answerWritten) this.line(c.yellow(e.needsInput.question));
        else this.endLine();
        break;
      default: {
        const never: never = e;
        void never;
      }
    }
  }

  /** Ends a partly written line (call before writing anything else to the same stream). */
  endLine(): void {
    if (!this.atLineStart) this.out.write('\n');
    this.atLineStart = true;
    this.streamKey = undefined;
    this.pendingPrefix = '';
  }

  /** Writes one full line of its own. */
  line(text: string): void {
    this.endLine();
    this.out.write(`${text}\n`);
  }

  private stream(key: string, firstPrefix: string, nextPrefix: string, delta: string, paint: (t: string) => string): void {
    if (delta === '') return;
    if (this.streamKey !== key) {
      this.endLine();
      this.streamKey = key;
      this.pendingPrefix = firstPrefix;
    }
    const parts = delta.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) {
        this.out.write('\n');
        this.atLineStart = true;
        this.pendingPrefix = nextPrefix;
      }
      if (part === '') return;
      this.out.write(`${this.pendingPrefix}${paint(part)}`);
      this.pendingPrefix = '';
      this.atLineStart = false;
    });
  }
}
