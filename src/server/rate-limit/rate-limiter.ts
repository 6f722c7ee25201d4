import { createHash } from 'node:crypto';

import { HttpError } from '../../http/http-error.js';
import type { CounterWindow } from '../../types/storage/coordination.js';

/**
 * Where a rate limiter counts: fixed windows per key. `MemoryWindowCounter` counts in this
 * process; a store's `counters` count in the database, shared by every server on it.
 */
export interface RateCounter {
  add(key: string, amount: number, windowMs: number): CounterWindow | Promise<CounterWindow>;
}

interface Window {
  total: number;
  end: number;
}

/** Fixed-window counters in memory (one server process). */
export class MemoryWindowCounter implements RateCounter {
  private readonly windows = new Map<string, Window>();
  private inserts = 0;

  constructor(private readonly now: () => number = Date.now) {}

  add(key: string, amount: number, windowMs: number): CounterWindow {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t >= w.end) {
      if (!w && ++this.inserts % 1000 === 0) this.sweep(t);
      w = { total: 0, end: t + windowMs };
      this.windows.set(key, w);
    }
    w.total += amount;
    return { total: w.total, resetAt: new Date(w.end) };
  }

  private sweep(t: number): void {
    for (const [k, w] of this.windows) if (t >= w.end) this.windows.delete(k);
  }
}

/** Options for `RateLimiter`. */
export interface RateLimiterOptions {
  requestsPerMinute?: number;
  tokensPerHour?: number;
  /** Where windows are counted. Default: in memory, per process. */
  counter?: RateCounter;
  /** The clock (tests). */
  now?: () => number;
  /** Told when the counter fails; the request is let through (fail open). */
  onError?: (err: unknown) => void;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Request and token limits per client (`server.rate_limit`), in fixed windows: every request
 * counts (a refused one too) and a client over a limit is refused until its window ends.
 */
export class RateLimiter {
  private readonly counter: RateCounter;
  private readonly now: () => number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.counter = options.counter ?? new MemoryWindowCounter(this.now);
  }

  /** Whether windows are counted outside this process. */
  get shared(): boolean {
    return !(this.counter instanceof MemoryWindowCounter);
  }

  /** Counts a request; throws 429 with Retry-After when the client is over its limit. */
  async hit(client: string): Promise<void> {
    const limit = this.options.requestsPerMinute;
    if (!limit) return;
    const w = await this.count(`rate/requests/${clientKey(client)}`, 1, MINUTE);
    if (w && w.total > limit) throw this.limited(`Rate limit exceeded: ${limit} requests per minute`, w);
  }

  /** Throws 429 when the client has used its model tokens for this window. */
  async checkTokens(client: string): Promise<void> {
    const limit = this.options.tokensPerHour;
    if (!limit) return;
    const w = await this.count(`rate/tokens/${clientKey(client)}`, 0, HOUR);
    if (w && w.total >= limit) throw this.limited(`Token limit exceeded: ${limit} model tokens per hour`, w);
  }

  /** Records model tokens a client used. */
  async addTokens(client: string, tokens: number): Promise<void> {
    if (this.options.tokensPerHour && tokens > 0) await this.count(`rate/tokens/${clientKey(client)}`, tokens, HOUR);
  }

  private async count(key: string, amount: number, windowMs: number): Promise<CounterWindow | undefined> {
    try {
      return await this.counter.add(key, amount, windowMs);
    } catch (err) {
      this.options.onError?.(err);
      return undefined;
    }
  }

  private limited(message: string, w: CounterWindow): HttpError {
    const seconds = Math.max(1, Math.ceil((w.resetAt.getTime() - this.now()) / 1000));
    return new HttpError(429, 'rate_limited', `${message}; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
  }
}

/** A client id short enough for a counter key (long ones hashed). */
function clientKey(client: string): string {
  return client.length <= 200 ? client : `sha256:${createHash('sha256').update(client).digest('base64url')}`;
}
