import { RunAbortedError } from '../errors/run-aborted-error.js';

/** Waits `ms`, rejecting with RunAbortedError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new RunAbortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunAbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
