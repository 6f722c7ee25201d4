import { createInterface } from 'node:readline';

import { HISTORY_SIZE, loadHistory, saveHistory } from './chat-history.js';
import { type ChatSession, describeModel } from './chat-session.js';
import type { Colors } from './colors.js';
import { EventRenderer } from './event-renderer.js';
import { formatCount, formatUsage } from './format.js';
import { formatError } from './format-error.js';
import type { QuestionChannel } from './question-channel.js';

export interface ReplOptions {
  session: ChatSession;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  colors: Colors;
  historyFile: string;
  debug: boolean;
  /** Questions asked during a turn (MCP elicitation) are answered on this prompt. */
  questions?: QuestionChannel;
}

/**
 * The interactive chat on a terminal: a readline prompt with history, the rendered event stream of
 * each turn, usage after each answer. Ctrl-C cancels a running turn; at an empty prompt it prints
 * a hint and a second one exits; Ctrl-D exits. Resolves with the exit code.
 */
export function chatRepl(options: ReplOptions): Promise<number> {
  const { session, input, output, colors: c } = options;
  const rl = createInterface({
    input,
    output,
    terminal: true,
    history: loadHistory(options.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  rl.on('history', (history: string[]) => saveHistory(options.historyFile, history));
  const write = (text: string): void => void output.write(text);
  const setPrompt = (): void => rl.setPrompt(`${c.cyan(c.bold(session.conversation.activeAgent))} ${c.dim('›')} `);

  write(`${c.bold('corvid chat')} · ${c.cyan(session.agent.name)} ${c.dim(`(${describeModel(session.agent)})`)}\n`);
  write(c.dim('Type a message. /help lists commands; Ctrl-C cancels a reply; Ctrl-D exits.\n'));

  return new Promise<number>((resolve) => {
    let busy = false;
    let closed = false;
    let armed = false;
    let pendingAnswer: ((line: string | undefined) => void) | undefined;
    // A question right after an answer continues on the next line; otherwise it starts a new one.
    let justAnswered = false;
    options.questions?.attach(
      (question) =>
        new Promise<string | undefined>((resolve) => {
          if (closed) return resolve(undefined);
          write(`${justAnswered ? '' : '\n'}${c.yellow(question)}`);
          justAnswered = false;
          pendingAnswer = (line) => {
            justAnswered = true;
            queueMicrotask(() => queueMicrotask(() => (justAnswered = false)));
            resolve(line);
          };
        }),
    );
    // SIGTERM, or SIGINT from outside the terminal (a pipe, `kill -INT`): cancel the reply
    // under way (the session keeps what was answered) and exit.
    const onSignal = (): void => {
      session.abort();
      rl.close();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    const finish = (): void => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      write('\n');
      resolve(0);
    };
    const prompt = (): void => {
      if (closed) return;
      setPrompt();
      rl.prompt();
    };

    const handle = async (text: string): Promise<void> => {
      if (text.startsWith('/')) {
        if ((await session.command(text)) === 'exit') rl.close();
        return;
      }
      const renderer = new EventRenderer({ out: output, colors: c });
      const outcome = await session.turn(text, renderer);
      if (outcome.status === 'completed') {
        const total = session.sessionUsage;
        write(`${c.dim(`↳ ${formatUsage(outcome.usage)} tokens · ${formatCount(total.totalTokens)} tokens this session`)}\n`);
      } else if (outcome.status === 'failed' && (options.debug || !outcome.reported)) {
        // The renderer showed the message; --debug adds the stack, and failures outside the event stream need saying.
        write(formatError(outcome.error, { debug: options.debug, colors: c }));
      }
    };

    rl.on('line', (line) => {
      armed = false;
      if (pendingAnswer) {
        const answer = pendingAnswer;
        pendingAnswer = undefined;
        return answer(line);
      }
      if (busy) return;
      const text = line.trim();
      if (text === '') return prompt();
      busy = true;
      handle(text)
        .catch((err) => write(formatError(err, { debug: options.debug, colors: c })))
        .finally(() => {
          busy = false;
          if (closed) finish();
          else prompt();
        });
    });

    rl.on('SIGINT', () => {
      if (session.abort()) return;
      if (busy) return;
      if (rl.line.length > 0) {
        armed = false;
        write('\n');
        rl.write(null, { ctrl: true, name: 'e' });
        rl.write(null, { ctrl: true, name: 'u' });
        return prompt();
      }
      if (armed) return rl.close();
      armed = true;
      write(`\n${c.dim('(To exit, press Ctrl-C again or Ctrl-D, or type /exit)')}\n`);
      prompt();
    });

    rl.on('close', () => {
      closed = true;
      pendingAnswer?.(undefined);
      pendingAnswer = undefined;
      if (busy) session.abort();
      else finish();
    });

    prompt();
  });
}
