import { reportRejection } from '../../core/report-rejection.js';
import type { RunOptions } from '../../core/run-options.js';
import type { RunStream } from '../../core/run-stream.js';
import type { Runnable } from '../../core/runnable.js';
import type { EventSink } from '../../types/events.js';
import type { RunResult } from '../../types/result.js';

/** Per-turn run options the transports may set (the OpenAI-compatible API passes client tools and model settings). */
export type TurnOptions = Pick<RunOptions, 'onApproval' | 'clientTools' | 'temperature' | 'topP' | 'maxTokens' | 'toolChoice'>;

/** How a turn executes: a conversation turn (memory mode), a session run or a resume (store mode). */
export interface TurnExecutor {
  run(options: RunOptions): Promise<RunResult>;
  stream(options: RunOptions): RunStream;
}

/** What a `ChatTurn` is made of (see `ChatService.begin` / `beginResume`). */
export interface ChatTurnInit {
  sessionId: string;
  agent: Runnable;
  executor: TurnExecutor;
  onEvent: EventSink;
  /** Called once when the turn ends (with its result, or `undefined` when it failed or never ran). */
  settle: (result: RunResult | undefined) => Promise<void>;
  /** Aborted to cancel the turn from elsewhere (`POST /api/v1/runs/{id}/cancel`). */
  cancel?: AbortSignal;
}

/** One turn of a chat session (a new message, or a resumed run), ready to run once, as JSON or streamed. */
export class ChatTurn {
  readonly sessionId: string;
  readonly agent: Runnable;
  private done = false;

  constructor(private readonly init: ChatTurnInit) {
    this.sessionId = init.sessionId;
    this.agent = init.agent;
  }

  private options(signal: AbortSignal | undefined, extra: TurnOptions | undefined): RunOptions {
    const o: RunOptions = { onEvent: this.init.onEvent };
    const cancel = this.init.cancel;
    if (signal && cancel) o.signal = AbortSignal.any([signal, cancel]);
    else if (signal ?? cancel) o.signal = signal ?? cancel;
    if (extra !== undefined) {
      if (extra.onApproval) o.onApproval = extra.onApproval;
      if (extra.clientTools?.length) o.clientTools = extra.clientTools;
      if (extra.temperature !== undefined) o.temperature = extra.temperature;
      if (extra.topP !== undefined) o.topP = extra.topP;
      if (extra.maxTokens !== undefined) o.maxTokens = extra.maxTokens;
      if (extra.toolChoice !== undefined) o.toolChoice = extra.toolChoice;
    }
    return o;
  }

  private once(): void {
    if (this.done) throw new Error('a chat turn runs once');
    this.done = true;
  }

  /** Runs to the end (or to a pause for approvals). */
  async run(signal?: AbortSignal, extra?: TurnOptions): Promise<RunResult> {
    this.once();
    try {
      const result = await this.init.executor.run(this.options(signal, extra));
      await this.init.settle(result);
      return result;
    } catch (err) {
      await this.init.settle(undefined);
      throw err;
    }
  }

  /** Streams the run's events. */
  stream(signal?: AbortSignal, extra?: TurnOptions): RunStream {
    this.once();
    let s: RunStream;
    try {
      s = this.init.executor.stream(this.options(signal, extra));
    } catch (err) {
      void this.init.settle(undefined).catch(reportRejection('releasing the session of a turn that did not start'));
      throw err;
    }
    s.result.then(
      (r) => this.init.settle(r),
      () => this.init.settle(undefined),
    );
    return s;
  }

  /** Gives the session back without running (e.g. the client left before the run started). */
  cancel(): void {
    if (this.done) return;
    this.done = true;
    void this.init.settle(undefined).catch(reportRejection('releasing the session of a cancelled turn'));
  }
}
