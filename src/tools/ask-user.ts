import { ASKS_USER, type QuestionTool } from '../core/asks-user.js';
import { tool } from '../core/tool.js';
import { toolArgs } from './tool-args.js';

/** Name of the built-in tool that ends the turn with a question for the user. */
export const ASK_USER_TOOL = 'ask_user';

/** Arguments of `ask_user`. */
export interface AskUserArgs {
  question: string;
}

/** Options for `askUserTool`. */
export interface AskUserToolOptions {
  /** Tool name; default `ask_user`. */
  name?: string;
  /** What the model is told the tool is for; default a description of asking the user. */
  description?: string;
}

/** What the model reads as the result of its `ask_user` call (the answer follows as the next user message). */
export const ASK_USER_RESULT = 'The question was shown to the user. Their answer is the next user message.';

const args = toolArgs<AskUserArgs>({
  question: {
    type: 'string',
    required: true,
    min: 1,
    max: 4000,
    description: 'The question, complete and self-contained, as the user should read it.',
  },
});

const DESCRIPTION =
  'Ask the user a question and end your turn: call this when you cannot go on without information only the user has ' +
  '(a missing detail, a choice between options, a confirmation). The question is shown to the user and their answer ' +
  'comes as the next user message. Ask one clear question; do not answer it yourself.';

/**
 * The `ask_user` tool: when the model calls it, the run ends its turn after that step with the
 * question as its answer (`RunResult.needsInput`, `run_end.needsInput`), and the user's answer is
 * the next message of the conversation. Over A2A the task goes `input-required`; the chat API
 * answers `status: "input_required"`. Config agents list it as `tools: [ask_user]`.
 * @example
 * import { Agent, askUserTool } from 'corvid';
 * const agent = new Agent({ name: 'booker', model, tools: [askUserTool()] });
 * const first = await agent.run('Book me a flight');   // first.needsInput?.question: "Where to?"
 */
export function askUserTool(options: AskUserToolOptions = {}): QuestionTool<AskUserArgs, string> {
  const t = tool<AskUserArgs, string>({
    name: options.name ?? ASK_USER_TOOL,
    description: options.description ?? DESCRIPTION,
    input: args.input,
    parameters: args.parameters,
    execute: () => ASK_USER_RESULT,
  });
  return Object.assign(t, { [ASKS_USER]: questionOf });
}

/** The question of an `ask_user` call's arguments (trimmed), or undefined when there is none. */
function questionOf(input: unknown): string | undefined {
  const q = (input as { question?: unknown } | null)?.question;
  return typeof q === 'string' && q.trim() !== '' ? q.trim() : undefined;
}

/** `ask_user` with the default name and description. */
export const askUser: QuestionTool<AskUserArgs, string> = askUserTool();
