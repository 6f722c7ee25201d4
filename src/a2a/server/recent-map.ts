/**
 * A map that keeps at least the `max` most recently set entries and at most twice as many,
 * forgetting older ones in bulk: entries go into a current generation; when it holds `max`, it
 * becomes the previous generation and the one before is dropped whole. Values must not be
 * `undefined`.
 *
 * An exact LRU pays a hash-table delete of its oldest key on every insert once full (a lookup in
 * a large, cold table); here an insert is one `set` and forgetting costs nothing per entry, which
 * matters for the thousands of tasks and conversations a server keeps in memory.
 */
export class RecentMap<K, V> {
  private current = new Map<K, V>();
  /** The generation before; a key set again since is also in `current`, which wins. */
  private previous = new Map<K, V>();

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new RangeError(`RecentMap: max must be at least 1 (got ${max})`);
  }

  get(key: K): V | undefined {
    const value = this.current.get(key);
    return value !== undefined ? value : this.previous.get(key);
  }

  has(key: K): boolean {
    return this.current.has(key) || this.previous.has(key);
  }

  /** Sets `key`, now among the most recently set. */
  set(key: K, value: V): this {
    const current = this.current;
    current.set(key, value);
    if (current.size >= this.max) {
      this.previous = current;
      this.current = new Map();
    }
    return this;
  }

  delete(key: K): boolean {
    const a = this.current.delete(key);
    const b = this.previous.delete(key);
    return a || b;
  }

  /** The entries, older generation first (each key once, with its latest value). */
  *entries(): IterableIterator<[K, V]> {
    const current = this.current;
    for (const entry of this.previous) if (!current.has(entry[0])) yield entry;
    yield* current;
  }

  /** The values, older generation first (one per key, its latest). */
  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }
}
