import { describe, expect, it } from 'vitest';

import { StoreCancelMarks } from '../../src/a2a/index.js';
import { openStore } from '../../src/storage/index.js';

describe('StoreCancelMarks', () => {
  it('hands each mark to the instance running its task, once, and keeps the others', async () => {
    const store = await openStore({ driver: 'sqlite', path: ':memory:' });
    try {
      const canceler = new StoreCancelMarks(store.state, 'echo');
      const runner = new StoreCancelMarks(store.state, 'echo');
      await canceler.mark('t1');
      await canceler.mark('t2');
      await new StoreCancelMarks(store.state, 'other').mark('t3');
      expect(await runner.take(new Set(['t1', 't3', 't9']))).toEqual(['t1']);
      expect(await runner.take(new Set(['t1']))).toEqual([]);
      // t2 may still start running here: its mark waits; another agent's marks are not this one's.
      expect(await runner.take(new Set(['t2']))).toEqual(['t2']);
      expect((await store.state.list('app', { prefix: 'a2a/cancel/' })).map((e) => e.key)).toEqual(['a2a/cancel/other/t3']);
    } finally {
      await store.close();
    }
  });

  it('drops marks older than its limit whose task runs nowhere', async () => {
    const store = await openStore({ driver: 'sqlite', path: ':memory:' });
    try {
      await new StoreCancelMarks(store.state, 'echo').mark('gone');
      // A limit below zero makes every existing mark "old".
      expect(await new StoreCancelMarks(store.state, 'echo', -1).take(new Set(['running']))).toEqual([]);
      expect(await store.state.list('app', { prefix: 'a2a/cancel/' })).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
