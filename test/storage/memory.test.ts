import { describe, expect, it } from 'vitest';

import { openStore, SCHEMA_VERSION } from '../../src/storage/index.js';
import { MemoryCounterStore, MemoryLeaseStore } from '../../src/storage/memory/coordination.js';
import { MemData } from '../../src/storage/memory/data.js';
import { expectCode } from './conformance/expect-error.js';
import { storeConformance } from './store-conformance.js';
import { memoryTarget, TestClock } from './support/targets.js';

storeConformance(memoryTarget);

describe('memory store', () => {
  it('reports itself and refuses use after close', async () => {
    const store = await openStore({ driver: 'memory' });
    expect(store.info).toEqual({ driver: 'memory', location: 'memory:', schemaVersion: SCHEMA_VERSION });
    await store.close();
    await store.close();
    await expectCode(store.sessions.create({ agent: 'a' }), 'storage_error', 'closed');
  });

  it('keeps no reference to caller objects', async () => {
    const store = await openStore({ url: 'memory:' });
    const { id } = await store.sessions.create({ agent: 'a' });
    const message = { role: 'user' as const, content: [{ type: 'text' as const, text: 'original' }] };
    await store.sessions.append(id, { message });
    message.content[0].text = 'mutated';
    const [loaded] = await store.sessions.messages(id);
    expect(loaded).toEqual({ role: 'user', content: [{ type: 'text', text: 'original' }] });
    await store.close();
  });

  it('deletes expired counters and leases once every 500 calls', async () => {
    const clock = new TestClock();
    const data = new MemData();
    const context = { data, now: () => clock.t, location: 'memory:', check: () => undefined };
    const counters = new MemoryCounterStore(context);
    const leases = new MemoryLeaseStore(context);
    await leases.acquire('kept', 'me', 60_000);
    for (let i = 0; i < 499; i++) await counters.add(`c${i}`, 1, 10);
    for (let i = 0; i < 498; i++) await leases.acquire(`l${i}`, 'me', 10);
    expect([data.counters.size, data.leases.size]).toEqual([499, 499]);
    clock.tick(10);
    await counters.add('c-new', 1, 10);
    await leases.acquire('l-new', 'me', 10);
    expect([...data.counters.keys()]).toEqual(['c-new']);
    expect([...data.leases.keys()].sort()).toEqual(['kept', 'l-new']);
  });
});
