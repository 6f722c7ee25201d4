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

  it('stays correct over many sets of the same keys', () => {
    const m = new LruMap<number, number>(100);
    for (let i = 0; i < 50_000; i++) m.set(i % 150, i);
    expect(m.size).toBe(100);
    // The 100 most recently set keys are the last 100 values of i, oldest first.
    expect([...m.values()]).toEqual(Array.from({ length: 100 }, (_, k) => 49_900 + k));
  });

  it('evicts exactly like a naive map over random sets and deletes', () => {
    // Reference: delete + set to refresh, the first key in order is the oldest.
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (const max of [0, 1, 3, 50]) {
      const m = new LruMap<number, number>(max);
      const ref = new Map<number, number>();
      for (let i = 0; i < 20_000; i++) {
        const key = rand(max * 3 + 5);
        if (rand(5) === 0) expect(m.delete(key)).toBe(ref.delete(key));
        else {
          m.set(key, i);
          ref.delete(key);
          ref.set(key, i);
          while (ref.size > max) ref.delete(ref.keys().next().value!);
        }
        if (i % 97 === 0) expect([...m.values()]).toEqual([...ref.values()]);
      }
      expect(m.size).toBe(ref.size);
      expect([...m.values()]).toEqual([...ref.values()]);
    }
  });

  it('holds the newest entries of a long run of inserts', () => {
    const m = new LruMap<string, number>(10_000);
    for (let i = 0; i < 200_000; i++) m.set(`k${i}`, i);
    expect(m.size).toBe(10_000);
    expect(m.get('k199999')).toBe(199_999);
    expect(m.has('k189999')).toBe(false);
    expect(m.has('k190000')).toBe(true);
  });
});
