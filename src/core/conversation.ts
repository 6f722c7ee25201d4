import { ValidationError } from '../errors/validation-error.js';
import type { Message, RunInput } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import { addUsage, emptyUsage, type Usage } from '../types/usage.js';
import type { Agent } from './agent.js';
import type { RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';

/**
 * A multi-turn conversation with one agent. Each `run`/`stream` sees the earlier turns; a failed
 * or cancelled run leaves the history as it was. One run at a time.
 */
export class Conversation {
  readonly agent: Agent;
  /** The history (without the system prompt). */
  messages: Message[] = [];
  /** Usage summed over every run of this conversation. */
  readonly usage: Usage = emptyUsage();
  private busy = false;

  constructor(agent: Agent, messages?: Message[]) {
    this.agent = agent;
    if (messages) this.messages = messages;
  }

  /** Runs one turn. */
  async run(input: RunInput, options?: RunOptions): Promise<RunResult> {
    this.enter();
    try {
      const result = await this.agent.execute(this.messages, input, options, false);
      addUsage(this.usage, result.usage);
      return result;
    } finally {
      this.busy = false;
    }
  }

  /** Runs one turn, streaming its events. */
  stream(input: RunInput, options?: RunOptions): RunStream {
    this.enter();
    const s = this.agent.streamOn(this.messages, input, options);
    s.result.then(
      (r) => {
        addUsage(this.usage, r.usage);
        this.busy = false;
      },
      () => (this.busy = false),
    );
    return s;
  }

  /** Forgets the history and the usage. */
  reset(): void {
    this.messages = [];
    Object.assign(this.usage, emptyUsage());
  }

  private enter(): void {
    if (this.busy) throw new ValidationError(`A run is already in progress in this conversation with "${this.agent.name}"`);
    this.busy = true;
  }
}
