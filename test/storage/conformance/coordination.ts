import { describe, expect, it } from 'vitest';

import { openStore, type Store } from '../../../src/storage/index.js';
import type { SuiteContext } from '../store-conformance.js';
import { unique } from '../support/targets.js';
import { expectCode } from './expect-error.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const ascending = (a: number, b: number) => a - b;

export function coordinationCases(ctx: SuiteContext): void {
  // A second store on the same data exists only for databases (an in-memory store is private).
  const shared = ctx.target.driver !== 'memory';

  /** A second store on the same database and clock (SQL backends), closed after `fn`. */
  async function withSecondStore(fn: (other: Store) => Promise<void>): Promise<void> {
    const other = await openStore({ ...ctx.location().options, now: ctx.clock.now });
    try {
      await fn(other);
    } finally {
      await other.close();
    }
  }

  describe('counters', () => {
    it('adds within a fixed window, reads with 0, and starts a new window after it ends', async () => {
      const { counters } = ctx.store();
      const key = unique('rate');
      const start = ctx.clock.t;
      const resetAt = new Date(start + 1000);
      expect(await counters.add(key, 1, 1000)).toEqual({ total: 1, resetAt });
      ctx.clock.tick(400);
      expect(await counters.add(key, 5, 1000)).toEqual({ total: 6, resetAt });
      expect(await counters.add(key, 0, 1000)).toEqual({ total: 6, resetAt });
      ctx.clock.tick(599);
      // A running window keeps its end, whatever windowMs a later add passes.
      expect(await counters.add(key, 2, 60_000)).toEqual({ total: 8, resetAt });
      ctx.clock.tick(1);
      // Ended: a read sees an empty window and starts nothing; the next add starts one.
      expect(await counters.add(key, 0, 1000)).toEqual({ total: 0, resetAt: new Date(start + 2000) });
      ctx.clock.tick(10);
      expect(await counters.add(key, 3, 1000)).toEqual({ total: 3, resetAt: new Date(start + 2010) });
      expect(await counters.add(key, 4, 1000)).toEqual({ total: 7, resetAt: new Date(start + 2010) });
    });

    it('keeps keys apart (case-sensitive) and takes keys up to 255 characters', async () => {
      const { counters } = ctx.store();
      const key = unique('k');
      const now = ctx.clock.t;
      await counters.add(key, 10, 5000);
      expect(await counters.add(`${key}-other`, 1, 500)).toEqual({ total: 1, resetAt: new Date(now + 500) });
      expect(await counters.add(key.toUpperCase(), 2, 500)).toEqual({ total: 2, resetAt: new Date(now + 500) });
      expect((await counters.add(key, 0, 5000)).total).toBe(10);
      const long = `${unique('l')}${'é'.repeat(255)}`.slice(0, 255);
      expect(long).toHaveLength(255);
      await counters.add(long, 1, 1000);
      expect((await counters.add(long, 2, 1000)).total).toBe(3);
    });

    it('rounds a fractional window up to a whole millisecond and clamps a huge one to the latest Date', async () => {
      const { counters } = ctx.store();
      const now = ctx.clock.t;
      expect(await counters.add(unique('frac'), 1, 0.5)).toEqual({ total: 1, resetAt: new Date(now + 1) });
      const huge = await counters.add(unique('huge'), 1, Number.MAX_VALUE);
      expect(huge.resetAt.getTime()).toBe(8.64e15);
    });

    it('sums 40 concurrent adds exactly: each sees a distinct total, the last 40', async () => {
      const { counters } = ctx.store();
      const key = unique('burst');
      const windows = await Promise.all(range(40).map(() => counters.add(key, 1, 60_000)));
      expect(windows.map((w) => w.total).sort(ascending)).toEqual(range(40));
      expect(new Set(windows.map((w) => w.resetAt.getTime())).size).toBe(1);
      expect((await counters.add(key, 0, 60_000)).total).toBe(40);
    });

    if (shared)
      it('sums interleaved adds from two stores on the same database exactly', async () => {
        await withSecondStore(async (other) => {
          const stores = [ctx.store(), other];
          const key = unique('shared');
          const windows = await Promise.all(range(60).map((i) => stores[i % 2].counters.add(key, 1, 60_000)));
          expect(windows.map((w) => w.total).sort(ascending)).toEqual(range(60));
          expect((await other.counters.add(key, 0, 60_000)).total).toBe(60);
          expect((await ctx.store().counters.add(key, 0, 60_000)).total).toBe(60);
        });
      });

    it('refuses bad keys, amounts and windows', async () => {
      const { counters } = ctx.store();
      const key = unique('bad');
      await expectCode(counters.add('', 1, 1000), 'validation_failed', 'Counter key');
      await expectCode(counters.add('x'.repeat(256), 1, 1000), 'validation_failed', '255');
      await expectCode(counters.add(undefined as never, 1, 1000), 'validation_failed');
      for (const amount of [-1, NaN, Infinity, 1.5, Number.MAX_SAFE_INTEGER + 1, '1' as never]) {
        await expectCode(counters.add(key, amount, 1000), 'validation_failed', 'amount');
      }
      for (const windowMs of [0, -1, NaN, Infinity, -Infinity, '1000' as never]) {
        await expectCode(counters.add(key, 1, windowMs), 'validation_failed', 'windowMs');
      }
      expect((await counters.add(key, 0, 1000)).total).toBe(0);
    });
  });

  describe('leases', () => {
    it('goes to the first holder, is renewed by it, and to another once it expires', async () => {
      const { leases } = ctx.store();
      const name = unique('resume');
      expect(await leases.acquire(name, 'a', 1000)).toBe(true);
      expect(await leases.acquire(name, 'b', 1000)).toBe(false);
      expect(await leases.acquire(name, 'A', 1000)).toBe(false);
      // Renewed within the same millisecond, then later: now + ttl each time.
      expect(await leases.acquire(name, 'a', 1000)).toBe(true);
      ctx.clock.tick(900);
      expect(await leases.acquire(name, 'a', 1000)).toBe(true);
      ctx.clock.tick(999);
      expect(await leases.acquire(name, 'b', 1000)).toBe(false);
      ctx.clock.tick(1);
      expect(await leases.acquire(name, 'b', 1000)).toBe(true);
      expect(await leases.acquire(name, 'a', 1000)).toBe(false);
    });

    it('tells who holds it until when, and is taken over from a holder named as gone (only that one)', async () => {
      const { leases } = ctx.store();
      const name = unique('run');
      expect(await leases.get(name)).toBeUndefined();
      expect(await leases.acquire(name, 'dead', 60_000)).toBe(true);
      const at = ctx.clock.now().getTime();
      expect(await leases.get(name)).toEqual({ holder: 'dead', expiresAt: new Date(at + 60_000) });
      // Replacing a holder that does not have it changes nothing.
      expect(await leases.acquire(name, 'new', 1000, { replacing: 'someone-else' })).toBe(false);
      expect((await leases.get(name))?.holder).toBe('dead');
      expect(await leases.acquire(name, 'new', 1000, { replacing: 'dead' })).toBe(true);
      expect(await leases.get(name)).toEqual({ holder: 'new', expiresAt: new Date(at + 1000) });
      expect(await leases.acquire(name, 'dead', 1000)).toBe(false);
      ctx.clock.tick(1000);
      expect(await leases.get(name)).toBeUndefined();
    });

    it('is released by its holder only', async () => {
      const { leases } = ctx.store();
      const name = unique('job');
      expect(await leases.release(name, 'a')).toBe(false);
      expect(await leases.acquire(name, 'a', 60_000)).toBe(true);
      expect(await leases.release(name, 'b')).toBe(false);
      expect(await leases.acquire(name, 'b', 60_000)).toBe(false);
      expect(await leases.release(name, 'a')).toBe(true);
      expect(await leases.release(name, 'a')).toBe(false);
      expect(await leases.acquire(name, 'b', 60_000)).toBe(true);
      expect(await leases.acquire(name, 'a', 60_000)).toBe(false);
    });

    it('keeps names apart', async () => {
      const { leases } = ctx.store();
      const name = unique('n');
      expect(await leases.acquire(name, 'a', 60_000)).toBe(true);
      expect(await leases.acquire(`${name}-2`, 'b', 60_000)).toBe(true);
      expect(await leases.acquire(name.toUpperCase(), 'b', 60_000)).toBe(true);
      expect(await leases.acquire(name, 'b', 60_000)).toBe(false);
    });

    it('goes to exactly one of 10 concurrent holders of a free name', async () => {
      const { leases } = ctx.store();
      const name = unique('race');
      const holders = range(10).map((i) => `h${i}`);
      const results = await Promise.all(holders.map((h) => leases.acquire(name, h, 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = holders[results.indexOf(true)];
      for (const h of holders) expect(await leases.acquire(name, h, 60_000)).toBe(h === winner);
    });

    if (shared)
      it('goes to exactly one of 10 concurrent holders across two stores, also once it expired', async () => {
        await withSecondStore(async (other) => {
          const stores = [ctx.store(), other];
          const name = unique('race2');
          const holders = range(10).map((i) => `h${i}`);
          for (const round of [1, 2]) {
            const results = await Promise.all(holders.map((h, i) => stores[i % 2].leases.acquire(name, h, 1000)));
            expect(results.filter(Boolean), `round ${round}`).toHaveLength(1);
            const winner = holders[results.indexOf(true)];
            expect(await other.leases.acquire(name, winner, 1000)).toBe(true);
            expect(await ctx.store().leases.acquire(name, winner === 'h0' ? 'h1' : 'h0', 1000)).toBe(false);
            ctx.clock.tick(1000);
          }
        });
      });

    it('refuses bad names, holders and ttls', async () => {
      const { leases } = ctx.store();
      const name = unique('bad');
      await expectCode(leases.acquire('', 'a', 1000), 'validation_failed', 'Lease name');
      await expectCode(leases.acquire('x'.repeat(256), 'a', 1000), 'validation_failed', '255');
      await expectCode(leases.acquire(name, '', 1000), 'validation_failed', 'holder');
      await expectCode(leases.acquire(name, 'h'.repeat(256), 1000), 'validation_failed', 'holder');
      for (const ttl of [0, -1, NaN, Infinity, undefined as never])
        await expectCode(leases.acquire(name, 'a', ttl), 'validation_failed', 'ttlMs');
      await expectCode(leases.release('', 'a'), 'validation_failed', 'Lease name');
      await expectCode(leases.release(name, ''), 'validation_failed', 'holder');
      const holder = 'h'.repeat(255);
      expect(await leases.acquire(name, holder, 1000)).toBe(true);
      expect(await leases.release(name, holder)).toBe(true);
    });
  });
}
