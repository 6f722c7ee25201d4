const NOOP = (): void => {};

/**
 * Cancels a run, like an `AbortController`, but cheap when nothing needs an `AbortSignal`.
 *
 * On Node 20 every `AbortSignal` is a dictionary-mode object with a hidden class of its own: making
 * one costs about 2 µs, and each read of `signal.aborted` is a slow lookup that also leaves the
 * reading code megamorphic. A served run with a fast model paid more for its signal than for the
 * rest of its agent loop. Here `aborted` is a plain field, links to per-call controllers are plain
 * callbacks, and a real `AbortSignal` is made only when something asks for `signal` (a provider call
 * without a timeout of its own, a tool, `stream()`), already aborted if the source is.
 *
 * Pass it as `RunOptions.signal`; call `abort()` to cancel.
 */
export class CancelSource {
  private controller: AbortController | undefined;
  private listeners: (() => void)[] | undefined;
  private done = false;
  private why: unknown;

  /** Whether `abort()` was called. */
  get aborted(): boolean {
    return this.done;
  }

  /** What `abort()` was called with (an `AbortError` `DOMException` when nothing was given). */
  get reason(): unknown {
    return this.why;
  }

  /** A real `AbortSignal` that follows this source, made on first use. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  /** Cancels: `aborted` turns true, listeners run, the signal (if made) aborts. Later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.controller?.abort(this.why);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** Calls `listener` once on abort (now, if already aborted); returns a function that removes it. */
  onAbort(listener: () => void): () => void {
    if (this.done) {
      listener();
      return NOOP;
    }
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.listeners!.splice(at, 1);
    };
  }
}

/** What can cancel a run: a standard `AbortSignal`, or a `CancelSource`. */
export type RunSignal = AbortSignal | CancelSource;

/** The `AbortSignal` of a run signal, for APIs that need a real one (made now for a `CancelSource`). */
export function abortSignalOf(signal: RunSignal | undefined): AbortSignal | undefined {
  return signal instanceof CancelSource ? signal.signal : signal;
}
