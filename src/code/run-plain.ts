import { reportRejection } from '../core/report-rejection.js';
import type { CodeApproval, CodeApprovalAnswer, CodeSession } from './code-session-types.js';
import { LineReader } from './line-reader.js';
import { PlainRenderer, statusLine } from './plain-renderer.js';

/** Options of `runPlain`. */
export interface RunPlainOptions {
  session: CodeSession;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Print a `>` prompt before each input (a person is typing). Default `false`. */
  prompt?: boolean;
}

/** Reads an approval answer: `y`, `n [reason]`, `a` (always this tool), `p` (always this command prefix). */
export function parseApprovalAnswer(line: string | undefined): CodeApprovalAnswer {
  if (line === undefined) return { approved: false, reason: 'Nobody answered the approval request.' };
  const text = line.trim();
  const word = text.toLowerCase();
  if (word === 'y' || word === 'yes') return { approved: true };
  if (word === 'a' || word === 'always') return { approved: true, always: 'tool' };
  if (word === 'p' || word === 'prefix') return { approved: true, always: 'prefix' };
  const reason = text.replace(/^(no|n)\b[\s,:.-]*/i, '').trim();
  return reason !== '' ? { approved: false, reason } : { approved: false };
}

/**
 * The line-based front end (no TTY, or `--plain`): each line of input is a message to the agent,
 * a `/command` or a `!command`; approvals are answered by the next line (`y`, `n <reason>`, `a`,
 * `p`). Events are printed as plain lines. Resolves when the input ends or `/exit` is given.
 */
export async function runPlain(options: RunPlainOptions): Promise<void> {
  const { session, stdout } = options;
  const renderer = new PlainRenderer((t) => void stdout.write(t));
  const lines = new LineReader(options.stdin);
  let exit = false;
  const onApproval = async (approval: CodeApproval): Promise<void> => {
    const hint = approval.prefix !== undefined ? ` / [p] always "${approval.prefix}"` : '';
    stdout.write(
      approval.kind === 'plan'
        ? 'Approve the plan? [y]es, carry it out / [a] yes, in auto-edit / [n]o <what should change>: '
        : `Approve? [y]es / [n]o <reason> / [a]lways ${approval.toolName}${hint}: `,
    );
    const answer = parseApprovalAnswer(await lines.next());
    if (options.prompt !== true) stdout.write('\n');
    session.answerApproval(approval.id, answer);
  };
  const unsubscribe = session.subscribe((event) => {
    renderer.render(event);
    if (event.type === 'approval') void onApproval(event.approval).catch(reportRejection('the approval prompt'));
    if (event.type === 'exit') exit = true;
  });
  try {
    if (options.prompt === true) stdout.write(`${statusLine(session.status())}\n`);
    while (!exit) {
      if (options.prompt === true) stdout.write('> ');
      const line = await lines.next();
      if (line === undefined) break;
      const text = line.trim();
      if (text === '') continue;
      if (text.startsWith('/')) await session.command(text);
      else if (text.startsWith('!')) await session.runShell(text.slice(1).trim());
      else await session.send(line);
      renderer.endLine();
    }
  } finally {
    unsubscribe();
    lines.close();
  }
}
