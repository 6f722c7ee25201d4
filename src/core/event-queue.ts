import type { AgentEvent } from '../types/events.js';

/** An unbounded single-consumer async queue of events. */
export class EventQueue implements AsyncIterable<AgentEvent> {
  private buffer: AgentEvent[] = [];
  private head = 0;
  private waiting: ((r: IteratorResult<AgentEvent>) => void) | undefined;
  private closed = false;
  private detached = false;

  /** Adds an event (dropped once the consumer has stopped iterating). */
  readonly push = (event: AgentEvent): void => {
    if (this.closed || this.detached) return;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w({ value: event, done: false });
    } else this.buffer.push(event);
  };

  /** Ends the stream after the buffered events. */
  close(): void {
    this.closed = true;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return {
      next: () => {
        if (this.head < this.buffer.length) {
          const value = this.buffer[this.head++];
          if (this.head > 1024 && this.head * 2 > this.buffer.length) {
            this.buffer = this.buffer.slice(this.head);
            this.head = 0;
          }
          return Promise.resolve({ value, done: false });
        }
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.detached = true;
        this.buffer = [];
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
