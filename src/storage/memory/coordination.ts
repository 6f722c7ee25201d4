import type { CounterStore, CounterWindow, LeaseAcquireOptions, LeaseInfo, LeaseStore } from '../../types/storage/coordination.js';
import { checkCounterAdd, checkLeaseAcquire, checkLeaseRelease, expiryAt, SWEEP_EVERY } from '../shared/coordination-checks.js';
import { checkId } from '../shared/validate.js';
import type { MemContext } from './sessions.js';

/** Deletes the entries of `map` whose `expiresAt` has passed, once every SWEEP_EVERY calls. */
function sweep(map: Map<string, { expiresAt: number }>, calls: number, now: number): void {
  if (calls % SWEEP_EVERY !== 0) return;
  for (const [key, row] of map) if (row.expiresAt <= now) map.delete(key);
}

/**
 * Fixed-window counters held in memory, on the store's clock. Each call runs to completion
 * without awaiting, so concurrent adds in this process are exact (there is no other process).
 */
export class MemoryCounterStore implements CounterStore {
  private calls = 0;

  constructor(private readonly c: MemContext) {}

  async add(key: string, amount: number, windowMs: number): Promise<CounterWindow> {
    this.c.check();
    const ms = checkCounterAdd(key, amount, windowMs);
    const now = this.c.now();
    const counters = this.c.data.counters;
    let row = counters.get(key);
    if (row && row.expiresAt <= now) row = undefined;
    if (amount > 0) {
      if (row) row.total += amount;
      else counters.set(key, (row = { total: amount, expiresAt: expiryAt(now, ms) }));
    }
    const window = row ? { total: row.total, resetAt: new Date(row.expiresAt) } : { total: 0, resetAt: new Date(expiryAt(now, ms)) };
    sweep(counters, ++this.calls, now);
    return window;
  }
}

/** Leases held in memory, on the store's clock. */
export class MemoryLeaseStore implements LeaseStore {
  private calls = 0;

  constructor(private readonly c: MemContext) {}

  async acquire(name: string, holder: string, ttlMs: number, options: LeaseAcquireOptions = {}): Promise<boolean> {
    this.c.check();
    const ms = checkLeaseAcquire(name, holder, ttlMs);
    const now = this.c.now();
    const leases = this.c.data.leases;
    const lease = leases.get(name);
    const acquired =
      !lease ||
      lease.expiresAt <= now ||
      lease.holder === holder ||
      (options.replacing !== undefined && lease.holder === options.replacing);
    if (acquired) leases.set(name, { holder, expiresAt: expiryAt(now, ms) });
    sweep(leases, ++this.calls, now);
    return acquired;
  }

  async get(name: string): Promise<LeaseInfo | undefined> {
    this.c.check();
    checkId('Lease name', name, 255);
    const lease = this.c.data.leases.get(name);
    return lease && lease.expiresAt > this.c.now() ? { holder: lease.holder, expiresAt: new Date(lease.expiresAt) } : undefined;
  }

  async release(name: string, holder: string): Promise<boolean> {
    this.c.check();
    checkLeaseRelease(name, holder);
    const leases = this.c.data.leases;
    const released = leases.get(name)?.holder === holder && leases.delete(name);
    sweep(leases, ++this.calls, this.c.now());
    return released;
  }
}
