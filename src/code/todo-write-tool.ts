import { z } from 'zod';

import { tool } from '../core/tool.js';
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
