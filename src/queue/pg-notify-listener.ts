import type { Client } from 'pg';

import { loadPg } from '../storage/postgres/index.js';

/** Called with a notification's payload. */
export type NotificationHandler = (payload: string) => void;

const RECONNECT_MS = 1000;

/**
 * One Postgres connection that LISTENs on a few channels and hands each notification to the
 * handlers of its channel. A lost connection is opened again (every second until it succeeds);
 * notifications sent while it was down are lost, so callers treat them as wake-ups, never as data.
 */
export class PgNotifyListener {
  private client: Client | undefined;
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly onError?: (err: unknown) => void,
  ) {}

  /** Connects and listens on the channels handled so far. @throws when the first connection fails */
  async start(): Promise<void> {
    await this.connect();
  }

  /** Calls `handler` for each notification on `channel` (LISTENs on it when new). */
  on(channel: string, handler: NotificationHandler): void {
    let set = this.handlers.get(channel);
    if (set === undefined) {
      this.handlers.set(channel, (set = new Set()));
      this.client?.query(`LISTEN ${quote(channel)}`).catch((err: unknown) => this.onError?.(err));
    }
    set.add(handler);
  }

  /** Whether notifications are being received now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Closes the connection. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const pg = await loadPg();
    const client = new pg.Client({ connectionString: this.url, application_name: 'corvid-queue-listener' });
    client.on('notification', (n) => {
      for (const h of this.handlers.get(n.channel) ?? []) h(n.payload ?? '');
    });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      if (err !== undefined) this.onError?.(err);
      client.end().catch(() => undefined);
      this.reconnectLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quote(channel)}`);
    if (this.closed) return void (await client.end().catch(() => undefined));
    this.client = client;
  }

  private reconnectLater(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.connect().catch((err: unknown) => {
        this.onError?.(err);
        this.reconnectLater();
      });
    }, RECONNECT_MS);
    this.retry.unref();
  }
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
