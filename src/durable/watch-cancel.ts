import type { Store } from '../types/storage/store.js';

/** How often a worker looks at the cancel flags of the runs it runs. */
export const CANCEL_POLL_MS = 250;

/**
 * Aborts `controller` when run `runId` is asked to stop (`store.backgroundRuns.requestCancel`,
 * from any instance): the flag is read every `pollMs`. Returns the function that stops watching.
 */
export function watchCancel(store: Store, runId: string, controller: AbortController, pollMs = CANCEL_POLL_MS): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    store.backgroundRuns
      .cancelRequested([runId])
      .then((ids) => {
        if (ids.length > 0) controller.abort(new Error(`run ${runId} was cancelled`));
      })
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
