import { createInterface } from 'node:readline';
import type { Runtime } from '../../config/index.js';
import { EXIT, UsageError, type CliContext } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { historyFilePath } from '../chat-history.js';
import { ChatSession, type ChatIo } from '../chat-session.js';
import { EventRenderer } from '../event-renderer.js';
import { formatCount, formatUsage } from '../format.js';
import { loadCliRuntime } from '../load-cli-runtime.js';
import { formatError } from '../format-error.js';
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
      if (outcome.status === 'completed') {
        const answer = outcome.result.text;
        stdout.write(answer.endsWith('\n') ? answer : `${answer}\n`);
        if (verbose) {
          const total = formatCount(session.sessionUsage.totalTokens);
          stderr.write(`${errColors.dim(`↳ ${formatUsage(outcome.usage)} tokens · session ${total} tokens`)}\n`);
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
    const session = new ChatSession(runtime, agentName, io);
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
