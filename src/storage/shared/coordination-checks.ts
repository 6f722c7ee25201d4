import { ValidationError } from '../../errors/validation-error.js';
import { checkId } from './validate.js';

/** The latest instant a `Date` can hold: expiries are clamped to it. */
const MAX_TIME = 8.64e15;

/** Expired counter and lease rows are deleted once every this many calls of a store. */
export const SWEEP_EVERY = 500;

/**
 * Checks `add()`'s arguments and returns the window length in whole milliseconds. Shared by the
 * memory and SQL backends so both refuse the same inputs with the same messages.
 */
export function checkCounterAdd(key: string, amount: number, windowMs: number): number {
  checkId('Counter key', key, 255);
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    throw new ValidationError(`Counter "${key}": amount must be an integer from 0 to ${Number.MAX_SAFE_INTEGER} (got ${String(amount)})`);
  }
  return checkDuration(`Counter "${key}": windowMs`, windowMs);
}

/** Checks `acquire()`'s arguments and returns the ttl in whole milliseconds. */
export function checkLeaseAcquire(name: string, holder: string, ttlMs: number): number {
  checkLeaseRelease(name, holder);
  return checkDuration(`Lease "${name}": ttlMs`, ttlMs);
}

/** Checks `release()`'s arguments. */
export function checkLeaseRelease(name: string, holder: string): void {
  checkId('Lease name', name, 255);
  checkId(`Lease "${name}": holder`, holder, 255);
}

function checkDuration(what: string, ms: number): number {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) {
    throw new ValidationError(`${what} must be a positive finite number of milliseconds (got ${String(ms)})`);
  }
  return Math.ceil(ms);
}

/** `now + ms`, clamped to the latest valid Date (a huge window or ttl means "practically never"). */
export function expiryAt(now: number, ms: number): number {
  return Math.min(now + ms, MAX_TIME);
}
