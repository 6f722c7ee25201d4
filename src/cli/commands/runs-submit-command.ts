import type { Runtime } from '../../runtime/load-runtime.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { formatError } from '../format-error.js';
import { loadCliRuntime } from '../load-cli-runtime.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--delay 10m` in milliseconds (ms, s, m, h or d; at most a year). */
export function parseDelay(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(value.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2]] : NaN;
  if (!Number.isFinite(ms) || ms > 31_536_000_000)
    throw new UsageError(`--delay is a duration such as 30s, 10m, 2h or 1d (at most a year), got "${value}"`, 'runs');
  return Math.round(ms);
}

/** `--at` as a time: ISO 8601 with a zone. */
function parseAt(value: string): Date {
  const t = /(Z|[+-]\d\d:?\d\d)$/i.test(value.trim()) ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw new UsageError(`--at is an ISO 8601 time with a zone, e.g. 2026-01-31T09:00:00Z, got "${value}"`, 'runs');
  return new Date(t);
}

/**
 * `corvid runs submit <agent> <input> [--delay 10m | --at <time>] [--session <id>]`: queues a
 * background run (a worker executes it) and prints its id; `corvid runs schedules`: the config's
 * cron schedules with their next tick.
 */
export async function runsSubmitCommand(context: CliContext, sub: 'submit' | 'schedules'): Promise<number> {
  const { stdout, stderr, values, positionals } = context;
  const [, agent, input, extra] = positionals;
  if (sub === 'submit' && (agent === undefined || input === undefined))
    throw new UsageError('Missing arguments: corvid runs submit <agent> <input> [--delay 10m | --at <time>]', 'runs');
  if (sub === 'schedules' && agent !== undefined)
    throw new UsageError(`Unexpected argument "${agent}" for "corvid runs schedules"`, 'runs');
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}"`, 'runs');
  if (typeof values.delay === 'string' && typeof values.at === 'string') throw new UsageError('give --delay or --at, not both', 'runs');
  const delayMs = typeof values.delay === 'string' ? parseDelay(values.delay) : undefined;
  const runAt = typeof values.at === 'string' ? parseAt(values.at) : undefined;
  const colors = colorsFor(stderr, context.globals);
  let runtime: Runtime | undefined;
  try {
    runtime = await loadCliRuntime(context);
    if (sub === 'schedules') {
      const list = runtime.runs.schedules.list();
      if (values.json === true) stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      else if (list.length === 0) stderr.write('No schedules: add a schedules: section to corvid.yaml\n');
      else
        for (const s of list)
          stdout.write(
            `${colors.bold(s.name)}  ${s.cron}${s.timezone ? ` (${s.timezone})` : ''}  ${s.agent}  next ${s.nextRunAt?.toISOString() ?? 'never'}\n`,
          );
      return EXIT.ok;
    }
    const run = await runtime.runs.submit(agent!, input!, {
      ...(typeof values.session === 'string' ? { session: values.session } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      ...(runAt !== undefined ? { runAt } : {}),
    });
    if (values.json === true) stdout.write(`${JSON.stringify(run, null, 2)}\n`);
    else stdout.write(`${run.runId}\n`);
    stderr.write(colors.dim(`queued for ${run.runAt.toISOString()}; a worker (corvid worker, corvid serve) runs it\n`));
    return EXIT.ok;
  } catch (err) {
    stderr.write(formatError(err, { debug: context.globals.debug, colors }));
    return EXIT.failure;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}
