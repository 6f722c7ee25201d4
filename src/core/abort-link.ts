const NOOP = (): void => {};

/**
 * Aborts `controller` (with the same reason) when `signal` aborts, and returns a function that
 * removes the link. Used instead of `AbortSignal.any` for short-lived per-call signals: it costs
 * a listener instead of a tracked composite signal, which matters when nested runs put a signal
 * on every model call.
 */
export function linkAbort(signal: AbortSignal | undefined, controller: { abort(reason?: unknown): void }): () => void {
  if (signal === undefined) return NOOP;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return NOOP;
  }
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
