import { spawn } from 'node:child_process';

/**
 * Opens a URL in the user's browser (`open`, `xdg-open` or `start`) and prints it on stderr, so
 * it can be opened by hand where no browser can be started (SSH, containers).
 */
export function openInBrowser(url: string, server: string, err: NodeJS.WritableStream = process.stderr): void {
  err.write(`To authorize MCP server "${server}", open this URL in a browser:\n  ${url}\n`);
  const platform = process.platform;
  if (platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  const [command, args] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser: the printed URL is the way.
  }
}
