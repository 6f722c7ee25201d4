/** A counter's current fixed window. */
export interface CounterWindow {
  /** The window's total after the call. */
  total: number;
  /** When the window ends; the first add after that starts a new window. */
  resetAt: Date;
}

/**
 * Counters in fixed time windows, shared by every process on the same database: rate limits
 * that hold across server instances. A window starts at the first add after the previous one
 * ended and lasts `windowMs` from then.
 */
export interface CounterStore {
  /**
   * Atomically adds `amount` (a finite number ≥ 0; 0 only reads) to `key`'s current window, or
   * starts a new window with it when there is none or it ended, and returns the window.
   *
   * - `key`: 1 to 255 characters.
   * - `amount`: an integer from 0 to `Number.MAX_SAFE_INTEGER` (totals are request or token
   *   counts; count money in its smallest unit). Totals are exact up to `Number.MAX_SAFE_INTEGER`.
   *   With 0 nothing is written: when there is no current window the result is
   *   `{ total: 0, resetAt: now + windowMs }` and no window starts.
   * - `windowMs`: a positive finite number of milliseconds (rounded up to a whole one). It sets
   *   the length of a window that this call starts; a running window keeps its `resetAt`.
   *
   * Adds from any number of callers, stores and processes on one database sum exactly.
   * @throws ValidationError (`validation_failed`) for a bad key, amount or windowMs.
   */
  add(key: string, amount: number, windowMs: number): Promise<CounterWindow>;
}

/**
 * Leases: a named claim that one holder has until it expires or is given up, so that one of
 * several server instances does a piece of work (resuming an interrupted run), not all of them.
 */
export interface LeaseStore {
  /**
   * Takes `name` for `holder` for `ttlMs` when it is free or expired, or renews it when `holder`
   * already has it. True when `holder` holds it now; false when someone else does.
   *
   * Taking or renewing sets the expiry to now + `ttlMs` (a positive finite number of
   * milliseconds, rounded up to a whole one); a refused call changes nothing. `name` and `holder`
   * are 1 to 255 characters. Of concurrent acquires of a free name, exactly one gets it.
   * With `replacing`, it is also taken from that holder (one known to be gone), in the same
   * atomic step: only if that holder still has it.
   * @throws ValidationError (`validation_failed`) for a bad name, holder or ttlMs.
   */
  acquire(name: string, holder: string, ttlMs: number, options?: LeaseAcquireOptions): Promise<boolean>;
  /** Who holds `name` now and until when; undefined when it is free or expired. */
  get(name: string): Promise<LeaseInfo | undefined>;
  /**
   * Gives `name` up if `holder` has it. True when it was `holder`'s (also when it had expired and
   * nobody took it since); false, changing nothing, when it is free or someone else's.
   */
  release(name: string, holder: string): Promise<boolean>;
}

/** Options of `LeaseStore.acquire`. */
export interface LeaseAcquireOptions {
  /** A holder known to be gone (a dead process): its lease is taken over even before it expires. */
  replacing?: string;
}

/** A lease as it stands. */
export interface LeaseInfo {
  holder: string;
  expiresAt: Date;
}
