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
 * Why no browser should be opened here, or undefined when one may be: in CI (`CI` set), when told not to
 * (`CORVID_NO_BROWSER`), and on Linux without a display (SSH, containers).
 */
export function noBrowserReason(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.CORVID_NO_BROWSER) return 'CORVID_NO_BROWSER is set';
  if (env.CI) return 'CI is set';
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  return undefined;
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
      if (context.values.open !== true) return;
      const why = noBrowserReason(context.env);
      if (why) context.stderr.write(`not opening a browser (${why}); open ${url}\n`);
      else openBrowser(url, context.stderr);
    },
  });
}
