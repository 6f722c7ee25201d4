import type { Agent } from '../../core/agent.js';
import type { RunStream } from '../../core/run-stream.js';
import type { Runtime } from '../../runtime/load-runtime.js';
import type { AgentEvent } from '../../types/events.js';
import type { RunStatus } from '../../types/storage/runs.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { type CliStore, openCliStore } from '../cli-store.js';
import { colorsFor } from '../colors.js';
import { EventRenderer } from '../event-renderer.js';
import { formatUsage, safeJson } from '../format.js';
import { formatError } from '../format-error.js';
import { loadCliRuntime } from '../load-cli-runtime.js';

/** Exit code of a command whose run paused (again) for approval. */
export const EXIT_PAUSED = 3;

const STATUSES: readonly RunStatus[] = ['running', 'paused', 'completed', 'failed', 'cancelled'];

/**
 * Resumes a run and prints like `corvid run`: the answer on stdout (or every event as NDJSON with
 * `json`), steps on stderr with `verbose`, the pending approvals when it pauses again.
 */
export async function resumeAndPrint(
  agent: Agent,
  runId: string,
  context: CliContext,
  options: { json: boolean; verbose: boolean },
): Promise<number> {
  const { stdout, stderr } = context;
  const colors = colorsFor(stderr, context.globals);
  let stream: RunStream | undefined;
  const onSigint = (): void => {
    if (!stream) process.exit(EXIT.interrupted);
    stream.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    stream = agent.resumeStream(runId);
    const renderer = options.verbose ? new EventRenderer({ out: stderr, colors, showInput: true, topLevelErrors: false }) : undefined;
    for await (const e of stream as AsyncIterable<AgentEvent>) {
      if (options.json) stdout.write(`${safeJson(e)}\n`);
      renderer?.render(e);
    }
    const result = await stream.result;
    if (result.status === 'paused') {
      const lines = (result.pendingApprovals ?? []).map((p) => `  ${p.approvalId}  ${p.prompt}`);
      stderr.write(`${colors.yellow(['Paused again: waiting for approval (corvid approvals approve|deny <id>):', ...lines].join('\n'))}\n`);
      return EXIT_PAUSED;
    }
    if (options.verbose) stderr.write(`${colors.dim(`run ${result.runId} completed · ${formatUsage(result.usage)} tokens`)}\n`);
    if (!options.json) stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    return EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** `--status running,paused` checked. */
function parseStatus(value: string | boolean | undefined): RunStatus[] | undefined {
  if (typeof value !== 'string') return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((s) => !STATUSES.includes(s as RunStatus));
  if (bad !== undefined || list.length === 0)
    throw new UsageError(`--status must be ${STATUSES.join(', ')} (comma-separated), got "${value}"`, 'runs');
  return list as RunStatus[];
}

function parseLimit(value: string | boolean | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new UsageError(`--limit must be a whole number from 1 to 1000, got "${value}"`, 'runs');
  return Number(value);
}

/** `corvid runs list|resume`. */
export async function runsCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values, positionals } = context;
  const [sub, id, extra] = positionals;
  if (sub === 'submit' || sub === 'schedules') return (await import('./runs-submit-command.js')).runsSubmitCommand(context, sub);
  if (sub !== 'list' && sub !== 'resume') {
    throw new UsageError(
      sub === undefined
        ? 'Missing the subcommand: corvid runs list | resume <run-id> | submit <agent> <input> | schedules'
        : `Unknown subcommand "${sub}": use list, resume, submit or schedules`,
      'runs',
    );
  }
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}" for "corvid runs ${sub}"`, 'runs');
  if (sub === 'list' && id !== undefined) throw new UsageError(`Unexpected argument "${id}" for "corvid runs list"`, 'runs');
  if (sub === 'resume' && id === undefined)
    throw new UsageError('Missing the run id: corvid runs resume <run-id> (corvid runs list shows them)', 'runs');
  const status = parseStatus(values.status);
  const limit = parseLimit(values.limit);
  const colors = colorsFor(stdout, context.globals);
  let runtime: Runtime | undefined;
  let cli: CliStore | undefined;
  try {
    if (sub === 'resume') {
      runtime = await loadCliRuntime(context);
      const { agentForRun } = await import('../../durable/runtime-runs.js');
      const { agent } = await agentForRun(runtime, id!);
      return await resumeAndPrint(agent, id!, context, { json: values.json === true, verbose: values.verbose === true });
    }
    // Listing reads the store only: no agents are built, and a missing database is not created.
    cli = await openCliStore(context, { create: false });
    const store = cli.store;
    // Checkpoints past their ttl are gone for good: remove them (and runs left without any) first.
    if (store) await store.checkpoints.deleteExpired();
    const filter = {
      status,
      sessionId: typeof values.session === 'string' ? values.session : undefined,
      agent: typeof values.agent === 'string' ? values.agent : undefined,
      limit: limit ?? 50,
    };
    const runs = store ? await store.checkpoints.listRuns(filter) : [];
    if (values.json === true) {
      stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      return EXIT.ok;
    }
    if (runs.length === 0) {
      const filtered = filter.status || filter.sessionId || filter.agent;
      stderr.write(`No runs${filtered ? ' match' : ''} in ${cli.location}\n`);
      return EXIT.ok;
    }
    const paint = (s: RunStatus): string =>
      s === 'completed'
        ? colors.green(s)
        : s === 'paused' || s === 'cancelled'
          ? colors.yellow(s)
          : s === 'failed'
            ? colors.red(s)
            : colors.cyan(s);
    const rows = runs.map((r) => [r.runId, r.status, r.agent, r.sessionId ?? '-', String(r.checkpoints), r.updatedAt.toISOString()]);
    const header = ['RUN', 'STATUS', 'AGENT', 'SESSION', 'CHECKPOINTS', 'UPDATED'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    stdout.write(
      `${colors.bold(
        header
          .map((h, i) => h.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
      )}\n`,
    );
    for (const [i, r] of rows.entries()) {
      const cells = r.map((c, j) => c.padEnd(widths[j]));
      cells[1] = paint(runs[i].status) + ' '.repeat(widths[1] - runs[i].status.length);
      stdout.write(`${cells.join('  ').trimEnd()}\n`);
    }
    return EXIT.ok;
  } catch (err) {
    stderr.write(formatError(err, { debug: context.globals.debug, colors: colorsFor(stderr, context.globals) }));
    return EXIT.failure;
  } finally {
    await runtime?.close().catch(() => undefined);
    await cli?.close().catch(() => undefined);
  }
}
