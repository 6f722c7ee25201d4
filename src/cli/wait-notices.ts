import { describeEndpoint, type ModelEndpoint } from '../models/model-endpoint.js';
import type { AgentEvent } from '../types/events.js';
import type { Colors } from './colors.js';
import { formatDuration } from './format.js';
import { formatWaitTime, type SpinnerSink, WaitSpinner } from './wait-spinner.js';

/** Options for `WaitNotices`. */
export interface WaitNoticesOptions {
  /** Where the lines go (stderr). */
  out: { write(text: string): unknown };
  colors: Colors;
  /** The model an agent (by name) calls and its host, for the lines; `undefined` reads "the model". */
  endpointOf: (agent: string) => ModelEndpoint | undefined;
  /** How often a line says the run is still waiting. Default 10 s. */
  everyMs?: number;
  /** A line per retry. Default true (false when `--verbose` already prints retries). */
  retries?: boolean;
}

/**
 * The wait for a model as plain lines on stderr, for when it is not a terminal (pipes, CI, logs),
 * where `WaitSpinner` draws nothing: one line per retry (what failed, after how long, when the
 * next attempt starts) and, while no answer has started, one line every `everyMs`
 * ("waiting for openai:gpt-4.1-mini at api.openai.com · 20s"). Fed with the run's events (`update`).
 */
export class WaitNotices {
  private readonly options: WaitNoticesOptions;
  private readonly everyMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The step waiting for its model: since when, and for which agent. */
  private waiting: { since: number; agent: string; who: string; attempt?: number } | undefined;

  constructor(options: WaitNoticesOptions) {
    this.options = options;
    this.everyMs = options.everyMs ?? 10_000;
  }

  /** Follows the run: a step waits from `step_start` until anything of its answer arrives. */
  update(e: AgentEvent): void {
    switch (e.type) {
      case 'step_start':
        this.start(e.agent, e.path.length > 1 ? `${e.path.join(' > ')}: ` : '');
        break;
      case 'retry':
        if (this.options.retries !== false) this.retry(e);
        break;
      case 'text_delta':
      case 'reasoning_delta':
      case 'tool_call':
      case 'step_end':
      case 'error':
        this.stop();
        break;
      case 'run_end':
        if (e.path.length <= 1) this.stop();
        break;
      default:
        break;
    }
  }

  /** Nothing to erase: the lines stay (the same interface as `WaitSpinner`). */
  clear(): void {}

  /** Stops the clock (until the next `step_start`). */
  stop(): void {
    this.waiting = undefined;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private start(agent: string, who: string): void {
    this.stop();
    this.waiting = { since: Date.now(), agent, who };
    this.timer = setInterval(() => this.tick(), this.everyMs);
    this.timer.unref?.();
  }

  private tick(): void {
    const w = this.waiting;
    if (!w) return;
    const what = describeEndpoint(this.options.endpointOf(w.agent));
    const attempt = w.attempt ? ` (attempt ${w.attempt})` : '';
    this.line(`${w.who}waiting for ${what}${attempt} · ${formatWaitTime(Date.now() - w.since)}`);
  }

  private retry(e: Extract<AgentEvent, { type: 'retry' }>): void {
    const what = describeEndpoint(this.options.endpointOf(e.agent));
    const waited = this.waiting ? `, waiting ${formatWaitTime(Date.now() - this.waiting.since)}` : '';
    const who = e.path.length > 1 ? `${e.path.join(' > ')}: ` : '';
    this.line(`${who}retry ${e.attempt} in ${formatDuration(e.delayMs)} (${what}${waited}): ${e.error.message}`);
    if (this.waiting) this.waiting.attempt = e.attempt + 1;
  }

  private line(text: string): void {
    this.options.out.write(`${this.options.colors.yellow(text)}\n`);
  }
}

/** How a command shows a wait: a spinner on a terminal, lines elsewhere. */
export interface WaitStatus {
  update(e: AgentEvent): void;
  /** Erase what is drawn before other output (the spinner's line). */
  clear(): void;
  stop(): void;
}

/**
 * A `WaitSpinner` when `out` is a terminal, else `WaitNotices` (retries as lines unless `verbose`
 * prints them already; the "still waiting" interval from `CORVID_WAIT_NOTICE_SECONDS`, default 10).
 */
export function waitStatusFor(options: {
  out: SpinnerSink;
  colors: Colors;
  env: NodeJS.ProcessEnv;
  endpointOf: (agent: string) => ModelEndpoint | undefined;
  verbose: boolean;
}): WaitStatus {
  const { out, colors, env, endpointOf, verbose } = options;
  const spinner = new WaitSpinner({ out, colors, env, busyStates: !verbose, endpointOf });
  if (spinner.enabled) return spinner;
  const every = Number(env.CORVID_WAIT_NOTICE_SECONDS);
  return new WaitNotices({ out, colors, endpointOf, retries: !verbose, everyMs: every > 0 ? every * 1000 : undefined });
}
