/**
 * A fake terminal for render tests: stdin (raw-mode capable) the test types into, stdout that records what Ink
 * writes, and a tiny screen model that applies the escape sequences Ink uses (cursor moves, line erases) so tests
 * can read the screen as text.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

/** A fake TTY pair. */
export interface FakeTerminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Everything written to stdout so far. */
  written(): string;
  /** The screen (scrollback included) as plain text, trailing blanks trimmed. */
  screen(): string;
  /** Resolves when `predicate(screen)` holds after a write (rejects after `timeoutMs`, showing the screen). */
  until(predicate: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Types `text` (a key sequence: `\r` Enter, `\u001b[Z` Shift+Tab, `\u0003` Ctrl-C). */
  type(text: string): void;
}

/** A terminal of `columns` × `rows`. */
export function createFakeTerminal(options: { columns?: number; rows?: number } = {}): FakeTerminal {
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream & { isTTY: boolean };
  stdin.isTTY = true;
  (stdin as unknown as { setRawMode: () => unknown }).setRawMode = () => stdin;
  (stdin as unknown as { ref: () => unknown }).ref = () => stdin;
  (stdin as unknown as { unref: () => unknown }).unref = () => stdin;
  let out = '';
  const stdout = Object.assign(new EventEmitter(), {
    columns: options.columns ?? 80,
    rows: options.rows ?? 24,
    isTTY: true,
    write(chunk: string | Uint8Array) {
      out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      stdout.emit('written');
      return true;
    },
  }) as unknown as NodeJS.WriteStream;
  return {
    stdin,
    stdout,
    written: () => out,
    screen: () => renderScreen(out, stdout.columns),
    type: (text) => void stdin.write(text),
    until: (predicate, timeoutMs = 45_000) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const screen = renderScreen(out, stdout.columns);
          if (!predicate(screen)) return;
          clearTimeout(timer);
          stdout.removeListener('written', check);
          resolve(screen);
        };
        const timer = setTimeout(() => {
          stdout.removeListener('written', check);
          reject(new Error(`screen condition not met within ${timeoutMs} ms; screen:\n${renderScreen(out, stdout.columns)}`));
        }, timeoutMs);
        stdout.on('written', check);
        check();
      }),
  };
}

/** Applies `output` to an empty screen `columns` wide; returns its lines (scrollback included). */
export function renderScreen(output: string, columns: number): string {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  // eslint-disable-next-line no-control-regex
  const re = /\u001b\[([?0-9;]*)([A-Za-z])|\u001b[=>78]|\u001b\][^\u0007]*\u0007|([\s\S])/g;
  for (let m = re.exec(output); m; m = re.exec(output)) {
    if (m[3] !== undefined) {
      const ch = m[3];
      if (ch === '\n') (row++, (col = 0));
      else if (ch === '\r') col = 0;
      else if (ch >= ' ') {
        if (col >= columns) (row++, (col = 0));
        line()[col++] = ch;
      }
      continue;
    }
    if (m[2] === undefined) continue;
    const n = Number(m[1]?.replace('?', '') || 1);
    switch (m[2]) {
      case 'A':
        row = Math.max(0, row - n);
        break;
      case 'B':
        row += n;
        break;
      case 'C':
        col += n;
        break;
      case 'D':
        col = Math.max(0, col - n);
        break;
      case 'G':
        col = n - 1;
        break;
      case 'K':
        if (m[1] === '2') lines[row] = [];
        else line().length = Math.min(line().length, col);
        break;
      case 'J':
        if (m[1] === '2' || m[1] === '3') ((lines.length = 0), (row = 0), (col = 0));
        else lines.length = row + 1;
        break;
      case 'H':
        ((row = 0), (col = 0));
        break;
      default:
        break;
    }
  }
  return Array.from(lines, (l) =>
    Array.from(l ?? [], (c) => c ?? ' ')
      .join('')
      .trimEnd(),
  )
    .join('\n')
    .replace(/\s+$/, '');
}
