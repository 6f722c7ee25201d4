import { describeEndpoint, type ModelEndpoint } from '../models/model-endpoint.js';
import type { AgentEvent } from '../types/events.js';
import type { Colors } from './colors.js';
import { truncate } from './format.js';

/** Where the spinner draws: a terminal stream (its width keeps the line from wrapping). */
export interface SpinnerSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options for `WaitSpinner`. */
export interface WaitSpinnerOptions {
  out: SpinnerSink;
  colors: Colors;
  /** Environment, for `TERM=dumb`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Redraw interval. Default 100 ms. */
  intervalMs?: number;
  /** Also show what happens while the answer streams (deltas, tools): when nothing else is printed. Default false. */
  busyStates?: boolean;
  /** The model an agent (by name) calls and its host, named while waiting; without it, "the model". */
  endpointOf?: (agent: string) => ModelEndpoint | undefined;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Whether a spinner may draw on `out`: a terminal that is not `TERM=dumb`. */
export function spinnerEnabled(out: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return out.isTTY === true && env.TERM !== 'dumb';
}

/** A wait as a person reads it: `12s`, `4m 05s`. */
export function formatWaitTime(ms: number, round: (n: number) => number = Math.floor): string {
  const s = Math.max(0, round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/**
 * One status line on stderr while a run waits: a spinner, what it waits for and for how long
 * ("waiting for the model · 12s"), and a countdown after a failed call ("retrying in 4s
 * (attempt 2): …"). It draws only on a terminal, is erased before anything else is written
 * (`clear()`) and redraws itself on the next tick. Fed with the run's events (`update`).
 */
export class WaitSpinner {
  readonly enabled: boolean;
  private readonly out: SpinnerSink;
  private readonly c: Colors;
  private readonly busyStates: boolean;
  private readonly intervalMs: number;
  private readonly env: NodeJS.ProcessEnv;
  private readonly endpointOf: (agent: string) => ModelEndpoint | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  private shown = false;
  /** What is shown; `undefined` hides the line. */
  private state: { label: string; since: number; retryAt?: number; after?: string } | undefined;

  constructor(options: WaitSpinnerOptions) {
    this.out = options.out;
    this.c = options.colors;
    this.env = options.env ?? process.env;
    this.enabled = spinnerEnabled(options.out, this.env);
    this.busyStates = options.busyStates ?? false;
    this.intervalMs = options.intervalMs ?? 100;
    this.endpointOf = options.endpointOf ?? (() => undefined);
  }

  /** Starts showing `label` with a clock from now. */
  wait(label: string): void {
    this.set({ label, since: Date.now() });
  }

  /** Follows the run: waiting for the model, retry countdowns, tools, the answer streaming. */
  update(e: AgentEvent): void {
    if (!this.enabled) return;
    const who = e.path.length > 1 ? `${e.path.join(' > ')}: ` : '';
    switch (e.type) {
      case 'step_start':
        this.wait(`${who}waiting for ${describeEndpoint(this.endpointOf(e.agent))}`);
        break;
      case 'retry': {
        const now = Date.now();
        this.set({
          label: `${who}${e.error.message}`,
          since: now,
          retryAt: now + e.delayMs,
          after: `${who}waiting for ${describeEndpoint(this.endpointOf(e.agent))} (attempt ${e.attempt + 1})`,
        });
        break;
      }
      case 'reasoning_delta':
        this.busy(`${who}thinking`);
        break;
      case 'text_delta':
        this.busy(`${who}writing the answer`);
        break;
      case 'tool_call':
        this.busy(`${who}running ${e.toolName}`);
        break;
      case 'run_end':
        if (e.path.length <= 1) this.stop();
        break;
      default:
        break;
    }
  }

  /** Erases the line (call before writing anything else to the same terminal); it comes back on the next tick. */
  clear(): void {
    if (!this.shown) return;
    this.out.write('\r\u001b[2K');
    this.shown = false;
  }

  /** Erases the line and stops the clock for good (until `wait`). */
  stop(): void {
    this.state = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private busy(label: string): void {
    if (!this.busyStates) return this.stop();
    if (this.state?.label !== label || this.state.retryAt !== undefined) this.set({ label, since: Date.now() });
  }

  private set(state: NonNullable<WaitSpinner['state']>): void {
    if (!this.enabled) return;
    this.state = state;
    if (!this.timer) {
      this.timer = setInterval(() => this.draw(), this.intervalMs);
      this.timer.unref?.();
    }
    this.draw();
  }

  private draw(): void {
    const s = this.state;
    if (!s) return;
    const now = Date.now();
    if (s.retryAt !== undefined && now >= s.retryAt) {
      this.state = { label: s.after ?? 'waiting', since: s.retryAt };
      return this.draw();
    }
    this.frame = (this.frame + 1) % FRAMES.length;
    const clock = s.retryAt !== undefined ? `retrying in ${formatWaitTime(s.retryAt - now, Math.ceil)}` : formatWaitTime(now - s.since);
    // A line wider than the terminal would wrap, and `\r` could no longer erase it.
    const width = Math.max(20, (this.out.columns || Number(this.env.COLUMNS) || 80) - 1);
    const text = truncate(`${FRAMES[this.frame]} ${s.retryAt !== undefined ? `${clock} · ${s.label}` : `${s.label} · ${clock}`}`, width);
    this.out.write(`\r\u001b[2K${s.retryAt !== undefined ? this.c.yellow(text) : this.c.dim(text)}`);
    this.shown = true;
  }
}
