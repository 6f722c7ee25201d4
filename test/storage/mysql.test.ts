import { describe, expect, it } from 'vitest';

import { openStore, type Store } from '../../src/storage/index.js';
import { expectCode } from './conformance/expect-error.js';
import { storeConformance } from './store-conformance.js';
import { parallelAppends, schemaCases, sweepCases } from './support/driver-cases.js';
import { MYSQL_URL, mysqlTarget } from './support/targets.js';

storeConformance(mysqlTarget);
schemaCases(mysqlTarget);
sweepCases(mysqlTarget);

function variant(url: string, change: (u: URL) => void): string {
  const u = new URL(url);
  change(u);
  return u.toString();
}

describe.skipIf(Boolean(mysqlTarget.skip))('mysql store', () => {
  it('keeps a gapless total order with 8 connections appending to one session', async () => {
    const location = await mysqlTarget.createLocation();
    const stores: Store[] = [];
    try {
      for (let i = 0; i < 8; i++) stores.push(await openStore({ ...location.options, poolSize: 1 }));
      const { id } = await stores[0].sessions.create({ agent: 'a' });
      await parallelAppends(stores, id, 60);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await location.drop();
    }
  }, 60_000);

  it('reports an unreachable server with the URL, password masked', async () => {
    const url = variant(MYSQL_URL!, (u) => ((u.password = 'hunter2'), (u.port = '1')));
    const error = await expectCode(openStore({ url }), 'storage_unavailable', 'Cannot reach MySQL', '127.0.0.1:1', '***');
    expect(error.message).not.toContain('hunter2');
  });

  it('reports refused credentials, and a missing database', async () => {
    const url = variant(MYSQL_URL!, (u) => (u.password = 'hunter2-wrong'));
    const error = await expectCode(openStore({ url }), 'storage_auth_failed', 'refused the credentials', '***');
    expect(error.message).not.toContain('hunter2');
    await expectCode(
      openStore({ url: variant(MYSQL_URL!, (u) => (u.pathname = '/corvid_no_such_db')) }),
      'storage_unavailable',
      'corvid_no_such_db',
    );
  });

  it('accepts mariadb:// URLs', async () => {
    const location = await mysqlTarget.createLocation();
    try {
      const store = await openStore({ url: location.options.url!.replace(/^mysql:/, 'mariadb:') });
      expect(store.info.driver).toBe('mysql');
      await store.close();
    } finally {
      await location.drop();
    }
  });
});
