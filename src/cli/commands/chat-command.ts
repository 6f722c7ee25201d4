import { createInterface } from 'node:readline';

import type { Runtime } from '../../runtime/load-runtime.js';
import { historyFilePath } from '../chat-history.js';
import { type ChatIo, ChatSession } from '../chat-session.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { EventRenderer } from '../event-renderer.js';
import { formatCount, formatUsage } from '../format.js';
import { formatError } from '../format-error.js';
import { loadCliRuntime } from '../load-cli-runtime.js';
import { cliMcpOptions } from '../mcp-cli-options.js';
import { QuestionChannel } from '../question-channel.js';

/** Lines of piped stdin as turns: answers on stdout, nothing else unless `--verbose` (stderr). */
async function runPiped(session: ChatSession, context: CliContext): Promise<number> {
  const { stdout, stderr } = context;
  const errColors = colorsFor(stderr, context.globals);
  const verbose = context.values.verbose === true;
  let failed = false;
  const onSigint = (): void => {
    if (!session.abort()) process.exit(EXIT.interrupted);
  };
  process.on('SIGINT', onSigint);
  const rl = createInterface({ input: context.stdin, terminal: false, crlfDelay: Infinity });
  try {
    for await (const raw of rl) {
      const text = raw.trim();
      if (text === '') continue;
      if (text.startsWith('/')) {
        if ((await session.command(text)) === 'exit') break;
        continue;
      }
      const renderer = verbose ? new EventRenderer({ out: stderr, colors: errColors, showInput: true, topLevelErrors: false }) : undefined;
      const outcome = await session.turn(text, renderer);
      if (outcome.status === 'completed' && outcome.result.status === 'paused') {
        failed = true;
        stderr.write(`${errColors.yellow(pausedMessage(outcome.result.pendingApprovals ?? []))}\n`);
      } else if (outcome.status === 'completed') {
        const answer = outcome.result.text;
        stdout.write(answer.endsWith('\n') ? answer : `${answer}\n`);
        if (verbose) {
          const total = formatCount(session.sessionUsage.totalTokens);
          stderr.write(`${errColors.dim(`↳ ${formatUsage(outcome.usage)} tokens · ${total} tokens this session`)}\n`);
        }
      } else {
        failed = true;
        stderr.write(formatError(outcome.error, { debug: context.globals.debug, colors: errColors }));
      }
    }
  } finally {
    process.off('SIGINT', onSigint);
    rl.close();
  }
  return failed ? EXIT.failure : EXIT.ok;
}

/** Approvals a paused turn waits for, and how to answer them. */
export function pausedMessage(pending: Array<{ approvalId: string; prompt: string }>): string {
  const lines = pending.map((p) => `  ${p.approvalId}  ${p.prompt}`);
  return [`Paused: waiting for approval (answer with corvid approvals approve|deny <id>):`, ...lines].join('\n');
}

/** Loads a stored session: says how much it holds, and resumes its interrupted runs when `storage.resume` is `auto`. */
async function openSession(
  session: ChatSession,
  runtime: Runtime,
  sessionId: string,
  note: (t: string) => void,
  out: NodeJS.WriteStream,
  context: CliContext,
): Promise<void> {
  const store = await runtime.store();
  const existing = await store.sessions.get(sessionId);
  if (existing === undefined) {
    note(`new session ${sessionId}`);
    return;
  }
  const count = await store.sessions.countMessages(sessionId);
  session.conversation.activeAgent = existing.activeAgent;
  note(`resumed session ${sessionId} (${count} message${count === 1 ? '' : 's'})`);
  if (runtime.config.storage?.resume !== 'auto') return;
  const { agentForRun, interruptedRuns } = await import('../../durable/runtime-runs.js');
  for (const run of await interruptedRuns(runtime, sessionId)) {
    note(`resuming interrupted run ${run.runId}`);
    try {
      const { agent } = await agentForRun(runtime, run.runId);
      const stream = agent.resumeStream(run.runId, session.io.ask ? { onApproval: (r) => session.approve(r) } : undefined);
      const renderer = new EventRenderer({ out, colors: colorsFor(out, context.globals), topLevelErrors: true });
      for await (const e of stream) renderer.render(e);
      renderer.endLine();
      await stream.result;
    } catch (error) {
      out.write(formatError(error, { debug: context.globals.debug, colors: colorsFor(out, context.globals) }));
    }
  }
}

/**
 * `corvid chat [agent]`: an interactive REPL on a terminal, or one turn per line when stdin is
 * piped.
 */
export async function chatCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values, positionals } = context;
  const flagAgent = typeof values.agent === 'string' ? values.agent : undefined;
  if (flagAgent && positionals[0] && flagAgent !== positionals[0]) {
    throw new UsageError(`Two different agents given: "${positionals[0]}" and --agent "${flagAgent}"`, 'chat');
  }
  const agentName = positionals[0] ?? flagAgent;
  const interactive = context.stdin.isTTY === true;
  const outColors = colorsFor(stdout, context.globals);
  const io: ChatIo = interactive
    ? {
        print: (t) => void stdout.write(`${t}\n`),
        printError: (t) => void stdout.write(`${t}\n`),
        colors: outColors,
        debug: context.globals.debug,
      }
    : {
        print: (t) => void stdout.write(`${t}\n`),
        printError: (t) => void stderr.write(`${t}\n`),
        colors: colorsFor(stdout, context.globals),
        debug: context.globals.debug,
      };
  let runtime: Runtime | undefined;
  try {
    // On a terminal, MCP servers' questions (elicitation) are put to the user; piped, they are declined.
    const questions = interactive ? new QuestionChannel() : undefined;
    runtime = await loadCliRuntime(context, cliMcpOptions(context, questions && ((q) => questions.ask(q))));
    if (questions) io.ask = (q) => questions.ask(q);
    const sessionId = typeof values.session === 'string' ? values.session : undefined;
    if (values.session !== undefined && (sessionId === undefined || sessionId.trim() === ''))
      throw new UsageError('--session needs a session id', 'chat');
    const session = new ChatSession(runtime, agentName, io, { sessionId });
    // Notes go where they do not mix with piped answers.
    const note = (t: string): void =>
      void (interactive ? stdout : stderr).write(`${colorsFor(interactive ? stdout : stderr, context.globals).dim(t)}\n`);
    if (sessionId !== undefined) await openSession(session, runtime, sessionId, note, interactive ? stdout : stderr, context);
    if (!interactive) return await runPiped(session, context);
    const { chatRepl } = await import('../chat-repl.js');
    return await chatRepl({
      session,
      input: context.stdin,
      output: stdout,
      colors: outColors,
      historyFile: historyFilePath(context.env),
      debug: context.globals.debug,
      questions,
    });
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}
