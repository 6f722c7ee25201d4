/** Plain-text renderings of session events that every front end shows the same way (the todo list, hook runs). */
import type { CodeHookRun, CodeTodo } from './code-session-types.js';

/** The mark of a todo item's status. */
export const TODO_MARK: Record<CodeTodo['status'], string> = { pending: '☐', in_progress: '◐', completed: '☑' };

/** The todo list, one `  ☑ item` line per item. */
export function todoLines(todos: readonly CodeTodo[]): string {
  return todos.map((t) => `  ${TODO_MARK[t.status]} ${t.content}`).join('\n');
}

/** A hook run: `⚓ pre_tool_use hook (write_file) blocked · ./check.sh`, its output indented under it. */
export function hookLine(hook: CodeHookRun): string {
  const what = `⚓ ${hook.event} hook${hook.toolName ? ` (${hook.toolName})` : ''}`;
  const how = hook.blocked ? 'blocked' : hook.exitCode === 0 ? 'ran' : hook.exitCode === null ? 'failed' : `failed (exit ${hook.exitCode})`;
  const output = hook.output.trim();
  const head = `${what} ${how} · ${hook.command}`;
  return output ? `${head}\n${output.replace(/^/gm, '  ')}` : head;
}
