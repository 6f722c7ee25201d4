/**
 * The model's todo list (`todo_write`) as a compact panel above the input box: ☑ done (dimmed), ◐ in progress
 * (bold), ☐ pending. Shown while a turn runs or items are left to do; a long list keeps the items around the one
 * in progress.
 */
import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';

import { TODO_MARK } from '../code-event-text.js';
import type { CodeTodo } from '../code-session-types.js';
import { style } from './ansi.js';

/** Most item rows the panel shows. */
const MAX_ITEMS = 8;

/** Rows the panel takes (0 when hidden). */
export function todoPanelRows(todos: readonly CodeTodo[], busy: boolean): number {
  if (todos.length === 0 || (!busy && todos.every((t) => t.status === 'completed'))) return 0;
  return 1 + Math.min(todos.length, MAX_ITEMS) + (todos.length > MAX_ITEMS ? 1 : 0);
}

/** The items shown: all of a short list, else a window around the first one not completed. */
export function visibleTodos(todos: readonly CodeTodo[]): { items: CodeTodo[]; before: number; after: number } {
  if (todos.length <= MAX_ITEMS) return { items: [...todos], before: 0, after: 0 };
  const current = Math.max(
    0,
    todos.findIndex((t) => t.status !== 'completed'),
  );
  const start = Math.min(Math.max(0, current - 2), todos.length - MAX_ITEMS);
  return { items: todos.slice(start, start + MAX_ITEMS), before: start, after: todos.length - start - MAX_ITEMS };
}

/** The panel. */
export function TodoPanel(p: { todos: readonly CodeTodo[]; width: number }): ReactNode {
  const done = p.todos.filter((t) => t.status === 'completed').length;
  const { items, before, after } = visibleTodos(p.todos);
  const line = (t: CodeTodo): string => {
    const text = `${TODO_MARK[t.status]} ${t.content}`.slice(0, Math.max(10, p.width - 4));
    return t.status === 'completed' ? style('gray', text) : t.status === 'in_progress' ? style('bold', text) : text;
  };
  const more =
    before + after > 0
      ? style('gray', `  … ${before ? `${before} above` : ''}${before && after ? ', ' : ''}${after ? `${after} below` : ''}`)
      : '';
  return h(
    Box,
    { flexDirection: 'column', paddingLeft: 1 },
    h(Text, null, style('gray', `Todos ${done}/${p.todos.length}`)),
    ...items.map((t, i) => h(Text, { key: i }, `  ${line(t)}`)),
    more ? h(Text, { key: 'more' }, more) : null,
  );
}
