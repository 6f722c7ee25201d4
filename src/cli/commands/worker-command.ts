import { type CliContext, EXIT } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { loadCliRuntime } from '../load-cli-runtime.js';
import { parseConcurrency } from './serve-command.js';

/** `corvid worker [--concurrency n]`: executes queued background runs until SIGINT / SIGTERM. */
export async function workerCommand(context: CliContext): Promise<number> {
  const { stderr } = context;
  const concurrency = parseConcurrency(context.values.concurrency, 'worker');
  const runtime = await loadCliRuntime(context);
  const c = colorsFor(stderr, context.globals);
  try {
    const store = await runtime.store();
    const worker = await runtime.runs.work({
      ...(concurrency !== undefined ? { concurrency } : {}),
      onError: (runId, err) => {
        if ((err as Error).name !== 'RunHeldElsewhereError') stderr.write(`corvid worker: run ${runId}: ${(err as Error).message}\n`);
      },
      onScheduleError: (name, err) => stderr.write(`corvid worker: schedule ${name}: ${(err as Error).message}\n`),
    });
    const queue = runtime.config.queue?.backend ?? 'embedded';
    const n = concurrency ?? runtime.config.queue?.concurrency ?? 4;
    stderr.write(`${c.bold('corvid worker')}: executing queued runs (${queue} queue on ${store.info.location}, ${n} at once)\n`);
    const schedules = runtime.runs.schedules.list();
    if (schedules.length > 0)
      stderr.write(`corvid worker: submitting the runs of ${schedules.length} schedule(s): ${schedules.map((s) => s.name).join(', ')}\n`);
    // The queue's timers do not hold the process open; this does, until a signal.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    stderr.write(`corvid worker: ${signal}, letting running runs finish\n`);
    clearInterval(keepAlive);
    await worker.stop();
    return EXIT.ok;
  } finally {
    await runtime.close().catch(() => undefined);
  }
}
