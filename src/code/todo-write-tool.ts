import { z } from 'zod';

import { tool } from '../core/tool.js';
import type { Message } from '../types/message.js';
import type { Tool } from '../types/tool.js';
import type { CodeTodo } from './code-session-types.js';

/** The name of the todo tool. */
export const TODO_WRITE = 'todo_write';

const todosInput = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('What to do, as a short imperative ("Add the --json flag").'),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    )
    .describe('The whole list, in order: every call replaces the previous list.'),
});

/**
 * `todo_write`: the model keeps a visible todo list for multi-step work. Each call sends the whole list; the session
 * shows it to the user (the terminal UI above the input, `--json` as a `todos` event) through `onUpdate`.
 */
export function todoWriteTool(onUpdate: (todos: CodeTodo[]) => void): Tool {
  return tool({
    name: TODO_WRITE,
    description: [
      'Keep a todo list for the current task, shown to the user. Use it for work with three or more steps, or when the user gives several tasks:',
      'write the list before you start, mark one item in_progress as you begin it, and mark it completed as soon as it is done (not in batches).',
      'Send the whole list each time. Skip it for a single simple step or a question.',
    ].join(' '),
    input: todosInput,
    execute: ({ todos }) => {
      onUpdate(todos.map((t) => ({ content: t.content, status: t.status })));
      const done = todos.filter((t) => t.status === 'completed').length;
      const current = todos.find((t) => t.status === 'in_progress');
      return `Todo list updated: ${done}/${todos.length} completed${current ? `; in progress: ${current.content}` : ''}.`;
    },
  });
}

/** The todo list of a stored conversation: the last `todo_write` call's (a resumed session shows it again). */
export function lastTodos(messages: readonly Message[]): CodeTodo[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    for (const part of [...m.content].reverse()) {
      if (part.type !== 'tool-call' || part.toolName !== TODO_WRITE) continue;
      const input = typeof part.input === 'string' ? safeParse(part.input) : part.input;
      const parsed = todosInput.safeParse(input);
      if (parsed.success) return parsed.data.todos.map((t) => ({ content: t.content, status: t.status }));
    }
  }
  return [];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
