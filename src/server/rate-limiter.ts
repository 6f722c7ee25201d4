import { HttpError } from './http-error.js';

interface Window {
  start: number;
  used: number;
}

/** A fixed-window counter per client key, in memory. */
export class WindowCounter {
  private readonly windows = new Map<string, Window>();
  private inserts = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private window(key: string): Window {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      if (!w && ++this.inserts % 1000 === 0) this.sweep(t);
      w = { start: t, used: 0 };
      this.windows.set(key, w);
    }
    return w;
  }

  private sweep(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }

  /** Seconds until the window of `key` resets. */
  retryAfter(key: string): number {
    const w = this.window(key);
    return Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000));
  }

  /** Whether `key` is below the limit (does not count anything). */
  allows(key: string): boolean {
    return this.window(key).used < this.limit;
  }

  /** Adds `amount` to `key`'s window. */
  add(key: string, amount = 1): void {
    this.window(key).used += amount;
  }
}

/** Request and token limits per client (`server.rate_limit`). */
export class RateLimiter {
  private readonly requests: WindowCounter | undefined;
  private readonly tokens: WindowCounter | undefined;

  constructor(config: { requestsPerMinute?: number; tokensPerHour?: number }, now?: () => number) {
    this.requests = config.requestsPerMinute ? new WindowCounter(config.requestsPerMinute, 60_000, now) : undefined;
    this.tokens = config.tokensPerHour ? new WindowCounter(config.tokensPerHour, 3_600_000, now) : undefined;
  }

  /** Counts a request; throws 429 with Retry-After when the client is over a limit. */
  hit(key: string): void {
    if (this.requests) {
      if (!this.requests.allows(key)) throw limited(`Rate limit exceeded: ${this.requests.limit} requests per minute`, this.requests.retryAfter(key));
      this.requests.add(key);
    }
  }

  /** Throws 429 when the client has used its model tokens for this window. */
  checkTokens(key: string): void {
    if (this.tokens && !this.tokens.allows(key)) throw limited(`Token limit exceeded: ${this.tokens.limit} model tokens per hour`, this.tokens.retryAfter(key));
  }

  /** Records model tokens a client used. */
  addTokens(key: string, tokens: number): void {
    if (this.tokens && tokens > 0) this.tokens.add(key, tokens);
  }
}

function limited(message: string, seconds: number): HttpError {
  return new HttpError(429, 'rate_limited', `${message}; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
}
