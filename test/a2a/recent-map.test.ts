import { describe, expect, it } from 'vitest';

import { RecentMap } from '../../src/a2a/server/recent-map.js';

describe('RecentMap', () => {
  it('keeps at least the max most recently set keys and at most twice as many', () => {
    const m = new RecentMap<string, number>(1000);
    for (let i = 0; i < 25_000; i++) {
      m.set(`k${i}`, i);
      if (i % 997 === 0) {
        const held = [...m.values()];
        expect(held.length).toBeLessThanOrEqual(2000);
        expect(held.length).toBeGreaterThanOrEqual(Math.min(i + 1, 1000));
        // The newest 1000 are all there, oldest first.
        for (let k = Math.max(0, i - 999); k <= i; k++) expect(m.get(`k${k}`)).toBe(k);
        expect(held).toEqual([...held].sort((a, b) => a - b));
      }
    }
    expect(m.has('k0')).toBe(false);
    expect(m.has('k22999')).toBe(false);
    expect(m.get('k24000')).toBe(24_000);
  });

  it('answers the latest value of a key set again, once, and keeps it as recent', () => {
    const m = new RecentMap<string, string>(3);
    m.set('a', 'a1').set('b', 'b1').set('c', 'c1'); // rotates: a, b, c now the older generation
    m.set('a', 'a2');
    expect(m.get('a')).toBe('a2');
    expect([...m.entries()]).toEqual([
      ['b', 'b1'],
      ['c', 'c1'],
      ['a', 'a2'],
    ]);
    m.set('d', 'd1').set('e', 'e1'); // rotates again: b and c are forgotten, a stays
    expect(m.has('b')).toBe(false);
    expect(m.get('a')).toBe('a2');
    expect([...m.values()]).toEqual(['a2', 'd1', 'e1']);
  });

  it('deletes a key from both generations', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1).set('b', 2); // older generation
    m.set('a', 3); // and the current one
    expect(m.delete('a')).toBe(true);
    expect(m.get('a')).toBeUndefined();
    expect(m.has('a')).toBe(false);
    expect(m.delete('a')).toBe(false);
    expect([...m.values()]).toEqual([2]);
  });

  it('agrees with a plain map on every key set among the last max sets, over random sets and deletes', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (const max of [1, 3, 50]) {
      const m = new RecentMap<number, number>(max);
      const ref = new Map<number, { value: number; at: number }>(); // key -> latest value, and which set it was
      let sets = 0;
      for (let i = 0; i < 20_000; i++) {
        const key = rand(max * 4 + 5);
        if (rand(5) === 0) {
          ref.delete(key);
          m.delete(key);
        } else {
          ref.set(key, { value: i, at: sets++ });
          m.set(key, i);
        }
        if (i % 89 === 0) {
          for (const [k, { value, at }] of ref) if (at >= sets - max) expect(m.get(k)).toBe(value);
          // Whatever else is held is a key's latest value, and deleted keys are gone.
          for (const [k, v] of m.entries()) expect(ref.get(k)?.value).toBe(v);
        }
      }
    }
  });

  it('refuses a size under 1', () => {
    expect(() => new RecentMap(0)).toThrow(RangeError);
  });
});
