import type { CodeSession, CodeTurnResult } from './code-session-types.js';
import { EXIT_PLAN_MODE } from './exit-plan-mode-tool.js';
import { PlainRenderer } from './plain-renderer.js';

/** Options of `runHeadless`. */
export interface RunHeadlessOptions {
  session: CodeSession;
  prompt: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Print every `CodeEvent` as one JSON line on stdout instead of the answer. */
  json?: boolean;
  /** Print the steps (tool calls, results) as plain lines on stderr. */
  verbose?: boolean;
}

/**
 * Headless mode (`corvid code -p`): runs one turn to its end and prints the final answer (or,
 * with `json`, one JSON object per event). The session must have been opened `headless`, so
 * calls that would ask are denied with a reason. In plan mode the answer is the plan the model
 * offered (`exit_plan_mode`), when it offered one. Resolves with the turn's result.
 */
export async function runHeadless(options: RunHeadlessOptions): Promise<CodeTurnResult> {
  const { session, stdout, stderr } = options;
  const renderer = options.verbose && !options.json ? new PlainRenderer((t) => void stderr.write(t)) : undefined;
  let plan: string | undefined;
  const unsubscribe = session.subscribe((event) => {
    if (event.type === 'approval' && event.approval.kind === 'plan') plan = event.approval.preview;
    if (
      event.type === 'agent' &&
      event.event.type === 'tool_call' &&
      event.event.toolName === EXIT_PLAN_MODE &&
      event.event.path.length === 1
    )
      plan = planOf(event.event.input) ?? plan;
    if (options.json) stdout.write(`${JSON.stringify(event)}\n`);
    else if (renderer && !(event.type === 'agent' && event.event.type === 'text_delta')) renderer.render(event);
  });
  try {
    const result = await session.send(options.prompt);
    if (!options.json) {
      if (result.status === 'completed') {
        const text = plan ?? result.text ?? '';
        stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
      } else stderr.write(`corvid code: ${result.status === 'cancelled' ? 'cancelled' : (result.error ?? 'failed')}\n`);
    }
    return result;
  } finally {
    unsubscribe();
  }
}

function planOf(input: unknown): string | undefined {
  const plan = (input as { plan?: unknown } | undefined)?.plan;
  return typeof plan === 'string' && plan.trim() !== '' ? plan : undefined;
}
