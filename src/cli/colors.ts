/** ANSI styling that switches itself off for NO_COLOR, `--no-color`, TERM=dumb and non-TTY streams. */
export interface Colors {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
  gray(text: string): string;
}

/** Options for `shouldUseColor`. */
export interface ColorOptions {
  /** `--no-color` was given. */
  noColor?: boolean;
  env?: NodeJS.ProcessEnv;
}

/**
 * Whether to style output written to `stream`: never with `--no-color` or a non-empty NO_COLOR,
 * always with a non-zero FORCE_COLOR, otherwise only on a TTY whose TERM is not `dumb`.
 */
export function shouldUseColor(stream: { isTTY?: boolean }, options: ColorOptions = {}): boolean {
  const env = options.env ?? process.env;
  if (options.noColor) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

function style(enabled: boolean, open: number, close: number): (text: string) => string {
  if (!enabled) return (text) => text;
  return (text) => (text === '' ? '' : `\u001b[${open}m${text}\u001b[${close}m`);
}

/** Styling functions; identity functions when `enabled` is false. */
export function createColors(enabled: boolean): Colors {
  return {
    enabled,
    bold: style(enabled, 1, 22),
    dim: style(enabled, 2, 22),
    italic: style(enabled, 3, 23),
    red: style(enabled, 31, 39),
    green: style(enabled, 32, 39),
    yellow: style(enabled, 33, 39),
    blue: style(enabled, 34, 39),
    magenta: style(enabled, 35, 39),
    cyan: style(enabled, 36, 39),
    gray: style(enabled, 90, 39),
  };
}

/** Colors for a stream, honouring the global flags and the environment. */
export function colorsFor(stream: { isTTY?: boolean }, options: ColorOptions = {}): Colors {
  return createColors(shouldUseColor(stream, options));
}
