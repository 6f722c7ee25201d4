import type { EventSink } from '../types/events.js';
import type { Message, RunInput } from '../types/message.js';
import type { RunResult } from '../types/result.js';
import { emptyUsage } from '../types/usage.js';
import { linkAbort } from './abort-link.js';
import { EventQueue } from './event-queue.js';
import type { RunOptions } from './run-options.js';
import type { RunStream } from './run-stream.js';
import type { Runnable } from './runnable.js';

/**
 * Streams a run of any agent on the given history (mutated on success). `exec` replaces the plain
 * execution (session runs, resumes); it gets the options with the stream's signal and event sink.
 */
export function streamRun(
  agent: Runnable,
  history: Message[],
  input: RunInput,
  options?: RunOptions,
  exec?: (options: RunOptions) => Promise<RunResult>,
): RunStream {
  const queue = new EventQueue();
  // Aborted by `abort()` or with the caller's signal (linked until the run settles).
  const controller = new AbortController();
  const unlink = linkAbort(options?.signal, controller);
  const userSink = options?.onEvent;
  let started = false;
  const onEvent: EventSink = (e) => {
    if (e.type === 'run_start') started = true;
    queue.push(e);
    if (userSink) userSink(e);
  };
  const runOptions: RunOptions = { ...options, signal: controller.signal, onEvent };
  const result = exec !== undefined ? exec(runOptions) : agent.execute({ history, input, options: runOptions, stream: true });
  result.then(
    () => {
      unlink();
      queue.close();
    },
    (err: { name?: string; code?: string; message?: string }) => {
      unlink();
      // A failure before the loop started (no model, bad tools) still ends the stream with error + run_end.
      if (!started) {
        const base = { runId: '', agent: agent.name, path: [agent.name] };
        queue.push({
          ...base,
          type: 'error',
          error: { name: err?.name ?? 'Error', code: err?.code ?? 'internal', message: err?.message ?? String(err) },
        });
        queue.push({ ...base, type: 'run_end', status: 'failed', steps: 0, usage: emptyUsage(), durationMs: 0 });
      }
      queue.close();
    },
  );
  return {
    result,
    abort: (reason?: unknown) => controller.abort(reason),
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}
