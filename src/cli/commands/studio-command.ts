import { spawn } from 'node:child_process';

import type { CliContext } from '../cli-context.js';
import { serveUntilSignal } from './serve-command.js';

/** The program that opens a URL in the browser here: `open` (macOS), `cmd /c start` (Windows), else `xdg-open`. */
function browserCommand(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/** Opens `url` in the browser; where none can be started, says so (the URL is printed anyway). */
function openBrowser(url: string, stderr: NodeJS.WritableStream): void {
  const [command, args] = browserCommand(url);
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', (err) => stderr.write(`could not open a browser (${command}: ${err.message}); open ${url} by hand\n`));
    child.unref();
  } catch (err) {
    stderr.write(`could not open a browser (${(err as Error).message}); open ${url} by hand\n`);
  }
}

/**
 * `corvid studio [--open] [--port n] [--host addr] [--watch]`: `corvid serve`, printing the
 * Studio's URL (and opening it in the browser with `--open`).
 */
export function studioCommand(context: CliContext): Promise<number> {
  return serveUntilSignal(context, {
    command: 'studio',
    onListening: (base) => {
      const url = `${base}/studio/`;
      context.stdout.write(`${url}\n`);
      if (context.values.open === true) openBrowser(url, context.stderr);
    },
  });
}
