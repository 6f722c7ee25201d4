import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';

import { reportRejection } from '../../core/report-rejection.js';

/**
 * Server-sent events from an async iterator whose first result was already taken (so errors
 * before the first event can still be answered with a plain error response). When the client
 * disconnects, the task keeps running and the rest of the stream is drained unsent.
 */
export function sseResponse<T>(
  first: IteratorResult<T>,
  iterator: AsyncIterator<T>,
  options: {
    encode: (value: T) => unknown;
    onError: (err: unknown) => unknown;
    headers?: Record<string, string>;
    /** Called when the client disconnects (before the rest is drained). */
    onCancel?: () => void;
  },
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(formatSSEEvent(options.encode(first.value))));
    },
    async pull(controller) {
      if (first.done) return;
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(formatSSEEvent(options.encode(next.value))));
      } catch (err) {
        controller.enqueue(encoder.encode(formatSSEErrorEvent(options.onError(err))));
        controller.close();
      }
    },
    cancel() {
      options.onCancel?.();
      // The client went away. The SDK records task progress while its stream is read, so keep
      // reading (and discarding) until the task settles; the task is not canceled.
      void (async () => {
        try {
          for (let r = await iterator.next(); !r.done; r = await iterator.next());
        } catch {
          // The task's own state records the failure.
        }
      })().catch(reportRejection('draining an abandoned A2A stream'));
    },
  });
  return new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...options.headers } });
}

/** A stream of one error event (a streaming method that failed before its first event). */
export function sseError(payload: unknown, headers?: Record<string, string>): Response {
  return new Response(formatSSEErrorEvent(payload), { status: 200, headers: { ...SSE_HEADERS, ...headers } });
}
