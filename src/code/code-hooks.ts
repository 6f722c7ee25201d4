/**
 * The hooks of `code.hooks` in `corvid.yaml`: shell commands run on events of a session (before and after a tool
 * call, when the user sends a prompt, when the model stops), with the event as JSON on stdin. Exit code 0 is
 * success; exit code 2 blocks (the tool call, the prompt, the stop) and its stderr says why; any other code is a
 * failure reported to the user that blocks nothing. Hooks are the user's own configuration and run unconfined, as
 * the user, in the project folder.
 */
import { spawn } from 'node:child_process';

import type { CodeHookConfig, CodeHookEvent } from '../config/code-config-schema.js';
import type { CodeHookRun } from './code-session-types.js';

/** The JSON a hook reads on stdin (besides `hook_event_name`, `session_id` and `cwd`). */
export type CodeHookPayload =
  | { tool_name: string; tool_input: unknown }
  | { tool_name: string; tool_input: unknown; tool_response: unknown }
  | { prompt: string }
  | { last_message: string; stop_hook_active: boolean };

/** What the hooks of one event decided. */
export interface CodeHookOutcome {
  /** A hook exited 2: its stderr (or stdout) is the reason. */
  blocked?: string;
  /** What hooks that succeeded printed on stdout (user_prompt_submit: context added to the prompt). */
  output: string[];
}

/** Options of `CodeHooks`. */
export interface CodeHooksOptions {
  hooks: Partial<Record<CodeHookEvent, CodeHookConfig[]>>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The session's id at the time of the event. */
  sessionId: () => string;
  /** Each hook that printed something or did not exit 0 (shown in the transcript). */
  onRun: (run: CodeHookRun) => void;
}

const OUTPUT_MAX = 8000;

/** The hooks of a session. */
export class CodeHooks {
  constructor(private readonly options: CodeHooksOptions) {}

  /** Whether any hook is configured for `event` (and `toolName`). */
  has(event: CodeHookEvent, toolName?: string): boolean {
    return this.matching(event, toolName).length > 0;
  }

  /** Runs the hooks of `event` (for tool events, those whose matcher matches `toolName`) one after the other. */
  async run(event: CodeHookEvent, payload: CodeHookPayload, signal?: AbortSignal): Promise<CodeHookOutcome> {
    const toolName = 'tool_name' in payload ? payload.tool_name : undefined;
    const outcome: CodeHookOutcome = { output: [] };
    const input = JSON.stringify({ hook_event_name: event, session_id: this.options.sessionId(), cwd: this.options.cwd, ...payload });
    for (const hook of this.matching(event, toolName)) {
      const r = await runHookCommand(hook, { input, cwd: this.options.cwd, env: this.options.env, signal });
      const blocked = r.exitCode === 2;
      const output = (blocked || r.exitCode !== 0 ? r.stderr.trim() || r.stdout.trim() : r.stdout.trim()).slice(0, OUTPUT_MAX);
      if (output !== '' || r.exitCode !== 0)
        this.options.onRun({
          event,
          command: hook.command,
          ...(toolName !== undefined ? { toolName } : {}),
          exitCode: r.exitCode,
          blocked,
          output: r.exitCode === null ? r.stderr : output,
        });
      if (blocked) return { ...outcome, blocked: output || `a ${event} hook (${hook.command}) exited with code 2` };
      if (r.exitCode === 0 && output !== '') outcome.output.push(output);
    }
    return outcome;
  }

  private matching(event: CodeHookEvent, toolName: string | undefined): CodeHookConfig[] {
    return (this.options.hooks[event] ?? []).filter(
      (h) => h.matcher === undefined || toolName === undefined || new RegExp(`^(?:${h.matcher})$`).test(toolName),
    );
  }
}

/** Runs one hook's command with `sh -c`; a hook that times out is killed (with its children) and has exit code `null`. */
export function runHookCommand(
  hook: CodeHookConfig,
  options: { input: string; cwd: string; env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', hook.command], {
      cwd: options.cwd,
      env: { ...options.env, CORVID_PROJECT_DIR: options.cwd },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let why: string | undefined;
    const kill = (reason: string): void => {
      why = reason;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => kill(`timed out after ${hook.timeoutMs / 1000}s`), hook.timeoutMs);
    const onAbort = (): void => kill('stopped: the turn was cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
    const done = (exitCode: number | null, error?: string): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode: why !== undefined ? null : exitCode, stdout, stderr: why ?? error ?? stderr });
    };
    child.on('error', (error) => done(null, `could not start: ${error.message}`));
    child.on('close', (code) => done(code));
  });
}
