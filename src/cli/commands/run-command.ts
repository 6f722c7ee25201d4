import type { Agent } from '../../core/agent.js';
import type { RunStream } from '../../core/run-stream.js';
import { type ModelEndpoint, modelEndpoint } from '../../models/model-endpoint.js';
import type { Runtime } from '../../runtime/load-runtime.js';
import type { AgentEvent } from '../../types/events.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { EventRenderer } from '../event-renderer.js';
import { formatDuration, formatUsage, safeJson } from '../format.js';
import { formatError } from '../format-error.js';
import { loadCliRuntime } from '../load-cli-runtime.js';
import { readAll } from '../read-all.js';
import { type WaitStatus, waitStatusFor } from '../wait-notices.js';

function parseMaxSteps(value: string | boolean | undefined): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--max-steps must be a positive whole number, got "${value}"`, 'run');
  return Number(value);
}

async function readQuestion(context: CliContext): Promise<string> {
  const flag = context.values.question;
  const words = context.positionals;
  if (typeof flag === 'string' && words.length > 0) {
    throw new UsageError(`Give the question either with -q or as arguments, not both (unexpected "${words[0]}")`, 'run');
  }
  let question = typeof flag === 'string' ? flag : words.join(' ');
  if (question === '-') {
    if (context.stdin.isTTY) context.stderr.write('Reading the question from stdin; end it with Ctrl-D.\n');
    question = (await readAll(context.stdin)).replace(/\r?\n$/, '');
    if (question.trim() === '') throw new UsageError('-q - read an empty question from stdin', 'run');
  }
  if (question.trim() === '') throw new UsageError('Missing the question: corvid run -q "your question"', 'run');
  return question;
}

/** The model each agent of the runtime calls, and its host, for the wait status. */
function agentEndpoints(runtime: Runtime, env: NodeJS.ProcessEnv): (agent: string) => ModelEndpoint | undefined {
  return (name) => {
    const agent = runtime.agents.get(name);
    return agent?.kind === 'llm' ? modelEndpoint((agent as Agent).options.model, env) : undefined;
  };
}

/**
 * `corvid run`: one question, one answer. Only the answer goes to stdout (or, with `--json`, every
 * event as NDJSON); steps with `--verbose` and errors go to stderr.
 */
export async function runCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values } = context;
  const json = values.json === true;
  const verbose = values.verbose === true;
  const maxSteps = parseMaxSteps(values['max-steps']);
  const agentName = typeof values.agent === 'string' ? values.agent : undefined;
  const question = await readQuestion(context);
  const colors = colorsFor(stderr, context.globals);
  const emit = (e: AgentEvent): void => void stdout.write(`${safeJson(e)}\n`);

  let runtime: Runtime | undefined;
  let stream: RunStream | undefined;
  let spinner: WaitStatus | undefined;
  let sawEvent = false;
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted || !stream) process.exit(EXIT.interrupted);
    interrupted = true;
    stream.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    runtime = await loadCliRuntime(context);
    const agent = runtime.agent(agentName);
    const session = typeof values.session === 'string' ? values.session : undefined;
    if (values.session !== undefined && (session === undefined || session.trim() === ''))
      throw new UsageError('--session needs a session id', 'run');
    const run = session !== undefined ? agent.stream(question, { maxSteps, session }) : agent.stream(question, { maxSteps });
    stream = run;
    const renderer = verbose ? new EventRenderer({ out: stderr, colors, showInput: true, topLevelErrors: false }) : undefined;
    // The top-level run_end's step count, as --json shows it (a workflow counts the parts it ran).
    let stepCount: number | undefined;
    // On stderr while nothing else shows progress (the wait for the model, retries): a status line on a terminal, else lines.
    spinner = waitStatusFor({ out: stderr, colors, env: context.env, endpointOf: agentEndpoints(runtime, context.env), verbose });
    for await (const e of run) {
      sawEvent = true;
      if (json || renderer) spinner.clear();
      if (json) emit(e);
      renderer?.render(e);
      if (e.type === 'run_end' && e.path.length === 1) stepCount = e.steps;
      spinner.update(e);
    }
    spinner.stop();
    const result = await run.result;
    if (verbose) {
      const n = stepCount ?? result.steps.length;
      const steps = `${n} step${n === 1 ? '' : 's'}`;
      stderr.write(`${colors.dim(`${steps} · ${formatUsage(result.usage)} tokens · ${formatDuration(result.durationMs)}`)}\n`);
    }
    if (result.status === 'paused') {
      const lines = (result.pendingApprovals ?? []).map((p) => `  ${p.approvalId}  ${p.prompt}`);
      stderr.write(`${colors.yellow(['Paused: waiting for approval (corvid approvals approve|deny <id>):', ...lines].join('\n'))}\n`);
      return 3;
    }
    if (!json) stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    return EXIT.ok;
  } catch (err) {
    spinner?.stop();
    if (json && !sawEvent) {
      // Failed before the run started (config, unknown agent): still end the NDJSON with error + run_end.
      const base = { runId: '', agent: agentName ?? '', path: agentName ? [agentName] : [] };
      const e = err as { name?: string; code?: string; message?: string };
      emit({
        ...base,
        type: 'error',
        error: { name: e?.name ?? 'Error', code: e?.code ?? 'internal', message: e?.message ?? String(err) },
      });
      emit({
        ...base,
        type: 'run_end',
        status: 'failed',
        steps: 0,
        usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0, totalTokens: 0 },
        durationMs: 0,
      });
    }
    if (interrupted) {
      stderr.write(`${colors.yellow('cancelled')}\n`);
      return EXIT.interrupted;
    }
    stderr.write(formatError(err, { debug: context.globals.debug, colors }));
    return EXIT.failure;
  } finally {
    spinner?.stop();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await runtime?.close().catch(() => undefined);
  }
}
