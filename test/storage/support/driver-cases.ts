/**
 * Cases every SQL backend runs besides the conformance suite: schema versioning (reopen, older
 * schema migrated, newer schema refused and left untouched), expired counters and leases swept,
 * and concurrent appends from several connections.
 */
import { describe, expect, it } from 'vitest';

import { openStore, SCHEMA_VERSION, type Store, type StoreOptions } from '../../../src/storage/index.js';
import { expectCode } from '../conformance/expect-error.js';
import { type StoreTarget, TestClock } from './targets.js';

/** Schema-version behaviour; `snapshot` returns something that must not change when a newer schema is refused. */
export function schemaCases(target: StoreTarget, snapshot?: (options: StoreOptions) => Promise<unknown>): void {
  describe.skipIf(Boolean(target.skip))(`schema versions: ${target.name}`, () => {
    it('migrates once, reopens at the same version, and several stores may open at once', async () => {
      const location = await target.createLocation();
      try {
        const stores = await Promise.all([openStore(location.options), openStore(location.options), openStore(location.options)]);
        for (const s of stores) expect(s.info.schemaVersion).toBe(SCHEMA_VERSION);
        const { id } = await stores[0].sessions.create({ agent: 'a' });
        await Promise.all(stores.map((s) => s.close()));
        const again = await openStore(location.options);
        expect((await again.sessions.get(id))?.agent).toBe('a');
        await again.close();
      } finally {
        await location.drop();
      }
    });

    it('migrates a version-1 database to the current version on open, keeping its data', async () => {
      const location = await target.createLocation();
      try {
        const store = await openStore(location.options);
        const { id } = await store.sessions.create({ agent: 'a' });
        await store.close();
        // Back to version 1: without what versions 2 and 3 added (the tables and their indexes).
        await location.exec(
          'DROP TABLE corvid_counters; DROP TABLE corvid_leases; DROP TABLE corvid_background_runs; DROP TABLE corvid_run_events; DELETE FROM corvid_schema WHERE version > 1',
        );
        expect(await location.rows('SELECT version FROM corvid_schema ORDER BY version')).toEqual([{ version: 1 }]);
        const migrated = await openStore(location.options);
        try {
          expect(migrated.info.schemaVersion).toBe(SCHEMA_VERSION);
          expect(
            (await location.rows('SELECT version, name FROM corvid_schema ORDER BY version')).map((r) => [Number(r.version), r.name]),
          ).toEqual([
            [1, 'initial'],
            [2, 'counters and leases'],
            [3, 'background runs and run events'],
          ]);
          expect((await migrated.sessions.get(id))?.agent).toBe('a');
          expect((await migrated.counters.add('k', 2, 1000)).total).toBe(2);
          expect(await migrated.leases.acquire('l', 'me', 1000)).toBe(true);
          expect(await migrated.backgroundRuns.create({ runId: 'run_m', agent: 'a', input: 'x' })).toMatchObject({ status: 'queued' });
        } finally {
          await migrated.close();
        }
      } finally {
        await location.drop();
      }
    });

    it('refuses a database whose schema is newer than the code, naming it and both versions, and leaves it untouched', async () => {
      const location = await target.createLocation();
      try {
        const store = await openStore(location.options);
        await store.sessions.create({ agent: 'a' });
        await store.close();
        await location.exec("INSERT INTO corvid_schema (version, name, applied_at) VALUES (99, 'from the future', 0)");
        const before = await snapshot?.(location.options);
        const error = await expectCode(
          openStore(location.options),
          'storage_schema_too_new',
          'schema version 99',
          `(${SCHEMA_VERSION})`,
          'untouched',
        );
        expect(error.message).toContain(location.options.path ? location.options.path : new URL(location.options.url!).host);
        if (snapshot) expect(await snapshot(location.options)).toEqual(before);
      } finally {
        await location.drop();
      }
    });
  });
}

/**
 * Appends from `writers` stores in parallel (each its own connection), `perWriter` entries each,
 * some one at a time and some in batches of 2, then checks the session's order: seqs 1..n
 * without a gap, every entry exactly once, each writer's entries in the order it wrote them.
 */
export async function parallelAppends(stores: Store[], sessionId: string, perWriter: number): Promise<void> {
  await Promise.all(
    stores.map(async (store, w) => {
      for (let i = 0; i < perWriter;) {
        const entry = (n: number) => ({ type: 'probe', agent: `w${w}`, data: { w, i: n } });
        if (i % 3 === 2 && i + 1 < perWriter) {
          await store.sessions.appendMany(sessionId, [entry(i), entry(i + 1)]);
          i += 2;
        } else {
          await store.sessions.append(sessionId, entry(i));
          i += 1;
        }
      }
    }),
  );
  await verifyTotalOrder(stores[0], sessionId, stores.length, perWriter);
}

/** Checks a session written by `writers` writers of `perWriter` probe entries each. */
export async function verifyTotalOrder(store: Store, sessionId: string, writers: number, perWriter: number): Promise<void> {
  const entries = await store.sessions.entries(sessionId);
  expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i + 1));
  const seen = new Set<string>();
  const lastByWriter = new Map<number, number>();
  for (const e of entries) {
    const { w, i } = e.data as { w: number; i: number };
    seen.add(`${w}:${i}`);
    expect(i, `writer ${w} out of order`).toBe((lastByWriter.get(w) ?? -1) + 1);
    lastByWriter.set(w, i);
  }
  expect(seen.size).toBe(writers * perWriter);
  expect((await store.sessions.get(sessionId))!.lastSeq).toBe(writers * perWriter);
}

/** Expired counter and lease rows are deleted now and then, so the tables do not grow without bound. */
export function sweepCases(target: StoreTarget): void {
  describe.skipIf(Boolean(target.skip))(`expired counters and leases: ${target.name}`, () => {
    it('deletes expired rows once every 500 calls of a store', async () => {
      const location = await target.createLocation();
      const clock = new TestClock();
      const store = await openStore({ ...location.options, now: clock.now });
      const count = async (table: string) => Number((await location.rows(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
      try {
        await store.leases.acquire('kept', 'me', 60_000);
        for (let i = 0; i < 498; i++) {
          await store.counters.add(`c${i}`, 1, 10);
          await store.leases.acquire(`l${i}`, 'me', 10);
        }
        await store.counters.add('c-last', 1, 10);
        expect(await count('corvid_counters')).toBe(499);
        expect(await count('corvid_leases')).toBe(499);
        clock.tick(10);
        // The 500th call of each store sweeps: only rows that have not expired remain.
        expect((await store.counters.add('c-new', 1, 10)).total).toBe(1);
        expect(await store.leases.acquire('l-new', 'me', 10)).toBe(true);
        expect(await count('corvid_counters')).toBe(1);
        expect(await count('corvid_leases')).toBe(2);
        expect(await store.leases.acquire('kept', 'other', 60_000)).toBe(false);
      } finally {
        await store.close();
        await location.drop();
      }
    }, 60_000);
  });
}
