import type { CounterStore, CounterWindow, LeaseAcquireOptions, LeaseInfo, LeaseStore } from '../../types/storage/coordination.js';
import { checkCounterAdd, checkLeaseAcquire, checkLeaseRelease, expiryAt, SWEEP_EVERY } from '../shared/coordination-checks.js';
import { checkId } from '../shared/validate.js';
import type { SqlBackend, SqlClient } from './sql-client.js';
import type { SqlContext } from './sql-sessions.js';

/** Deletes expired rows of `table` once every SWEEP_EVERY calls; best effort (a failure waits for the next turn). */
class Sweeper {
  private calls = 0;

  constructor(private readonly table: string) {}

  async tick(db: SqlClient, now: number): Promise<void> {
    if (++this.calls % SWEEP_EVERY !== 0) return;
    await db.run(`DELETE FROM ${this.table} WHERE expires_at <= ?`, [now]).catch(() => undefined);
  }
}

/**
 * Adds in one statement on SQLite and Postgres. `ON CONFLICT … DO UPDATE` SET expressions see
 * the old row: an ended window (expires_at <= now) restarts with the amount, a running one grows.
 * Postgres locks the conflicting row (a concurrent insert of a new key waits for the other one
 * to commit, then updates it); SQLite has one writer at a time. So every add sees the previous.
 */
const ADD_RETURNING = `INSERT INTO corvid_counters (counter_key, total, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (counter_key) DO UPDATE SET
    total = CASE WHEN corvid_counters.expires_at <= ? THEN excluded.total ELSE corvid_counters.total + excluded.total END,
    expires_at = CASE WHEN corvid_counters.expires_at <= ? THEN excluded.expires_at ELSE corvid_counters.expires_at END
  RETURNING total, expires_at`;

/**
 * MySQL / MariaDB: the upsert row-locks the key until commit; the SELECT in the same transaction
 * reads the row as this add left it. Assignments run left to right, so `total` comes first and
 * still tests the old `expires_at`.
 */
const ADD_MYSQL = `INSERT INTO corvid_counters (counter_key, total, expires_at) VALUES (?, ?, ?)
  ON DUPLICATE KEY UPDATE
    total = IF(expires_at <= ?, VALUES(total), total + VALUES(total)),
    expires_at = IF(expires_at <= ?, VALUES(expires_at), expires_at)`;

const READ_COUNTER = 'SELECT total, expires_at FROM corvid_counters WHERE counter_key = ?';

type CounterRow = { total: number | string; expires_at: number | string };

const toWindow = (r: CounterRow): CounterWindow => ({ total: Number(r.total), resetAt: new Date(Number(r.expires_at)) });

/** Fixed-window counters on a SQL backend (table `corvid_counters`). */
export class SqlCounterStore implements CounterStore {
  private readonly sweeper = new Sweeper('corvid_counters');

  constructor(private readonly c: SqlContext) {}

  async add(key: string, amount: number, windowMs: number): Promise<CounterWindow> {
    this.c.check();
    const ms = checkCounterAdd(key, amount, windowMs);
    const b = this.c.backend;
    const now = this.c.now();
    const window = amount === 0 ? await this.read(b, key, now, ms) : await this.upsert(b, key, amount, now, expiryAt(now, ms));
    await this.sweeper.tick(b.db, now);
    return window;
  }

  /** `add(key, 0)`: the running window, or an empty one that is not stored. */
  private async read(b: SqlBackend, key: string, now: number, ms: number): Promise<CounterWindow> {
    const [row] = await b.db.all<CounterRow>(READ_COUNTER, [key]);
    return row && Number(row.expires_at) > now ? toWindow(row) : { total: 0, resetAt: new Date(expiryAt(now, ms)) };
  }

  private async upsert(b: SqlBackend, key: string, amount: number, now: number, expiresAt: number): Promise<CounterWindow> {
    const params = [key, amount, expiresAt, now, now];
    if (b.name !== 'mysql') return toWindow((await b.db.all<CounterRow>(ADD_RETURNING, params))[0]);
    return b.db.transaction(async (tx) => {
      await tx.run(ADD_MYSQL, params);
      return toWindow((await tx.all<CounterRow>(READ_COUNTER, [key]))[0]);
    });
  }
}

/**
 * Acquire in one statement on SQLite and Postgres: insert the lease, or (on conflict) take it
 * over only when it has expired or is already this holder's. A row comes back exactly when the
 * holder has it now; the conflicting row is locked while the condition is tested.
 */
const ACQUIRE_RETURNING = `INSERT INTO corvid_leases (name, holder, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
  WHERE corvid_leases.expires_at <= ? OR corvid_leases.holder = excluded.holder OR corvid_leases.holder = ?
  RETURNING holder`;

/**
 * MySQL / MariaDB: `holder` is assigned first, and changes (or already was this holder) exactly
 * when the lease may be taken; `expires_at` then follows only where `holder` is now this holder.
 * The SELECT in the same transaction (the row stays locked) tells who holds it. The affected-rows
 * count is not used: it cannot tell a renewal within the same millisecond from a refusal.
 */
const ACQUIRE_MYSQL = `INSERT INTO corvid_leases (name, holder, expires_at) VALUES (?, ?, ?)
  ON DUPLICATE KEY UPDATE
    holder = IF(expires_at <= ? OR holder = VALUES(holder) OR holder = ?, VALUES(holder), holder),
    expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)`;

/** Leases on a SQL backend (table `corvid_leases`). */
export class SqlLeaseStore implements LeaseStore {
  private readonly sweeper = new Sweeper('corvid_leases');

  constructor(private readonly c: SqlContext) {}

  async acquire(name: string, holder: string, ttlMs: number, options: LeaseAcquireOptions = {}): Promise<boolean> {
    this.c.check();
    const ms = checkLeaseAcquire(name, holder, ttlMs);
    const b = this.c.backend;
    const now = this.c.now();
    // A NULL `replacing` never equals a holder.
    const params = [name, holder, expiryAt(now, ms), now, options.replacing ?? null];
    let acquired: boolean;
    if (b.name !== 'mysql') {
      acquired = (await b.db.all(ACQUIRE_RETURNING, params)).length > 0;
    } else {
      acquired = await b.db.transaction(async (tx) => {
        await tx.run(ACQUIRE_MYSQL, params);
        const [row] = await tx.all<{ holder: string }>('SELECT holder FROM corvid_leases WHERE name = ?', [name]);
        return row?.holder === holder;
      });
    }
    await this.sweeper.tick(b.db, now);
    return acquired;
  }

  async get(name: string): Promise<LeaseInfo | undefined> {
    this.c.check();
    checkId('Lease name', name, 255);
    const [row] = await this.c.backend.db.all<{ holder: string; expires_at: number | string }>(
      'SELECT holder, expires_at FROM corvid_leases WHERE name = ?',
      [name],
    );
    return row && Number(row.expires_at) > this.c.now() ? { holder: row.holder, expiresAt: new Date(Number(row.expires_at)) } : undefined;
  }

  async release(name: string, holder: string): Promise<boolean> {
    this.c.check();
    checkLeaseRelease(name, holder);
    const b = this.c.backend;
    const released = (await b.db.run('DELETE FROM corvid_leases WHERE name = ? AND holder = ?', [name, holder])) > 0;
    await this.sweeper.tick(b.db, this.c.now());
    return released;
  }
}
