import { describe, expect, it } from 'vitest';
import { LruMap } from '../../src/core/lru-map.js';

describe('LruMap', () => {
  it('drops the least recently set entries beyond its size', () => {
    const m = new LruMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    m.set('a', 10); // a is now the most recent
    m.set('d', 4);
    expect([...m.values()].sort()).toEqual([10, 3, 4].sort());
    expect(m.has('b')).toBe(false);
    expect(m.get('a')).toBe(10);
    expect(m.delete('c')).toBe(true);
    expect(m.size).toBe(2);
  });

  it('keeps its bookkeeping bounded over many sets of the same keys and stays correct', () => {
    const m = new LruMap<number, number>(100);
    for (let i = 0; i < 50_000; i++) m.set(i % 150, i);
    expect(m.size).toBe(100);
    // The 100 most recently set keys are the last 100 values of i.
    expect([...m.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, k) => 49_900 + k));
    expect((m as unknown as { keys: unknown[] }).keys.length).toBeLessThan(2 * 100 + 1024 + 1);
  });
});
