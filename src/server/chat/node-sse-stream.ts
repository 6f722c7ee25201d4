import type { ServerResponse } from 'node:http';

/** What a streamed answer writes to: hono's `SSEStreamingApi`, or a `NodeSseStream`. */
export interface SseSink {
  /** Writes one event (`event:` and `data:` lines). */
  writeSSE(message: { event: string; data: string }): Promise<void>;
  /** Writes raw text (e.g. a `: keep-alive` comment). */
  write(text: string): Promise<unknown>;
  /** Runs `listener` when the client goes away before the stream ends. */
  onAbort(listener: () => void): void;
}

const NEWLINE = /\r\n|\r|\n/;

/**
 * Server-sent events written straight to a Node response: no web streams, `Response` or `Headers`
 * per stream, and the headers leave with the first event in one write. (Through hono's
 * `streamSSE`, a TransformStream, two ReadableStreams, @hono/node-server's reader loop over them
 * and a separate write of the headers cost about a third more server CPU per chat stream.)
 * Writes wait while the socket is full (`drain`); after the client left they are dropped.
 */
export class NodeSseStream implements SseSink {
  private aborted = false;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly res: ServerResponse,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.once('close', () => {
      if (res.writableFinished) return;
      this.aborted = true;
      for (const listener of this.listeners) listener();
    });
  }

  onAbort(listener: () => void): void {
    this.listeners.push(listener);
  }

  writeSSE(message: { event: string; data: string }): Promise<void> {
    const data = NEWLINE.test(message.data) ? message.data.split(NEWLINE).join('\ndata: ') : message.data;
    return this.write(`event: ${message.event}\ndata: ${data}\n\n`);
  }

  write(text: string): Promise<void> {
    const res = this.res;
    if (this.aborted || res.writableEnded || res.destroyed) return Promise.resolve();
    if (res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.once('drain', done);
      res.once('close', done);
    });
  }

  /** Ends the response (once). */
  end(): void {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
  }
}
