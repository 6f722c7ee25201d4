import { createServer, type Server } from 'node:http';

/** Default port of the localhost OAuth callback. */
export const DEFAULT_CALLBACK_PORT = 8889;

/** What the authorization server sent back to the callback. */
export type CallbackResult = { code: string } | { error: string; description?: string };

const page = (title: string, text: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:40em;margin:4em auto"><h1>${title}</h1><p>${text}</p></body></html>`;

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A one-shot HTTP server on 127.0.0.1 that receives the authorization redirect at `/callback`,
 * answers the browser with a success or error page, and resolves with the code or the error.
 * `state` must match when given.
 */
export class OAuthCallbackServer {
  private server: Server | undefined;
  private waiter: { resolve: (r: CallbackResult) => void; reject: (e: Error) => void } | undefined;
  private result: Promise<CallbackResult> | undefined;
  expectedState: string | undefined;

  constructor(readonly port: number = DEFAULT_CALLBACK_PORT) {}

  /** The redirect URI to register: `http://127.0.0.1:<port>/callback`. */
  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  /** Starts listening (once); `next` is the promise of the next callback (wrapped, so awaiting `listen` does not wait for it). */
  async listen(): Promise<{ next: Promise<CallbackResult> }> {
    this.result ??= new Promise<CallbackResult>((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
    this.result.catch(() => undefined);
    if (!this.server) {
      const server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', this.redirectUrl);
        if (url.pathname !== '/callback') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
          return;
        }
        const state = url.searchParams.get('state');
        const code = url.searchParams.get('code');
        const error = url.searchParams.get('error');
        let result: CallbackResult;
        if (this.expectedState !== undefined && state !== this.expectedState) {
          result = { error: 'state_mismatch', description: 'the state parameter does not match the request Corvid started' };
        } else if (error) {
          result = { error, description: url.searchParams.get('error_description') ?? undefined };
        } else if (code) result = { code };
        else result = { error: 'invalid_callback', description: 'the callback carried neither a code nor an error' };
        if ('code' in result) {
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(page('Authorization complete', 'Corvid is authorized. You can close this window and return to the terminal.'));
        } else {
          const why = `${result.error}${result.description ? `: ${result.description}` : ''}`;
          res
            .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
            .end(page('Authorization failed', `Corvid was not authorized (${escape(why)}). You can close this window.`));
        }
        const waiter = this.waiter;
        this.waiter = undefined;
        this.result = undefined;
        waiter?.resolve(result);
      });
      this.server = server;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    }
    return { next: this.result };
  }

  /** Stops listening; a pending wait fails with `reason`. */
  async close(reason = 'the authorization was abandoned'): Promise<void> {
    this.waiter?.reject(new Error(reason));
    this.waiter = undefined;
    this.result = undefined;
    const server = this.server;
    this.server = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
