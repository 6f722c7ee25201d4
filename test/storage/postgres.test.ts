import { describe, expect, it } from 'vitest';

import { openStore, type Store } from '../../src/storage/index.js';
import { expectCode } from './conformance/expect-error.js';
import { storeConformance } from './store-conformance.js';
import { parallelAppends, schemaCases, sweepCases } from './support/driver-cases.js';
import { POSTGRES_URL, postgresTarget } from './support/targets.js';

storeConformance(postgresTarget);
schemaCases(postgresTarget);
sweepCases(postgresTarget);

/** The URL with other credentials / port. */
function variant(url: string, change: (u: URL) => void): string {
  const u = new URL(url);
  change(u);
  return u.toString();
}

describe.skipIf(Boolean(postgresTarget.skip))('postgres store', () => {
  it('keeps a gapless total order with 8 connections appending to one session', async () => {
    const location = await postgresTarget.createLocation();
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
    const url = variant(POSTGRES_URL!, (u) => ((u.password = 'hunter2'), (u.port = '1')));
    const error = await expectCode(openStore({ url }), 'storage_unavailable', 'Cannot reach PostgreSQL', '127.0.0.1:1', '***');
    expect(error.message).not.toContain('hunter2');
  });

  it('reports refused credentials, and a missing database', async () => {
    const url = variant(POSTGRES_URL!, (u) => ((u.username = 'corvid_no_such_role'), (u.password = 'hunter2')));
    const error = await expectCode(openStore({ url }), 'storage_auth_failed', 'refused the credentials', 'corvid_no_such_role');
    expect(error.message).not.toContain('hunter2');
    await expectCode(
      openStore({ url: variant(POSTGRES_URL!, (u) => (u.pathname = '/corvid_no_such_db')) }),
      'storage_unavailable',
      'corvid_no_such_db',
    );
  });

  it('validates its options', async () => {
    await expectCode(openStore({ driver: 'postgres' }), 'validation_failed', 'needs a url');
    await expectCode(openStore({ url: POSTGRES_URL, schema: 'bad-name; drop' }), 'validation_failed', 'identifier');
  });
});
