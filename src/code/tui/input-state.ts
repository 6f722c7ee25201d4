/**
 * The input box's editing state and its reducer (pure): a multi-line value with a cursor, and the history of
 * submitted inputs browsed with ↑/↓ (↑/↓ move between lines first when the value has several).
 */

/** The editor's state. */
export interface InputState {
  value: string;
  /** Cursor offset in `value` (UTF-16 units). */
  cursor: number;
  /** Submitted inputs, oldest first. */
  history: readonly string[];
  /** Position in `history` while browsing; `history.length` when editing a new input. */
  historyIndex: number;
  /** The new input being written, kept while browsing the history. */
  draft: string;
}

/** An editing action. */
export type InputAction =
  | { type: 'insert'; text: string }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'up' }
  | { type: 'down' }
  | { type: 'deleteWord' }
  | { type: 'deleteToStart' }
  | { type: 'set'; value: string; cursor?: number }
  | { type: 'clear' }
  | { type: 'submit' };

/** An empty editor with `history`. */
export function initialInput(history: readonly string[] = []): InputState {
  return { value: '', cursor: 0, history, historyIndex: history.length, draft: '' };
}

const lineStart = (v: string, c: number): number => v.lastIndexOf('\n', c - 1) + 1;
const lineEnd = (v: string, c: number): number => (v.indexOf('\n', c) === -1 ? v.length : v.indexOf('\n', c));

/** Applies `action` to `s`. `submit` clears the value and records it in the history (not twice in a row). */
export function inputReducer(s: InputState, action: InputAction): InputState {
  const { value: v, cursor: c } = s;
  switch (action.type) {
    case 'insert': {
      const text = action.text.replace(/\r\n?/g, '\n');
      return { ...s, value: v.slice(0, c) + text + v.slice(c), cursor: c + text.length };
    }
    case 'backspace':
      return c === 0 ? s : { ...s, value: v.slice(0, c - 1) + v.slice(c), cursor: c - 1 };
    case 'delete':
      return c >= v.length ? s : { ...s, value: v.slice(0, c) + v.slice(c + 1) };
    case 'left':
      return { ...s, cursor: Math.max(0, c - 1) };
    case 'right':
      return { ...s, cursor: Math.min(v.length, c + 1) };
    case 'home':
      return { ...s, cursor: lineStart(v, c) };
    case 'end':
      return { ...s, cursor: lineEnd(v, c) };
    case 'up':
      return lineStart(v, c) > 0 ? { ...s, cursor: moveLine(v, c, -1) } : browse(s, -1);
    case 'down':
      return lineEnd(v, c) < v.length ? { ...s, cursor: moveLine(v, c, 1) } : browse(s, 1);
    case 'deleteWord': {
      const start = v.slice(0, c).replace(/\S+\s*$|\s+$/, '').length;
      return { ...s, value: v.slice(0, start) + v.slice(c), cursor: start };
    }
    case 'deleteToStart': {
      const start = lineStart(v, c) === c && c > 0 ? c - 1 : lineStart(v, c);
      return { ...s, value: v.slice(0, start) + v.slice(c), cursor: start };
    }
    case 'set':
      return { ...s, value: action.value, cursor: action.cursor ?? action.value.length };
    case 'clear':
      return { ...s, value: '', cursor: 0, historyIndex: s.history.length, draft: '' };
    case 'submit': {
      const text = v.trim();
      const history = text && s.history[s.history.length - 1] !== text ? [...s.history, text] : s.history;
      return { value: '', cursor: 0, history, historyIndex: history.length, draft: '' };
    }
    default: {
      const never: never = action;
      return never;
    }
  }
}

function moveLine(v: string, c: number, dir: -1 | 1): number {
  const col = c - lineStart(v, c);
  const target = dir < 0 ? lineStart(v, c) - 1 : lineEnd(v, c) + 1;
  const start = lineStart(v, target);
  return Math.min(start + col, lineEnd(v, start));
}

function browse(s: InputState, dir: -1 | 1): InputState {
  const index = s.historyIndex + dir;
  if (index < 0 || index > s.history.length) return s;
  const draft = s.historyIndex === s.history.length ? s.value : s.draft;
  const value = index === s.history.length ? draft : s.history[index];
  return { ...s, value, cursor: value.length, historyIndex: index, draft };
}
