import type { InputRequest, ToolResultRecord } from '../types/result.js';
import type { Tool } from '../types/tool.js';
import type { PreparedCall } from './tool-executor.js';

/**
 * Marks a tool whose successful call ends the run's turn with a question for the user (the
 * `ask_user` tool): the value reads the question from the call's arguments.
 */
export const ASKS_USER: unique symbol = Symbol.for('corvid.asksUser');

/** A tool carrying the `ASKS_USER` mark. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a default that accepts every tool's input type (`unknown` would reject them)
export type QuestionTool<Input = any, Output = unknown> = Tool<Input, Output> & {
  readonly [ASKS_USER]: (input: unknown) => string | undefined;
};

/**
 * The question a step's tool calls ask the user, if any: from the successful calls of tools
 * marked `ASKS_USER`, in call order (several questions in one step are joined by a blank line).
 * Reads recorded results too, so a resumed durable run ends its turn the same way.
 */
export function askedQuestion(
  tools: ReadonlyMap<string, Tool>,
  calls: readonly PreparedCall[],
  results: readonly ToolResultRecord[],
): InputRequest | undefined {
  let asked: InputRequest | undefined;
  for (let i = 0; i < calls.length; i++) {
    const read = (tools.get(calls[i].toolName) as Partial<QuestionTool> | undefined)?.[ASKS_USER];
    if (read === undefined || results[i].isError) continue;
    const question = read(calls[i].input);
    if (question === undefined) continue;
    if (asked === undefined) asked = { question, toolCallId: calls[i].toolCallId };
    else asked.question += `\n\n${question}`;
  }
  return asked;
}
