/** `code:` of `corvid.yaml`: settings of `corvid code` in this project (allowed command prefixes, hooks). */
import { z } from 'zod';

/** The events a hook can run on. */
export const CODE_HOOK_EVENTS = ['pre_tool_use', 'post_tool_use', 'user_prompt_submit', 'stop'] as const;

/** One event of `code.hooks`. */
export type CodeHookEvent = (typeof CODE_HOOK_EVENTS)[number];

/** One hook after normalisation. */
export interface CodeHookConfig {
  /** A regular expression the tool name must match (whole name); absent: every tool. Tool events only. */
  matcher?: string;
  /** A shell command (`sh -c`), run in the project folder with the event as JSON on stdin. */
  command: string;
  timeoutMs: number;
}

/** `code:` after normalisation. */
export interface CodeConfig {
  allow: string[];
  hooks?: Partial<Record<CodeHookEvent, CodeHookConfig[]>>;
}

/** Default time limit of a hook, in seconds. */
export const CODE_HOOK_TIMEOUT_S = 60;

const hookSchema = z
  .strictObject({
    matcher: z
      .string()
      .min(1)
      .refine(
        (s) => {
          try {
            new RegExp(s);
            return true;
          } catch {
            return false;
          }
        },
        { error: 'must be a regular expression (e.g. "write_file|edit_file")' },
      )
      .optional()
      .describe(
        'pre_tool_use / post_tool_use: a regular expression matched against the whole tool name ("write_file|edit_file"). Default: every tool.',
      ),
    command: z.string().trim().min(1).describe('A shell command, run in the project folder with the event as JSON on stdin.'),
    timeout: z.number().positive().max(3600).optional().describe(`Seconds before the hook is stopped. Default ${CODE_HOOK_TIMEOUT_S}.`),
  })
  .describe('A hook: a command run on an event of `corvid code`.');

/** `code:` — settings of `corvid code` in this project. */
export const codeSchema = z
  .strictObject({
    allow: z
      .array(z.string().trim().min(1))
      .optional()
      .describe(
        'Shell command prefixes `corvid code` runs without asking (e.g. `npm test`, `node --test`), as `--allow` does; never a bare interpreter or shell.',
      ),
    hooks: z
      .strictObject(
        Object.fromEntries(CODE_HOOK_EVENTS.map((e) => [e, z.array(hookSchema).optional()])) as Record<
          CodeHookEvent,
          z.ZodOptional<z.ZodArray<typeof hookSchema>>
        >,
      )
      .optional()
      .describe(
        'Commands `corvid code` runs on events: pre_tool_use (exit code 2 blocks the call, stderr is the reason the model reads), post_tool_use, user_prompt_submit (exit code 2 blocks the prompt) and stop (exit code 2 makes the model go on, stderr saying why). They run unconfined, as you.',
      ),
  })
  .describe('Settings of `corvid code` in this project.');

/** Normalises `code:` as written. */
export function normalizeCode(file: z.output<typeof codeSchema>): CodeConfig {
  const hooks: Partial<Record<CodeHookEvent, CodeHookConfig[]>> = {};
  for (const event of CODE_HOOK_EVENTS) {
    const list = file.hooks?.[event];
    if (list === undefined || list.length === 0) continue;
    hooks[event] = list.map((h) => ({
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      command: h.command,
      timeoutMs: Math.round((h.timeout ?? CODE_HOOK_TIMEOUT_S) * 1000),
    }));
  }
  return { allow: file.allow ?? [], ...(Object.keys(hooks).length > 0 ? { hooks } : {}) };
}
