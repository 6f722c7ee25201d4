import type { Runtime } from '../../runtime/load-runtime.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { type CliStore, openCliStore } from '../cli-store.js';
import { colorsFor } from '../colors.js';
import { compact } from '../format.js';
import { formatError } from '../format-error.js';
import { loadCliRuntime } from '../load-cli-runtime.js';
import { resumeAndPrint } from './runs-command.js';

/** `corvid approvals list|approve|deny`. */
export async function approvalsCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values, positionals } = context;
  const [sub, id] = positionals;
  if (sub !== 'list' && sub !== 'approve' && sub !== 'deny') {
    throw new UsageError(
      sub === undefined
        ? 'Missing the subcommand: corvid approvals list | approve <id> | deny <id> --reason <text>'
        : `Unknown subcommand "${sub}": use list, approve or deny`,
      'approvals',
    );
  }
  if (sub === 'list' && id !== undefined) throw new UsageError(`Unexpected argument "${id}" for "corvid approvals list"`, 'approvals');
  if (sub !== 'list' && id === undefined)
    throw new UsageError(`Missing the approval id: corvid approvals ${sub} <id> (corvid approvals list shows them)`, 'approvals');
  const reason = typeof values.reason === 'string' ? values.reason.trim() : undefined;
  if (values.reason !== undefined && !reason) throw new UsageError('--reason needs a text', 'approvals');
  if (sub === 'deny' && reason === undefined) throw new UsageError('A denial needs --reason "<why>": the model sees it', 'approvals');
  const colors = colorsFor(stdout, context.globals);
  const errColors = colorsFor(stderr, context.globals);
  let runtime: Runtime | undefined;
  let cli: CliStore | undefined;
  try {
    if (sub === 'list') {
      // Listing reads the store only: no agents are built, and a missing database is not created.
      cli = await openCliStore(context, { create: false });
      const filter = {
        sessionId: typeof values.session === 'string' ? values.session : undefined,
        runId: typeof values.run === 'string' ? values.run : undefined,
      };
      const pending = cli.store ? await cli.store.approvals.listPending(filter) : [];
      if (values.json === true) {
        stdout.write(`${JSON.stringify(pending, null, 2)}\n`);
        return EXIT.ok;
      }
      if (pending.length === 0) {
        stderr.write(`No pending approvals${filter.sessionId || filter.runId ? ' match' : ''} in ${cli.location}\n`);
        return EXIT.ok;
      }
      for (const a of pending) {
        stdout.write(`${colors.bold(a.id)}  ${colors.yellow(a.prompt ?? `Allow ${a.toolName}?`)}\n`);
        stdout.write(
          `  ${colors.dim(`${a.toolName} ${compact(a.args, 160)} · run ${a.runId}${a.sessionId ? ` · session ${a.sessionId}` : ''} · ${a.createdAt.toISOString()}`)}\n`,
        );
      }
      return EXIT.ok;
    }
    runtime = await loadCliRuntime(context);
    const store = await runtime.store();
    const approved = sub === 'approve';
    const answered = await store.approvals.answer(id!, reason !== undefined ? { approved, reason } : { approved });
    stderr.write(
      `${errColors.dim(`${approved ? 'Approved' : 'Denied'} ${answered.id} (${answered.toolName}) of run ${answered.runId}.`)}\n`,
    );
    if (values['no-resume'] === true) {
      stderr.write(`${errColors.dim(`Resume it with: corvid runs resume ${answered.runId}`)}\n`);
      return EXIT.ok;
    }
    // Other calls of the run may still wait: resume only once none is pending.
    const waiting = await store.approvals.listPending({ runId: answered.runId });
    if (waiting.length > 0) {
      stderr.write(
        `${errColors.dim(`The run still waits for ${waiting.map((w) => w.id).join(', ')}; it resumes once they are answered.`)}\n`,
      );
      return EXIT.ok;
    }
    if ((await store.backgroundRuns.get(answered.runId)) !== undefined) {
      // A background run: a worker resumes it; its events continue its stream.
      await runtime.runs.resumeQueued(answered.runId);
      stderr.write(`${errColors.dim(`Background run ${answered.runId} is queued again; a worker resumes it.`)}
`);
      return EXIT.ok;
    }
    const { agentForRun } = await import('../../durable/runtime-runs.js');
    const { agent } = await agentForRun(runtime, answered.runId);
    return await resumeAndPrint(agent, answered.runId, context, { json: false, verbose: false });
  } catch (err) {
    stderr.write(formatError(err, { debug: context.globals.debug, colors: errColors }));
    return EXIT.failure;
  } finally {
    await runtime?.close().catch(() => undefined);
    await cli?.close().catch(() => undefined);
  }
}
