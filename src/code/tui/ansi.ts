/**
 * The few ANSI SGR sequences the terminal UI writes into its strings (Ink colours its own boxes; the transcript's
 * markdown, diffs and highlighted code are pre-rendered strings). Setting `NO_COLOR` turns colour off.
 */
const ESC = '\u001b[';

/** A colour or style name the UI uses. */
export type AnsiStyle =
  | 'bold'
  | 'dim'
  | 'italic'
  | 'underline'
  | 'strike'
  | 'inverse'
  | 'red'
  | 'green'
  | 'yellow'
  | 'blue'
  | 'magenta'
  | 'cyan'
  | 'gray'
  | 'brightRed'
  | 'brightGreen';

const CODES: Record<AnsiStyle, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  strike: [9, 29],
  inverse: [7, 27],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
  brightRed: [91, 39],
  brightGreen: [92, 39],
};

const colorOn = !('NO_COLOR' in process.env);

/** `text` wrapped in the style's on/off codes (re-opened after inner resets, so styles nest). */
export function style(name: AnsiStyle, text: string): string {
  if (!colorOn || text === '') return text;
  const [on, off] = CODES[name];
  const close = `${ESC}${off}m`;
  // A nested style that closes with the same code (bold inside dim) would end ours early: re-open it.
  const inner = text.includes(close) ? text.split(close).join(close + `${ESC}${on}m`) : text;
  return `${ESC}${on}m${inner}${close}`;
}

/** Removes SGR sequences (for measuring and for plain-text snapshots). */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
