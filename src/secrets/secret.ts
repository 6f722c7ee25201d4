/** A stored secret: a JSON value with an optional expiry (OAuth tokens, API credentials). */
export class Secret<T = unknown> {
  constructor(
    readonly value: T,
    readonly updatedAt: Date,
    readonly expiresAt?: Date,
  ) {}

  /**
   * True when the secret has expired at `now`, or will within `bufferMs` (refresh a token a
   * little before it runs out: `isExpired(new Date(), 60_000)`). Never true without an expiry.
   */
  isExpired(now: Date | number = Date.now(), bufferMs = 0): boolean {
    if (!this.expiresAt) return false;
    const t = typeof now === 'number' ? now : now.getTime();
    return t + bufferMs >= this.expiresAt.getTime();
  }
}
