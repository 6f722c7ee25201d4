/** The hooks around a user's turn: `user_prompt_submit` before it, `stop` when the model has finished. */
import { emptyUsage } from '../types/usage.js';
import type { CodeHooks } from './code-hooks.js';
import type { CodeTurnResult } from './code-session-types.js';

/** How many times in a row stop hooks may send the model back to work. */
export const STOP_HOOK_ROUNDS = 3;

/**
 * The prompt after the `user_prompt_submit` hooks: with what they printed added as context, or the turn's failed
 * result when one blocked it (exit code 2).
 */
export async function submitPrompt(hooks: CodeHooks | undefined, prompt: string): Promise<{ text: string } | { blocked: CodeTurnResult }> {
  if (!hooks?.has('user_prompt_submit')) return { text: prompt };
  const r = await hooks.run('user_prompt_submit', { prompt });
  if (r.blocked !== undefined)
    return {
      blocked: { status: 'failed', error: `Blocked by a user_prompt_submit hook: ${r.blocked}`, usage: emptyUsage(), changedFiles: [] },
    };
  return { text: r.output.length > 0 ? `${prompt}\n\n${r.output.join('\n\n')}` : prompt };
}

/**
 * Runs a turn, then the `stop` hooks: while one blocks (exit code 2; at most `STOP_HOOK_ROUNDS` times) the model
 * goes on with its reason as the next message. `run(message, shown)` runs one turn.
 */
export async function runWithStopHooks(
  hooks: CodeHooks | undefined,
  first: { message: string; shown: string },
  run: (message: string, shown: string) => Promise<CodeTurnResult>,
): Promise<CodeTurnResult> {
  let { message, shown } = first;
  for (let round = 0; ; round++) {
    const result = await run(message, shown);
    if (result.status !== 'completed' || !hooks?.has('stop') || round >= STOP_HOOK_ROUNDS) return result;
    const stop = await hooks.run('stop', { last_message: result.text ?? '', stop_hook_active: round > 0 });
    if (stop.blocked === undefined) return result;
    message = `A stop hook says the work is not finished: ${stop.blocked}`;
    shown = `(stop hook) ${stop.blocked}`;
  }
}
